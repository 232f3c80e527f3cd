/** Picks which VCs and ports the charts draw. */
import { memo, useState } from 'react'
import { portLabel, type Layout } from '../engine/layout'
import { DEFAULT_VC_COUNT, describeSelection, type SeriesSelection } from './selection'

interface SeriesPickerProps {
  layout: Layout
  colors: ReadonlyMap<string, string>
  selection: SeriesSelection
  onChange(selection: SeriesSelection): void
}

/** Long lists are filtered by text rather than scrolled through. */
const FILTER_FROM = 24

/** The lists are only built while the picker is open: a closed one costs nothing per frame. */
export const SeriesPicker = memo(function SeriesPicker({
  layout,
  colors,
  selection,
  onChange,
}: SeriesPickerProps) {
  const [open, setOpen] = useState(false)
  const [filter, setFilter] = useState('')
  const needle = filter.trim().toLowerCase()
  const vcs = layout.vcs.filter(
    (v) => !needle || `${v.id} ${v.source} ${v.destination}`.toLowerCase().includes(needle),
  )
  const toggleVc = (id: string) => {
    const next = new Set(selection.vcs)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    onChange({ ...selection, vcs: next })
  }
  const togglePort = (id: string) => {
    const next = new Set(selection.ports === 'auto' ? [] : selection.ports)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    onChange({ ...selection, ports: next })
  }
  return (
    <details className="series-picker" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Show: {describeSelection(layout, selection)}</summary>
      {open && (
        <div className="picker-body">
          <fieldset>
            <legend>VCs</legend>
            <div className="picker-actions">
              <button
                type="button"
                onClick={() =>
                  onChange({ ...selection, vcs: new Set(layout.vcs.map((v) => v.id)) })
                }
              >
                All
              </button>
              <button type="button" onClick={() => onChange({ ...selection, vcs: new Set() })}>
                None
              </button>
              {layout.vcs.length > DEFAULT_VC_COUNT && (
                <button
                  type="button"
                  onClick={() =>
                    onChange({
                      ...selection,
                      vcs: new Set(layout.vcs.slice(0, DEFAULT_VC_COUNT).map((v) => v.id)),
                    })
                  }
                >
                  First {DEFAULT_VC_COUNT}
                </button>
              )}
              {layout.vcs.length >= FILTER_FROM && (
                <input
                  type="search"
                  placeholder="filter VCs"
                  aria-label="Filter VCs"
                  value={filter}
                  onChange={(e) => setFilter(e.target.value)}
                />
              )}
            </div>
            <ul className="picker-list">
              {vcs.slice(0, 200).map((v) => (
                <li key={v.id}>
                  <label>
                    <input
                      type="checkbox"
                      checked={selection.vcs.has(v.id)}
                      onChange={() => toggleVc(v.id)}
                    />
                    <span
                      className="swatch"
                      style={{ background: colors.get(v.id) }}
                      aria-hidden="true"
                    />
                    {v.id}{' '}
                    <span className="muted">
                      ({v.source}→{v.destination})
                    </span>
                  </label>
                </li>
              ))}
              {vcs.length > 200 && (
                <li className="muted">… {vcs.length - 200} more: narrow the filter</li>
              )}
            </ul>
          </fieldset>
          <fieldset>
            <legend>Ports (queue, utilisation, loss)</legend>
            <label>
              <input
                type="radio"
                checked={selection.ports === 'auto'}
                onChange={() => onChange({ ...selection, ports: 'auto' })}
              />
              Follow the bottleneck (the ports that queue most)
            </label>
            <ul className="picker-list">
              {layout.ports.map((p) => (
                <li key={p.id}>
                  <label>
                    <input
                      type="checkbox"
                      checked={selection.ports !== 'auto' && selection.ports.has(p.id)}
                      onChange={() => togglePort(p.id)}
                    />
                    {portLabel(p)} <span className="muted">(port {p.id})</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        </div>
      )}
    </details>
  )
})
