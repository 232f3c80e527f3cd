/**
 * The packet model's own charts: each traffic class's throughput against the BAT's reference, and
 * the UDP/TCP ratio the CLCC steers with its control D_UDP.
 */
import { column } from '../engine/layout'
import { REFERENCE_DASH, type ChartModel, type LegendEntry } from './acrChart'
import { columnLine, lineModel } from './lineCharts'
import type { ChartContext } from './chartContext'
import { seriesColor } from './palette'
import type { LineSeries } from './timeSeries'

/** Colours of the packet model's traffic classes. */
const CLASS_COLORS: Record<string, string> = { tcp: '#0072B2', udp: '#D55E00' }
const classColor = (c: string, i: number) => CLASS_COLORS[c] ?? seriesColor(i)

/** Packet model: each class's throughput, with the BAT's reference for it dashed. */
export function classesChartModel(ctx: ChartContext): ChartModel {
  const t = ctx.store.series(column.time)
  const series: LineSeries[] = []
  const legend: LegendEntry[] = []
  ;(ctx.layout.classes ?? []).forEach((c, i) => {
    const color = classColor(c, i)
    if (ctx.store.has(column.classThroughput(c))) {
      series.push(
        columnLine(ctx, t, column.classThroughput(c), `${c.toUpperCase()} throughput`, color),
      )
      legend.push({ label: c.toUpperCase(), color })
    }
    if (ctx.store.has(column.classReference(c))) {
      series.push(
        columnLine(ctx, t, column.classReference(c), `${c.toUpperCase()} reference`, color, {
          dash: REFERENCE_DASH,
          curve: 'step',
          strokeWidth: 1.5,
        }),
      )
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
    series.push(columnLine(ctx, t, column.ratio, 'UDP/TCP ratio', '#CC79A7'))
    legend.push({ label: 'UDP/TCP serviced ratio', color: '#CC79A7' })
  }
  if (ctx.store.has(column.dUdp)) {
    series.push(columnLine(ctx, t, column.dUdp, 'D_UDP', '#009E73', { curve: 'step' }))
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
