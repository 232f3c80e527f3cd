/**
 * Every chart of SPEC §7 as a model built from the samples: ACR with max-min shares, queues, link
 * utilisation, cumulative cells received per destination, cells lost and Jain's fairness index;
 * each limited to the VCs and ports picked, zoomed to the time window chosen, and overlaid with a
 * pinned run when there is one.
 */
import { column, portLabel, type Layout, type LayoutPort, type LayoutVc } from '../engine/layout'
import type { SampleStore } from '../engine/samples'
import { acrChartModel, acrFromFirstCell, type ChartModel, type LegendEntry } from './acrChart'
import type { TimeWindow } from './cursor'
import { bottleneckPorts, portColor, queueChartModel } from './queueChart'
import { yDomainFrom, type LineSeries } from './timeSeries'

/** The charts of the page, in display order. */
export const CHART_KINDS = ['acr', 'queue', 'util', 'received', 'lost', 'fairness'] as const
export type ChartKind = (typeof CHART_KINDS)[number]

export const CHART_TITLES: Record<ChartKind, string> = {
  acr: 'Allowed cell rate per VC',
  queue: 'Queue per port',
  util: 'Link utilisation',
  received: 'Cells received per destination',
  lost: 'Cells lost',
  fairness: 'Fairness index',
}

/** A run kept for comparison: its samples, its layout and what to call it. */
export interface PinnedRun {
  label: string
  layout: Layout
  store: SampleStore
}

/** What every chart model is built from. */
export interface ChartContext {
  layout: Layout
  store: SampleStore
  colors: ReadonlyMap<string, string>
  /** VCs to draw. */
  vcs: readonly LayoutVc[]
  /** Ports to draw; `auto` follows the bottleneck (the ports that queue most). */
  ports: readonly LayoutPort[] | 'auto'
  /** The zoomed time window, or null for the whole run. */
  window: TimeWindow
  /** What the current run is called in legends when a pinned run is overlaid. */
  runLabel: string
  pinned: PinnedRun | null
}

/**
 * Style of the pinned run's lines: a wide faint band behind the current run's, in the same colour.
 * Where the runs agree the band is a halo round the line; where they part it stands alone.
 */
export const PINNED_OPACITY = 0.3
export const PINNED_WIDTH = 5

function portsOf(ctx: ChartContext): readonly LayoutPort[] {
  return ctx.ports === 'auto' ? bottleneckPorts(ctx.layout, ctx.store) : ctx.ports
}

function lineModel(
  ctx: ChartContext,
  series: LineSeries[],
  legend: LegendEntry[],
  yLabel: string,
  unit: string,
  floor: number,
  ariaLabel: string,
): ChartModel {
  const maxValue = Math.max(0, ...series.map((s) => (ctx.store.has(s.key) ? ctx.store.max(s.key) : 0)))
  const yDomain = yDomainFrom(maxValue, floor)
  return {
    series,
    legend,
    yDomain,
    unit,
    options: { xDomain: [0, ctx.layout.until_ms], yDomain, xLabel: 'simulated time (ms)', yLabel, series, ariaLabel },
  }
}

/** Link utilisation (0..1) of the chosen ports. */
export function utilChartModel(ctx: ChartContext): ChartModel {
  const t = ctx.store.series(column.time)
  const ports = portsOf(ctx).filter((p) => ctx.store.has(column.util(p.id)))
  const series = ports.map((p) => ({
    key: column.util(p.id),
    label: `${portLabel(p)} utilisation`,
    color: portColor(ctx.layout, p),
    x: t,
    y: ctx.store.series(column.util(p.id)),
    strokeWidth: 2,
  }))
  const legend = ports.map((p) => ({ label: `${portLabel(p)} (port ${p.id})`, color: portColor(ctx.layout, p) }))
  const model = lineModel(ctx, series, legend, 'utilisation', '', 1, `Utilisation of ${ports.map(portLabel).join(', ') || 'no port'}`)
  model.yDomain = [0, Math.max(1.05, model.yDomain[1])]
  model.options.yDomain = model.yDomain
  return model
}

/**
 * Cumulative data cells received at each chosen VC's destination: the slope is the throughput
 * (seed 001 Figure 10b).
 */
export function receivedChartModel(ctx: ChartContext): ChartModel {
  const t = ctx.store.series(column.time)
  const vcs = ctx.vcs.filter((v) => ctx.store.has(column.received(v.id)))
  const label = (v: LayoutVc) => `${v.id} → ${v.destination}`
  const series = vcs.map((v) => ({
    key: column.received(v.id),
    label: `${label(v)} received`,
    color: ctx.colors.get(v.id) ?? '#000',
    x: t,
    y: ctx.store.series(column.received(v.id)),
    strokeWidth: 2,
  }))
  const legend = vcs.map((v) => ({ label: label(v), color: ctx.colors.get(v.id) ?? '#000' }))
  return lineModel(ctx, series, legend, 'cells received', 'cells', 10, `Cells received at the destinations of ${vcs.map((v) => v.id).join(', ') || 'no VC'}`)
}

/**
 * Cells lost so far (cumulative): every port that has lost any, or the ports picked. When no
 * port has lost a cell the chart says so with the total, a flat zero, rather than staying empty.
 */
export function lostChartModel(ctx: ChartContext): ChartModel {
  const t = ctx.store.series(column.time)
  const withLoss =
    ctx.ports === 'auto'
      ? ctx.layout.ports.filter((p) => ctx.store.has(column.lost(p.id)) && ctx.store.max(column.lost(p.id)) > 0)
      : ctx.ports.filter((p) => ctx.store.has(column.lost(p.id)))
  const series: LineSeries[] = withLoss.map((p) => ({
    key: column.lost(p.id),
    label: `${portLabel(p)} lost`,
    color: portColor(ctx.layout, p),
    x: t,
    y: ctx.store.series(column.lost(p.id)),
    strokeWidth: 2,
  }))
  const legend: LegendEntry[] = withLoss.map((p) => ({ label: `${portLabel(p)} (port ${p.id})`, color: portColor(ctx.layout, p) }))
  if (series.length === 0 && ctx.ports === 'auto') {
    // No port has lost a cell (every lost column peaks at 0), so the total is exactly zero.
    series.push({ key: 'lost.total', label: 'all ports', color: '#59636e', x: t, y: new Float64Array(t.length), strokeWidth: 2 })
    legend.push({ label: 'no port has lost a cell', color: '#59636e' })
  }
  return lineModel(ctx, series, legend, 'cells lost', 'cells', 10, `Cells lost at ${withLoss.map(portLabel).join(', ') || 'no port'}`)
}

/** Jain's fairness index of the active VCs' mean ACR over their max-min shares (engine column). */
export function fairnessChartModel(ctx: ChartContext): ChartModel {
  const t = ctx.store.series(column.time)
  const series: LineSeries[] = ctx.store.has(column.fairness)
    ? [{ key: column.fairness, label: 'Jain’s index', color: '#009E73', x: t, y: ctx.store.series(column.fairness), strokeWidth: 2 }]
    : []
  const legend = series.length ? [{ label: 'Jain’s index of ACR ÷ max-min share, active VCs', color: '#009E73' }] : []
  const model = lineModel(ctx, series, legend, 'fairness index', '', 1, 'Jain’s fairness index of the active VCs against their max-min shares')
  model.yDomain = [0, 1.05]
  model.options.yDomain = model.yDomain
  return model
}

/** The model of one chart kind, zoomed and overlaid. */
export function chartModel(kind: ChartKind, ctx: ChartContext): ChartModel {
  let model: ChartModel
  switch (kind) {
    case 'acr':
      model = acrChartModel(ctx.layout, ctx.store, ctx.colors, ctx.vcs)
      break
    case 'queue':
      model = queueChartModel(ctx.layout, ctx.store, portsOf(ctx))
      break
    case 'util':
      model = utilChartModel(ctx)
      break
    case 'received':
      model = receivedChartModel(ctx)
      break
    case 'lost':
      model = lostChartModel(ctx)
      break
    case 'fairness':
      model = fairnessChartModel(ctx)
      break
  }
  if (ctx.pinned) model = overlayPinned(model, ctx.pinned, ctx.runLabel, kind === 'acr')
  if (ctx.window) {
    model.options.xDomain = ctx.window
  } else if (ctx.pinned) {
    model.options.xDomain = [0, Math.max(ctx.layout.until_ms, ctx.pinned.layout.until_ms)]
  }
  return model
}

/**
 * Adds the pinned run's copy of every series it also has (same sample column), faint, behind the
 * current run's lines; the y axis grows to fit both, and the legend says which style is which.
 */
export function overlayPinned(model: ChartModel, pinned: PinnedRun, runLabel: string, gapBeforeFirstCell: boolean): ChartModel {
  const store = pinned.store
  if (!store.has(column.time)) return model
  const t = store.series(column.time)
  const copies: LineSeries[] = []
  let maxValue = 0
  for (const s of model.series) {
    if (!store.has(s.key)) continue
    let y: Float64Array = store.series(s.key)
    if (gapBeforeFirstCell && s.key.endsWith('.acr')) {
      const sent = s.key.replace(/\.acr$/, '.sent')
      y = acrFromFirstCell(y, store.has(sent) ? store.series(sent) : null)
    }
    copies.push({ ...s, key: `pinned:${s.key}`, label: `${s.label} (pinned)`, x: t, y, opacity: PINNED_OPACITY, strokeWidth: PINNED_WIDTH })
    maxValue = Math.max(maxValue, store.max(s.key))
  }
  const series = [...copies, ...model.series]
  const top = Math.max(model.yDomain[1], maxValue * 1.05)
  const yDomain: [number, number] = [model.yDomain[0], top]
  const legend: LegendEntry[] = [
    ...model.legend,
    { label: `this run: ${runLabel}`, color: '#1b1f24' },
    { label: `faint band: pinned ${pinned.label}`, color: '#1b1f24', opacity: PINNED_OPACITY },
  ]
  return { ...model, series, legend, yDomain, options: { ...model.options, series, yDomain } }
}
