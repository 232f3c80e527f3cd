/**
 * Queue chart: the queue length in cells of the bottleneck switch port(s) against simulated time.
 */
import { column, isPacketModel, portLabel, type Layout, type LayoutPort } from '../engine/layout'
import type { SampleStore } from '../engine/samples'
import type { ChartModel, LegendEntry } from './acrChart'
import { seriesColor } from './palette'
import type { LineSeries } from './timeSeries'
import { yDomainFrom } from './timeSeries'

/** At most this many ports share the chart; more would be unreadable. */
export const MAX_QUEUE_PORTS = 4
/**
 * A port joins the chart when its peak queue is at least this fraction of the largest peak: a
 * port that only ever held the cell being sent (RM cells on a reverse path) is not a bottleneck.
 */
export const SIGNIFICANT_PEAK = 0.05
/** ... and at least this many cells. */
export const MIN_PEAK_CELLS = 2

/**
 * The switch ports worth showing: the one with the largest peak queue so far, and any other whose
 * peak is significant beside it (largest first, at most MAX_QUEUE_PORTS). Before any queue forms,
 * the busiest switch port, i.e. the bottleneck link's port, so the chart names what it watches
 * from the start.
 */
export function bottleneckPorts(layout: Layout, store: SampleStore): LayoutPort[] {
  // Ports in the network (switches, routers), not the hosts' own.
  const switchPorts = layout.ports.filter(
    (p) => p.from_kind !== 'host' && store.has(column.queue(p.id)),
  )
  // Each port's peak read once: with 200 sources the charts rebuild this many times a second.
  const peaks = new Map(
    switchPorts.map((p) => {
      const max = column.queueMax(p.id)
      return [p, store.has(max) ? store.max(max) : store.max(column.queue(p.id))] as const
    }),
  )
  const peak = (p: LayoutPort) => peaks.get(p) ?? 0
  const largest = Math.max(0, ...peaks.values())
  const threshold = Math.max(MIN_PEAK_CELLS, largest * SIGNIFICANT_PEAK)
  const queued = switchPorts.filter((p) => peak(p) >= threshold).sort((a, b) => peak(b) - peak(a))
  if (queued.length > 0) return queued.slice(0, MAX_QUEUE_PORTS)
  const util = (p: LayoutPort) =>
    store.has(column.util(p.id)) ? store.max(column.util(p.id)) : -Infinity
  const busiest = [...switchPorts].sort((a, b) => util(b) - util(a))[0]
  // Nothing measured yet (before Play, after Reset): the bottleneck the topology implies.
  if (!busiest || util(busiest) <= 0) {
    const implied = topologyBottleneck(layout)
    return implied ? [implied] : busiest ? [busiest] : []
  }
  return [busiest]
}

/**
 * The port the topology makes the bottleneck before anything runs: among the network's ports,
 * the one whose link offers the least rate per source crossing it (VCs, flows and background
 * sources along their paths), most sources first on a tie. Null when no path crosses a port.
 */
export function topologyBottleneck(layout: Layout): LayoutPort | null {
  const paths: string[][] = [
    ...layout.vcs.filter((v) => !v.reverse_of).map((v) => v.path),
    ...(layout.background ?? []).map((b) => b.path),
    ...(layout.flows ?? []).map((f) => f.path),
  ]
  const rate = new Map(layout.links.map((l) => [l.id, l.rate_mbps]))
  let best: { port: LayoutPort; share: number; count: number } | null = null
  for (const port of layout.ports) {
    if (port.from_kind === 'host') continue
    const count = paths.filter((path) =>
      path.some((node, i) => node === port.from && path[i + 1] === port.to),
    ).length
    if (count === 0) continue
    const share = (rate.get(port.link) ?? Infinity) / count
    if (
      !best ||
      share < best.share - 1e-9 ||
      (Math.abs(share - best.share) <= 1e-9 && count > best.count)
    )
      best = { port, share, count }
  }
  return best?.port ?? null
}

/** A port's colour, from its place in the layout, so it keeps it as other ports join a chart. */
export function portColor(layout: Layout, port: LayoutPort): string {
  return seriesColor(layout.ports.findIndex((q) => q.id === port.id) + layout.vcs.length)
}

/** Builds the queue chart's series from the samples so far, for `ports` (the bottleneck's by default). */
export function queueChartModel(
  layout: Layout,
  store: SampleStore,
  ports: readonly LayoutPort[] = bottleneckPorts(layout, store),
): ChartModel {
  const t = store.series(column.time)
  const colorOf = (p: LayoutPort) => portColor(layout, p)
  const series: LineSeries[] = ports.map((p) => ({
    key: column.queue(p.id),
    label: `${portLabel(p)} queue`,
    color: colorOf(p),
    x: t,
    y: store.series(column.queue(p.id)),
    strokeWidth: 2,
  }))
  const legend: LegendEntry[] = ports.map((p) => ({
    label: `${portLabel(p)} (port ${p.id})`,
    color: colorOf(p),
  }))
  const maxValue = Math.max(0, ...ports.map((p) => store.max(column.queue(p.id))))
  const yDomain = yDomainFrom(maxValue, 10)
  return {
    series,
    legend,
    yDomain,
    unit: isPacketModel(layout) ? 'packets' : 'cells',
    options: {
      xDomain: [0, layout.until_ms],
      yDomain,
      xLabel: 'simulated time (ms)',
      yLabel: isPacketModel(layout) ? 'queue (packets)' : 'queue (cells)',
      series,
      ariaLabel: `Queue length in cells at ${ports.map(portLabel).join(', ') || 'no port'}`,
    },
  }
}
