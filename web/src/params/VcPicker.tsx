/**
 * The parameter panel's choice of VC: one chip per VC; with many VCs, a filter and the chips that
 * match it (the selected VC always among them), so that the selection's parameters stay in view
 * instead of below hundreds of buttons.
 */
import { useState } from 'react'
import type { DocRoute, Selection } from '../scenario/doc'

/** VCs beyond which the chips are filtered; also the most chips shown at once. */
export const CHIPS_SHOWN = 16

interface VcPickerProps {
  vcs: readonly DocRoute[]
  selection: Selection | null
  colors: ReadonlyMap<string, string>
  onSelect(selection: Selection | null): void
}

function matches(vc: DocRoute, words: readonly string[]): boolean {
  const text = `${vc.id} ${vc.path.join(' ')}`.toLowerCase()
  return words.every((w) => text.includes(w))
}

/** The VCs whose chips are shown: all of them when few, else the selected one and the first matches. */
export function shownVcs(
  vcs: readonly DocRoute[],
  filter: string,
  selectedId: string | null,
): { shown: DocRoute[]; matching: number } {
  if (vcs.length <= CHIPS_SHOWN) return { shown: [...vcs], matching: vcs.length }
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean)
  const hits = vcs.filter((vc) => matches(vc, words))
  const shown = hits.slice(0, CHIPS_SHOWN)
  const selected = vcs.find((vc) => vc.id === selectedId)
  if (selected && !shown.includes(selected)) shown.unshift(selected)
  return { shown, matching: hits.length }
}

export function VcPicker({ vcs, selection, colors, onSelect }: VcPickerProps) {
  const [filter, setFilter] = useState('')
  const selectedId = selection?.kind === 'vc' ? selection.id : null
  const { shown, matching } = shownVcs(vcs, filter, selectedId)
  const filtered = vcs.length > CHIPS_SHOWN
  return (
    <div className="vc-picker" role="group" aria-label="Select a VC">
      <span className="muted">VCs:</span>
      {filtered && (
        <input
          type="search"
          className="vc-filter"
          placeholder={`Filter ${vcs.length} VCs (id or node)`}
          aria-label={`Filter the ${vcs.length} VCs by id or node`}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
      {shown.map((vc) => (
        <button
          key={vc.id}
          type="button"
          className="vc-chip"
          aria-pressed={vc.id === selectedId}
          style={{ borderColor: colors.get(vc.id) }}
          onClick={() => onSelect(vc.id === selectedId ? null : { kind: 'vc', id: vc.id })}
        >
          <span className="swatch" style={{ background: colors.get(vc.id) }} aria-hidden="true" />
          {vc.id}{' '}
          <span className="muted">
            {vc.path[0]}→{vc.path[vc.path.length - 1]}
          </span>
        </button>
      ))}
      {filtered && (
        <span className="muted vc-filter-count" aria-live="polite">
          {matching > CHIPS_SHOWN
            ? `${CHIPS_SHOWN} of ${matching} matching VCs shown; type to narrow`
            : `${matching} of ${vcs.length} VCs match`}
        </span>
      )}
      {selection && (
        <button type="button" className="vc-chip plain" onClick={() => onSelect(null)}>
          Run settings
        </button>
      )}
    </div>
  )
}
