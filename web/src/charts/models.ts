/**
 * Every chart of the page as a model built from the samples: ACR with max-min shares, queues, link
 * utilisation, cumulative cells received per destination, cells lost and Jain's fairness index;
 * each limited to the VCs and ports picked, zoomed to the time window chosen, and overlaid with a
 * pinned run when there is one.
 */
import {
  column,
  isPacketModel,
  portLabel,
  type Layout,
  type LayoutPort,
  type LayoutVc,
} from '../engine/layout'
import type { SampleStore } from '../engine/samples'
import { acrChartModel, acrFromFirstCell, type ChartModel, type LegendEntry } from './acrChart'
import type { TimeWindow } from './cursor'
import { seriesColor } from './palette'
import { bottleneckPorts, portColor, queueChartModel } from './queueChart'
import { REFERENCE_DASH } from './acrChart'
import { yDomainFrom, type LineSeries } from './timeSeries'

/** The charts of the page, in display order: the list for the cell model, and for IP. */
export const CHART_KINDS = ['acr', 'queue', 'util', 'received', 'lost', 'fairness'] as const
export const IP_CHART_KINDS = ['classes', 'ratio', 'queue', 'util', 'lost', 'fairness'] as const
export type ChartKind = (typeof CHART_KINDS)[number] | (typeof IP_CHART_KINDS)[number]

export const CHART_TITLES: Record<ChartKind, string> = {
  acr: 'Allowed cell rate per VC',
  queue: 'Queue per port',
  util: 'Link utilisation',
  received: 'Cells received per destination',
  lost: 'Cells lost',
  fairness: 'Fairness index',
  classes: 'Throughput per class',
  ratio: 'UDP/TCP ratio and D_UDP',
}

/** The charts for a layout's model. */
export function chartKinds(layout: Pick<Layout, 'model'>): readonly ChartKind[] {
  return isPacketModel(layout) ? IP_CHART_KINDS : CHART_KINDS
}

/** A chart's title for a layout's model (packets are lost in the packet model, not cells). */
export function chartTitle(kind: ChartKind, layout: Pick<Layout, 'model'>): string {
  if (kind === 'lost' && isPacketModel(layout)) return 'Packets lost'
  return CHART_TITLES[kind]
}

/** Colours of the packet model's traffic classes. */
const CLASS_COLORS: Record<string, string> = { tcp: '#0072B2', udp: '#D55E00' }
const classColor = (c: string, i: number) => CLASS_COLORS[c] ?? seriesColor(i)

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
  const maxValue = Math.max(
    0,
    ...series.map((s) => (ctx.store.has(s.key) ? ctx.store.max(s.key) : 0)),
  )
  const yDomain = yDomainFrom(maxValue, floor)
  return {
    series,
    legend,
    yDomain,
    unit,
    options: {
      xDomain: [0, ctx.layout.until_ms],
      yDomain,
      xLabel: 'simulated time (ms)',
      yLabel,
      series,
      ariaLabel,
    },
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
  const legend = ports.map((p) => ({
    label: `${portLabel(p)} (port ${p.id})`,
    color: portColor(ctx.layout, p),
  }))
  const model = lineModel(
    ctx,
    series,
    legend,
    'utilisation',
    '',
    1,
    `Utilisation of ${ports.map(portLabel).join(', ') || 'no port'}`,
  )
  model.yDomain = [0, Math.max(1.05, model.yDomain[1])]
  model.options.yDomain = model.yDomain
  return model
}

/**
 * Cumulative data cells received at each chosen VC's destination: the slope is the throughput
 * (Fahmy et al. Figure 10b).
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
  return lineModel(
    ctx,
    series,
    legend,
    'cells received',
    'cells',
    10,
    `Cells received at the destinations of ${vcs.map((v) => v.id).join(', ') || 'no VC'}`,
  )
}

/**
 * Cells lost so far (cumulative): every port that has lost any, or the ports picked. When no
 * port has lost a cell the chart says so with the total, a flat zero, rather than staying empty.
 */
export function lostChartModel(ctx: ChartContext): ChartModel {
  const t = ctx.store.series(column.time)
  const withLoss =
    ctx.ports === 'auto'
      ? ctx.layout.ports.filter(
          (p) => ctx.store.has(column.lost(p.id)) && ctx.store.max(column.lost(p.id)) > 0,
        )
      : ctx.ports.filter((p) => ctx.store.has(column.lost(p.id)))
  const series: LineSeries[] = withLoss.map((p) => ({
    key: column.lost(p.id),
    label: `${portLabel(p)} lost`,
    color: portColor(ctx.layout, p),
    x: t,
    y: ctx.store.series(column.lost(p.id)),
    strokeWidth: 2,
  }))
  const legend: LegendEntry[] = withLoss.map((p) => ({
    label: `${portLabel(p)} (port ${p.id})`,
    color: portColor(ctx.layout, p),
  }))
  if (series.length === 0 && ctx.ports === 'auto') {
    // No port has lost a cell (every lost column peaks at 0), so the total is exactly zero.
    series.push({
      key: 'lost.total',
      label: 'all ports',
      color: '#59636e',
      x: t,
      y: new Float64Array(t.length),
      strokeWidth: 2,
    })
    legend.push({
      label: `no port has lost a ${isPacketModel(ctx.layout) ? 'packet' : 'cell'}`,
      color: '#59636e',
    })
  }
  const what = isPacketModel(ctx.layout) ? 'packets' : 'cells'
  return lineModel(
    ctx,
    series,
    legend,
    `${what} lost`,
    what,
    10,
    `${what === 'packets' ? 'Packets' : 'Cells'} lost at ${withLoss.map(portLabel).join(', ') || 'no port'}`,
  )
}

/**
 * The fairness index (engine column): Jain's index of the active VCs' mean ACR over their max-min
 * shares, or in the packet model Pletka et al.'s weighted index (equation 2) of the classes' serviced
 * rates against the BAT's references.
 */
export function fairnessChartModel(ctx: ChartContext): ChartModel {
  const t = ctx.store.series(column.time)
  const ip = isPacketModel(ctx.layout)
  const name = ip ? 'weighted index' : 'Jain’s index'
  const series: LineSeries[] = ctx.store.has(column.fairness)
    ? [
        {
          key: column.fairness,
          label: name,
          color: '#009E73',
          x: t,
          y: ctx.store.series(column.fairness),
          strokeWidth: 2,
        },
      ]
    : []
  const explained = ip
    ? 'weighted fairness index (Pletka et al. eq. 2)'
    : 'Jain’s index of ACR ÷ max-min share, active VCs'
  const legend = series.length ? [{ label: explained, color: '#009E73' }] : []
  const model = lineModel(
    ctx,
    series,
    legend,
    'fairness index',
    '',
    1,
    ip
      ? 'Weighted fairness index of the traffic classes against their references'
      : 'Jain’s fairness index of the active VCs against their max-min shares',
  )
  model.yDomain = [0, 1.05]
  model.options.yDomain = model.yDomain
  return model
}

/** Packet model: each class's throughput, with the BAT's reference for it dashed. */
export function classesChartModel(ctx: ChartContext): ChartModel {
  const t = ctx.store.series(column.time)
  const series: LineSeries[] = []
  const legend: LegendEntry[] = []
  ;(ctx.layout.classes ?? []).forEach((c, i) => {
    const color = classColor(c, i)
    if (ctx.store.has(column.classThroughput(c))) {
      series.push({
        key: column.classThroughput(c),
        label: `${c.toUpperCase()} throughput`,
        color,
        x: t,
        y: ctx.store.series(column.classThroughput(c)),
        strokeWidth: 2,
      })
      legend.push({ label: c.toUpperCase(), color })
    }
    if (ctx.store.has(column.classReference(c))) {
      series.push({
        key: column.classReference(c),
        label: `${c.toUpperCase()} reference`,
        color,
        x: t,
        y: ctx.store.series(column.classReference(c)),
        dash: REFERENCE_DASH,
        curve: 'step',
        strokeWidth: 1.5,
      })
    }
  })
  if (series.some((s) => s.dash))
    legend.push({
      label: 'dashed: the BAT’s reference rate',
      color: '#59636e',
      dash: REFERENCE_DASH,
    })
  const fastest = Math.max(0, ...ctx.layout.links.map((l) => l.rate_mbps))
  return lineModel(
    ctx,
    series,
    legend,
    'Mbit/s',
    'Mbit/s',
    fastest,
    `Throughput of ${(ctx.layout.classes ?? []).join(' and ')} in Mbit/s`,
  )
}

/** Packet model: the UDP/TCP serviced-rate ratio the CLCC steers, and its control D_UDP. */
export function ratioChartModel(ctx: ChartContext): ChartModel {
  const t = ctx.store.series(column.time)
  const series: LineSeries[] = []
  const legend: LegendEntry[] = []
  if (ctx.store.has(column.ratio)) {
    series.push({
      key: column.ratio,
      label: 'UDP/TCP ratio',
      color: '#CC79A7',
      x: t,
      y: ctx.store.series(column.ratio),
      strokeWidth: 2,
    })
    legend.push({ label: 'UDP/TCP serviced ratio', color: '#CC79A7' })
  }
  if (ctx.store.has(column.dUdp)) {
    series.push({
      key: column.dUdp,
      label: 'D_UDP',
      color: '#009E73',
      x: t,
      y: ctx.store.series(column.dUdp),
      curve: 'step',
      strokeWidth: 2,
    })
    legend.push({ label: 'D_UDP (CLCC)', color: '#009E73' })
  }
  return lineModel(
    ctx,
    series,
    legend,
    'ratio, D_UDP',
    '',
    1,
    'The UDP over TCP serviced-rate ratio and the CLCC controller’s D_UDP',
  )
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
    case 'classes':
      model = classesChartModel(ctx)
      break
    case 'ratio':
      model = ratioChartModel(ctx)
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
export function overlayPinned(
  model: ChartModel,
  pinned: PinnedRun,
  runLabel: string,
  gapBeforeFirstCell: boolean,
): ChartModel {
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
    copies.push({
      ...s,
      key: `pinned:${s.key}`,
      label: `${s.label} (pinned)`,
      x: t,
      y,
      opacity: PINNED_OPACITY,
      strokeWidth: PINNED_WIDTH,
    })
    maxValue = Math.max(maxValue, store.max(s.key))
  }
  const series = [...copies, ...model.series]
  const top = Math.max(model.yDomain[1], maxValue * 1.05)
  const yDomain: [number, number] = [model.yDomain[0], top]
  const runLegend = overlayLegend(pinned.label, runLabel)
  return { ...model, series, runLegend, yDomain, options: { ...model.options, series, yDomain } }
}

/** The legend of an overlay: which line style is this run, which the pinned one. */
export function overlayLegend(pinnedLabel: string, runLabel: string): LegendEntry[] {
  return [
    { label: `this run: ${runLabel}`, color: '#1b1f24' },
    { label: `faint band: pinned ${pinnedLabel}`, color: '#1b1f24', opacity: PINNED_OPACITY },
  ]
}
