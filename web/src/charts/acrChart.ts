/**
 * ACR chart: the allowed cell rate of every VC in Mbit/s against simulated time, each with its
 * max-min fair share from the engine's water-filling oracle as a dashed line of the same colour.
 */
import { column, type Layout, type LayoutVc } from '../engine/layout'
import type { SampleStore } from '../engine/samples'
import { type LineSeries, type TimeSeriesOptions, yDomainFrom } from './timeSeries'

export interface LegendEntry {
  label: string
  color: string
  dash?: string
  /** Drawn faint: the pinned run's style. */
  opacity?: number
}

/** Dash pattern of reference (max-min share) lines. */
export const REFERENCE_DASH = '6 4'

export interface ChartModel {
  series: LineSeries[]
  legend: LegendEntry[]
  /**
   * Which style is which run, when a pinned run is overlaid: the same for every chart, so the page
   * shows it once above them (ChartsWorkspace); an exported chart carries it in its own legend.
   */
  runLegend?: LegendEntry[]
  yDomain: [number, number]
  options: Omit<TimeSeriesOptions, 'width' | 'height'>
  /** Unit of the values, for read-outs and exports ("Mbit/s", "cells", ""). */
  unit?: string
}

/**
 * The ACR samples from the VC's first cell on, NaN (a gap in the line) before it: until its source
 * starts, a VC's ACR is only the configured ICR waiting to be used, and drawing it would suggest
 * traffic that is not there.
 */
export function acrFromFirstCell(acr: Float64Array, sent: Float64Array | null): Float64Array {
  if (sent === null) return acr
  let first = 0
  while (first < sent.length && !(sent[first] > 0)) first++
  if (first === 0) return acr
  const shown = acr.slice()
  shown.fill(Number.NaN, 0, Math.min(first, shown.length))
  return shown
}

/** Builds the ACR chart's series from the samples so far, for `vcs` (every VC by default). */
export function acrChartModel(
  layout: Layout,
  store: SampleStore,
  colors: ReadonlyMap<string, string>,
  vcs: readonly LayoutVc[] = layout.vcs,
): ChartModel {
  const t = store.series(column.time)
  const series: LineSeries[] = []
  const legend: LegendEntry[] = []
  let maxValue = 0
  let hasShares = false
  for (const vc of vcs) {
    const color = colors.get(vc.id) ?? '#000'
    const acr = column.acr(vc.id)
    const maxmin = column.maxmin(vc.id)
    if (store.has(acr)) {
      const sent = store.has(column.sent(vc.id)) ? store.series(column.sent(vc.id)) : null
      const y = acrFromFirstCell(store.series(acr), sent)
      series.push({ key: acr, label: `${vc.id} ACR`, color, x: t, y, strokeWidth: 2 })
      // Named as the topology names it; one legend entry per VC, the dashed share explained once.
      legend.push({ label: vc.id, color })
      maxValue = Math.max(maxValue, store.max(acr))
    }
    if (store.has(maxmin)) {
      series.push({
        key: maxmin,
        label: `${vc.id} max-min share`,
        color,
        x: t,
        y: store.series(maxmin),
        dash: REFERENCE_DASH,
        curve: 'step',
        strokeWidth: 1.5,
      })
      hasShares = true
      maxValue = Math.max(maxValue, store.max(maxmin))
    }
  }
  if (hasShares)
    legend.push({ label: 'dashed: max-min fair share', color: '#59636e', dash: REFERENCE_DASH })
  // An ACR never exceeds its VC's PCR (negotiated down to the slowest link of its path), so the
  // highest PCR drawn is a stable axis top before data arrives that still spans the data, however
  // fast the access links are.
  const ceiling =
    vcs.length > 0
      ? Math.max(0, ...vcs.map((v) => v.pcr_mbps))
      : Math.max(0, ...layout.links.map((l) => l.rate_mbps))
  const yDomain = yDomainFrom(maxValue, ceiling)
  return {
    series,
    legend,
    yDomain,
    unit: 'Mbit/s',
    options: {
      xDomain: [0, layout.until_ms],
      yDomain,
      xLabel: 'simulated time (ms)',
      yLabel: 'ACR (Mbit/s)',
      series,
      ariaLabel: `Allowed cell rate of ${vcs.map((v) => v.id).join(', ') || 'no VC'} in Mbit/s, with max-min fair shares dashed`,
    },
  }
}
