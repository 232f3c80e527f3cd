/**
 * The parameter panel: every registry parameter of the selected VC, port or link (or of the run,
 * with nothing selected), grouped in sections, each with a slider and a number field.
 */
import './params.css'
import { memo, useMemo } from 'react'
import type { Layout } from '../engine/layout'
import { docVcs, type Selection } from '../scenario/doc'
import type { EngineInfo } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'
import type { Section } from './field'
import { sectionsFor } from './fields'
import type { ApplyOp } from '../lab/operation'
import { ChoiceControl, NumberControl } from './ParamControl'
import { VcPicker } from './VcPicker'

interface ParamsPanelProps {
  scenario: JsonObject
  info: EngineInfo
  layout: Layout | null
  selection: Selection | null
  colors: ReadonlyMap<string, string>
  onSelect(selection: Selection | null): void
  onApply: ApplyOp
}

function subjectOf(section: Section, selection: Selection | null): string {
  if (section.title.startsWith('Port ')) return `port ${section.title.slice(5)}`
  if (selection?.kind === 'link') return `link ${selection.id}`
  if (selection?.kind === 'vc') return selection.id
  return section.id === 'run' ? 'the run' : section.title
}

/** The panel's heading: whose parameters it shows. */
function panelHeading(selection: Selection | null): string {
  if (selection === null) return 'Parameters of the run'
  if (selection.kind === 'link') return `Parameters of link ${selection.id}`
  return `Parameters of ${selection.id}`
}

/** Memoised: the page re-renders at the display rate while running; the panel only when its inputs change. */
export const ParamsPanel = memo(function ParamsPanel({
  scenario,
  info,
  layout,
  selection,
  colors,
  onSelect,
  onApply,
}: ParamsPanelProps) {
  const buffers = useMemo(
    () =>
      new Map(
        (layout?.ports ?? []).map((p) => [
          p.id,
          (p as { buffer_cells?: number }).buffer_cells ?? 0,
        ]),
      ),
    [layout],
  )
  const sections = useMemo(
    () => sectionsFor(scenario, info, selection, buffers),
    [scenario, info, selection, buffers],
  )
  const vcs = docVcs(scenario)
  return (
    <section className="params-panel" aria-label="Parameters">
      <h2 className="params-subject">{panelHeading(selection)}</h2>
      <VcPicker vcs={vcs} selection={selection} colors={colors} onSelect={onSelect} />
      {sections.length === 0 && <p className="muted">This element has no parameters of its own.</p>}
      {sections.map((section) => (
        <section
          key={section.id}
          className="param-section"
          aria-labelledby={`params-${section.id}`}
        >
          <h3 id={`params-${section.id}`}>{section.title}</h3>
          {section.note && <p className="muted param-section-note">{section.note}</p>}
          {section.fields.map((field) =>
            field.type === 'number' ? (
              <NumberControl
                key={field.id}
                field={field}
                subject={subjectOf(section, selection)}
                onApply={onApply}
              />
            ) : (
              <ChoiceControl
                key={field.id}
                field={field}
                subject={subjectOf(section, selection)}
                onApply={onApply}
              />
            ),
          )}
        </section>
      ))}
    </section>
  )
})
