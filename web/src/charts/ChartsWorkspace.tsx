/**
 * The page's charts, linked: one hover time read out on every chart and on the topology,
 * one brushed time window for all of them, one choice of VCs and ports; with a pinned run
 * overlaid when there is one.
 */
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react'
import './charts.css'
import { column, type Layout } from '../engine/layout'
import type { SampleStore } from '../engine/samples'
import { ChartPanel } from './ChartPanel'
import { Legend } from './Legend'
import { chartsReadyAt, drawsPending } from './drawQueue'
import { formatTime, type TimeCursor, type TimeWindow } from './cursor'
import type { ChartContext, PinnedRun } from './chartContext'
import { chartKinds, chartModel, chartTitle, type ChartKind } from './models'
import { overlayLegend } from './overlay'
import { defaultSelection, selectedPorts, selectedVcs, type SeriesSelection } from './selection'
import { SeriesPicker } from './SeriesPicker'

interface ChartsWorkspaceProps {
  layout: Layout
  store: SampleStore
  colors: ReadonlyMap<string, string>
  cursor: TimeCursor
  pinned: PinnedRun | null
  runLabel: string
  /** Extra controls for the toolbar (the compare panel). */
  toolbar?: ReactNode
  /** Told the VCs picked for the charts (they take the palette's colours, the rest are grey). */
  onPick?(vcs: ReadonlySet<string>): void
  /** Presentation mode: only these two charts, with a choice of which. */
  present?: { charts: readonly ChartKind[]; onCharts(charts: [ChartKind, ChartKind]): void }
}

/** DOM ids of the charts' <svg>s; the first two keep the ids the page has always had. */
export const CHART_IDS: Record<ChartKind, string> = {
  acr: 'acr-chart',
  queue: 'queue-chart',
  util: 'util-chart',
  received: 'received-chart',
  lost: 'lost-chart',
  fairness: 'fairness-chart',
  classes: 'classes-chart',
  ratio: 'ratio-chart',
}

/** What identifies a topology: a new scenario resets the selection and the zoom, a reset does not. */
function topologyKey(layout: Layout): string {
  return `${layout.scenario.id}|${layout.vcs.map((v) => v.id).join(',')}|${layout.ports.map((p) => p.id).join(',')}`
}

function HoverTime({ cursor }: { cursor: TimeCursor }) {
  const t = useSyncExternalStore(
    (fn) => cursor.subscribe(fn),
    () => cursor.get(),
  )
  return (
    <span className="hover-time" data-testid="hover-time" aria-live="off">
      {t === null
        ? 'Hover a chart to read every value at one time; drag to zoom'
        : `Values at t = ${formatTime(t)}`}
    </span>
  )
}

/**
 * `rows` (the store's received rows), held back while the charts are within their pause after a
 * redraw (drawQueue.ts: at most CHART_SHARE of the page's time), and let through when it ends.
 * Rows going down (a new run) pass at once.
 */
function useChartRows(rows: number): number {
  const drawn = useRef(-1)
  const [, wake] = useState(0)
  const now = performance.now()
  const due =
    rows !== drawn.current &&
    (rows < drawn.current || drawn.current < 0 || (now >= chartsReadyAt() && !drawsPending()))
  if (due) drawn.current = rows
  const shown = drawn.current
  useEffect(() => {
    if (rows === shown) return
    // Still drawing: look again a frame later; else when the pause ends.
    const wait = drawsPending() ? 16 : Math.max(0, chartsReadyAt() - performance.now())
    const timer = setTimeout(() => wake((n) => n + 1), wait)
    return () => clearTimeout(timer)
  })
  return shown
}

/** The two charts presentation mode shows (the first two the scenario has, for kinds it lacks). */
function shownCharts<M extends { kind: ChartKind }>(
  models: readonly M[],
  wanted: readonly ChartKind[],
): M[] {
  const chosen = wanted
    .map((k) => models.find((m) => m.kind === k))
    .filter((m): m is M => m !== undefined)
  const picked = [...new Set(chosen)]
  for (const m of models) if (picked.length < 2 && !picked.includes(m)) picked.push(m)
  return picked
}

export function ChartsWorkspace({
  layout,
  store,
  colors,
  cursor,
  pinned,
  runLabel,
  toolbar,
  onPick,
  present,
}: ChartsWorkspaceProps) {
  const key = topologyKey(layout)
  const [state, setState] = useState<{
    key: string
    selection: SeriesSelection
    window: TimeWindow
  }>(() => ({
    key,
    selection: defaultSelection(layout),
    window: null,
  }))
  // A different topology starts from the defaults (derived during render, not in an effect).
  const current =
    state.key === key ? state : { key, selection: defaultSelection(layout), window: null }
  if (current !== state) setState(current)

  const ctx: ChartContext = useMemo(
    () => ({
      layout,
      store,
      colors,
      vcs: selectedVcs(layout, current.selection),
      ports: selectedPorts(layout, current.selection),
      window: current.window,
      runLabel,
      pinned,
    }),
    [layout, store, colors, current.selection, current.window, runLabel, pinned],
  )
  // Rebuilt only when rows have arrived (the engine also sends frames without any), so in slow
  // motion the charts stay still while the animation moves.
  const receivedRows = useChartRows(store.receivedRows)
  // biome-ignore lint/correctness/useExhaustiveDependencies: receivedRows says the store gained rows; layout is read through ctx
  const models = useMemo(
    () => chartKinds(layout).map((kind) => ({ kind, model: chartModel(kind, ctx) })),
    [ctx, receivedRows],
  )
  useEffect(() => onPick?.(current.selection.vcs), [current.selection.vcs, onPick])
  // Hover and the timeline stop at the latest sample: no view shows a time not yet simulated.
  const liveEnd = store.has(column.time) ? (store.last(column.time) ?? 0) : null
  useEffect(() => cursor.setLiveEnd(liveEnd), [cursor, liveEnd])
  const onZoom = useCallback((window: TimeWindow) => setState((s) => ({ ...s, window })), [])
  const onSelect = useCallback(
    (selection: SeriesSelection) => setState((s) => ({ ...s, selection })),
    [],
  )
  const setWindow = onZoom

  return (
    <div className="charts-workspace">
      <div className="charts-toolbar" role="toolbar" aria-label="Chart controls">
        <SeriesPicker
          layout={layout}
          colors={colors}
          selection={current.selection}
          onChange={onSelect}
        />
        {current.window ? (
          <span className="zoomed">
            Zoomed to {formatTime(current.window[0])} – {formatTime(current.window[1])}
            <button type="button" onClick={() => setWindow(null)}>
              Whole run
            </button>
          </span>
        ) : null}
        {present &&
          ([0, 1] as const).map((slot) => (
            <label key={slot} className="present-chart">
              Chart {slot + 1}{' '}
              <select
                value={present.charts[slot]}
                onChange={(e) => {
                  const next: [ChartKind, ChartKind] = [present.charts[0], present.charts[1]]
                  next[slot] = e.target.value as ChartKind
                  present.onCharts(next)
                }}
              >
                {chartKinds(layout).map((kind) => (
                  <option key={kind} value={kind}>
                    {chartTitle(kind, layout)}
                  </option>
                ))}
              </select>
            </label>
          ))}
        <HoverTime cursor={cursor} />
        {toolbar}
      </div>
      {pinned && (
        <Legend
          entries={overlayLegend(pinned.label, runLabel)}
          label="Runs overlaid on every chart"
          className="legend runs-legend"
        />
      )}
      <div className="charts-grid">
        {(present ? shownCharts(models, present.charts) : models).map(({ kind, model }) => (
          <ChartPanel
            key={kind}
            id={CHART_IDS[kind]}
            title={chartTitle(kind, layout)}
            model={model}
            cursor={cursor}
            onZoom={onZoom}
          />
        ))}
      </div>
    </div>
  )
}
