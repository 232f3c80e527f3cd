/**
 * The line charts of the port and VC columns: link utilisation, cells received per destination,
 * cells lost and the fairness index, each built from the chart context's samples and picks.
 */
import { column, isPacketModel, portLabel, type LayoutPort, type LayoutVc } from '../engine/layout'
import type { ChartModel, LegendEntry } from './acrChart'
import type { ChartContext } from './chartContext'
import { bottleneckPorts, portColor } from './queueChart'
import { yDomainFrom, type LineSeries } from './timeSeries'

/** The ports a chart draws: those picked, or the bottleneck's when the pick is `auto`. */
export function portsOf(ctx: ChartContext): readonly LayoutPort[] {
  return ctx.ports === 'auto' ? bottleneckPorts(ctx.layout, ctx.store) : ctx.ports
}

/** The line of one sample column over the run's time `t`, 2 px wide unless `style` says otherwise. */
export function columnLine(
  ctx: ChartContext,
  t: Float64Array,
  key: string,
  label: string,
  color: string,
  style: Partial<LineSeries> = {},
): LineSeries {
  return { key, label, color, x: t, y: ctx.store.series(key), strokeWidth: 2, ...style }
}

/** A line chart over the run's time axis, its y axis fitted to the series' peak (at least `floor`). */
export function lineModel(
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
  const series = ports.map((p) =>
    columnLine(ctx, t, column.util(p.id), `${portLabel(p)} utilisation`, portColor(ctx.layout, p)),
  )
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
  const series = vcs.map((v) =>
    columnLine(
      ctx,
      t,
      column.received(v.id),
      `${label(v)} received`,
      ctx.colors.get(v.id) ?? '#000',
    ),
  )
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
  const series: LineSeries[] = withLoss.map((p) =>
    columnLine(ctx, t, column.lost(p.id), `${portLabel(p)} lost`, portColor(ctx.layout, p)),
  )
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
    ? [columnLine(ctx, t, column.fairness, name, '#009E73')]
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
