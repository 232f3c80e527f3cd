/**
 * A pinned run overlaid on a chart: its copy of each series drawn as a faint wide band behind the
 * current run's lines, and the legend that says which style is which.
 */
import { column } from '../engine/layout'
import { acrFromFirstCell, type ChartModel, type LegendEntry } from './acrChart'
import type { PinnedRun } from './chartContext'
import type { LineSeries } from './timeSeries'

/**
 * Style of the pinned run's lines: a wide faint band behind the current run's, in the same colour.
 * Where the runs agree the band is a halo round the line; where they part it stands alone.
 */
export const PINNED_OPACITY = 0.3
export const PINNED_WIDTH = 5

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
