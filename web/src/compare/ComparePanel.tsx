/**
 * Compare: pin the run on the page, change something, run again — every chart then
 * draws the pinned run faint behind the new one, with a legend naming both. The change can be one
 * of the scenario's variants or any parameter by path (the `--set` grammar, `*` for every VC).
 */
import { useEffect, useMemo, useState } from 'react'
import type { PinnedRun } from '../charts/chartContext'
import type { Layout } from '../engine/layout'
import { formatScenarioError } from '../engine/protocol'
import type { SampleStore } from '../engine/samples'
import {
  applyOverrides,
  formatParamValue,
  parseValue,
  variantOverrides,
  type Override,
} from '../sweep/paths'
import { loadRegistry, sweepTargets, type SweepTarget } from '../sweep/targets'

interface ComparePanelProps {
  layout: Layout
  store: SampleStore
  scenarioJson: string
  pinned: PinnedRun | null
  /** Pins the run so far. */
  onPin(): void
  onUnpin(): void
  /** Loads a changed scenario as the page's run and plays it; returns null, or why it was refused. */
  onRunChanged(scenarioJson: string, label: string): Promise<string | null>
}

export function ComparePanel({
  layout,
  store,
  scenarioJson,
  pinned,
  onPin,
  onUnpin,
  onRunChanged,
}: ComparePanelProps) {
  const [targets, setTargets] = useState<SweepTarget[]>([])
  useEffect(() => {
    let live = true
    loadRegistry().then(
      (registry) => live && setTargets(sweepTargets(layout, scenarioJson, registry)),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [layout, scenarioJson])
  const variants = layout.scenario.variants ?? []
  const [change, setChange] = useState<{
    kind: 'param' | 'variant'
    path: string
    value: string
    variant: string
  }>({
    kind: 'param',
    path: 'vcs.*.rif',
    value: '1',
    variant: '',
  })
  const [problem, setProblem] = useState<string | null>(null)
  const [open, setOpen] = useState(false)
  const target = useMemo(() => targets.find((t) => t.path === change.path), [targets, change.path])

  const runAgain = async () => {
    setProblem(null)
    let overrides: Override[] | null
    let label: string
    if (change.kind === 'variant') {
      const variant = variants.find((v) => v.id === change.variant)
      overrides = variant ? variantOverrides(scenarioJson, variant.id) : null
      label = variant?.label ?? change.variant
      if (!overrides) {
        setProblem('Choose one of the scenario’s variants.')
        return
      }
    } else {
      if (change.path.trim() === '' || change.value.trim() === '') {
        setProblem('Choose a parameter and type its new value.')
        return
      }
      overrides = [{ path: change.path.trim(), raw: change.value.trim() }]
      const v = parseValue(change.value.trim())
      label = `${target?.label ?? change.path} = ${typeof v === 'number' ? formatParamValue(v) : change.value.trim()}`
    }
    const applied = applyOverrides(scenarioJson, overrides)
    if ('error' in applied) {
      setProblem(formatScenarioError(applied.error))
      return
    }
    // Refused: the form stays open with what was typed and the engine's words beside it.
    const refused = await onRunChanged(applied.json, label)
    if (refused !== null) setProblem(`Not run: ${refused}`)
    else setOpen(false)
  }

  return (
    <div className="compare-panel" role="group" aria-label="Compare runs">
      {pinned ? (
        <span className="pinned-note" data-testid="pinned-label">
          Pinned: {pinned.label}
          <button type="button" onClick={onUnpin}>
            Unpin
          </button>
        </span>
      ) : (
        <button
          type="button"
          onClick={onPin}
          disabled={store.rowCount === 0}
          title="Keep this run on the charts to compare the next one with it"
        >
          Pin this run
        </button>
      )}
      <details
        className="compare-change"
        open={open}
        onToggle={(e) => setOpen(e.currentTarget.open)}
      >
        <summary>Change &amp; run again</summary>
        {open && (
          <div className="compare-form">
            {variants.length > 0 && (
              <label>
                <input
                  type="radio"
                  checked={change.kind === 'variant'}
                  onChange={() =>
                    setChange((c) => ({
                      ...c,
                      kind: 'variant',
                      variant: c.variant || variants[0].id,
                    }))
                  }
                />
                Variant
                <select
                  value={change.variant}
                  onChange={(e) =>
                    setChange((c) => ({ ...c, kind: 'variant', variant: e.target.value }))
                  }
                  aria-label="Variant"
                >
                  {variants.map((v) => (
                    <option key={v.id} value={v.id}>
                      {v.label}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label>
              {variants.length > 0 && (
                <input
                  type="radio"
                  checked={change.kind === 'param'}
                  onChange={() => setChange((c) => ({ ...c, kind: 'param' }))}
                />
              )}
              Set
              <input
                list="compare-paths"
                value={change.path}
                onChange={(e) => setChange((c) => ({ ...c, kind: 'param', path: e.target.value }))}
                aria-label="Parameter path"
                size={24}
              />
              <datalist id="compare-paths">
                {targets.map((t) => (
                  <option key={t.path} value={t.path}>
                    {t.label}
                  </option>
                ))}
              </datalist>
              =
              <input
                value={change.value}
                onChange={(e) => setChange((c) => ({ ...c, kind: 'param', value: e.target.value }))}
                aria-label="New value"
                size={8}
              />
              {target?.spec.unit ? <span className="muted">{target.spec.unit}</span> : null}
            </label>
            <button type="button" className="primary" onClick={runAgain}>
              Run again with this change
            </button>
            {target && (
              <p className="muted">
                {target.label}: {target.spec.doc}
              </p>
            )}
            {problem && (
              <p className="sweep-problem" role="alert" data-testid="compare-problem">
                {problem}
              </p>
            )}
          </div>
        )}
      </details>
    </div>
  )
}
