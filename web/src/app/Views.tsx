/**
 * The views beside the drawing: the linked charts (with the compare tools), the sweep and the
 * parameter guide, and the run's exports.
 */
import { useMemo, useRef } from 'react'
import { ComparePanel } from '../compare/ComparePanel'
import type { Layout } from '../engine/layout'
import { RunExports } from '../export/RunExports'
import { GlossaryPanel } from '../glossary/GlossaryPanel'
import { ParameterGuide } from '../guide/ParameterGuide'
import { RecordMenu } from '../record/RecordMenu'
import { useLab, useLabStore, useRun, useRunFrame } from '../lab/hooks'
import type { MainView } from '../lab/lab'
import { SweepPanel } from '../sweep/SweepPanel'
import { LabCharts } from './LabCharts'
import { useColors } from './liveHooks'
import { setPresentation, usePresentation } from './presentation'

const VIEWS: readonly (readonly [MainView, string])[] = [
  ['charts', 'Charts'],
  ['sweep', 'Sweep'],
  ['guide', 'Parameter guide'],
  ['glossary', 'Glossary'],
]

interface ViewsProps {
  layout: Layout
  embed: boolean
  /** The page's title, for recordings. */
  title: string
}

export function Views({ layout, embed, title }: ViewsProps) {
  const lab = useLabStore()
  const view = useLab((l) => l.view)
  const scenario = useLab((l) => l.scenario)
  const pinned = useLab((l) => l.pinned)
  const edited = useLab((l) => (l.edited?.changes.length ?? 0) > 0)
  const runLabel = useLab((l) => l.runLabel) ?? layout.scenario.title
  const store = useRun((r) => r.store)
  const running = useRun((r) => r.status === 'running')
  const nowMs = useRunFrame((r) => r.nowMs)
  const present = usePresentation()
  const colors = useColors()
  const scenarioJson = useMemo(() => (scenario ? JSON.stringify(scenario) : null), [scenario])
  // The sweep panel is built when its tab is first shown and kept from then on (a sweep runs on
  // while the charts are looked at). Built at once, its two parameter lists held an option for
  // every parameter of every element: 1,660 elements of 200 sources, unseen.
  const sweepShown = useRef(false)
  if (view === 'sweep') sweepShown.current = true
  const panel = (id: MainView) => ({
    className: 'view-panel',
    role: 'tabpanel',
    id: `view-panel-${id}`,
    'aria-labelledby': `view-${id}`,
    hidden: view !== id,
  })
  return (
    <div className="charts">
      {!embed && (
        <div className="main-tabs" role="tablist" aria-label="Views">
          {VIEWS.map(([id, label]) => (
            <button
              key={id}
              type="button"
              role="tab"
              id={`view-${id}`}
              aria-selected={view === id}
              aria-controls={`view-panel-${id}`}
              onClick={() => lab.setView(id)}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      {!embed && (
        <div className="main-tools">
          <RunExports store={store} scenarioId={layout.scenario.id} edited={edited} />
          <RecordMenu
            title={title}
            cursor={lab.cursor}
            nowMs={nowMs}
            running={running}
            pause={() => lab.run.pause()}
            layout={layout}
            colors={colors}
            pinned={pinned}
            runLabel={runLabel}
          />
        </div>
      )}
      <div {...panel('charts')}>
        <LabCharts
          layout={layout}
          present={
            present.on && !embed
              ? { charts: present.charts, onCharts: (charts) => setPresentation({ charts }) }
              : undefined
          }
          toolbar={
            !embed &&
            store &&
            scenarioJson && (
              <ComparePanel
                layout={layout}
                store={store}
                scenarioJson={scenarioJson}
                pinned={pinned}
                onPin={lab.pinRun}
                onUnpin={() => lab.setPinned(null)}
                onRunChanged={lab.openRun}
              />
            )
          }
        />
      </div>
      {!embed && (
        <div {...panel('sweep')}>
          {scenarioJson && sweepShown.current && (
            <SweepPanel layout={layout} scenarioJson={scenarioJson} onOpenRun={lab.openRun} />
          )}
        </div>
      )}
      {!embed && (
        <div {...panel('guide')}>
          {scenarioJson && view === 'guide' && (
            <ParameterGuide layout={layout} scenarioJson={scenarioJson} />
          )}
        </div>
      )}
      {!embed && <GlossaryPanel shown={view === 'glossary'} />}
    </div>
  )
}
