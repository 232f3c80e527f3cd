/**
 * A chart's data in words and as a table, for readers who cannot see the lines: the
 * latest value of every series ("At t = 150 ms: vc1 ACR 70.0 Mbit/s, vc1 max-min share 70.0
 * Mbit/s") and its samples at a few evenly spaced times.
 */
import { formatTime } from './cursor'
import type { LineSeries } from './timeSeries'

function format(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '—'
  const digits = Math.abs(value) >= 100 || Number.isInteger(value) ? 1 : Math.abs(value) < 1 ? 3 : 1
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`
}

/** Index of the last sample at or before t (−1 when none). */
function indexAt(x: ArrayLike<number>, t: number): number {
  let lo = 0
  let hi = x.length - 1
  if (hi < 0 || x[0] > t) return -1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (x[mid] <= t) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** "At t = 150 ms: vc1 ACR 70.0 Mbit/s, …" — every series' latest value (at most `max` series). */
export function chartSummary(series: readonly LineSeries[], unit: string, max = 8): string {
  const shown = series.filter((s) => s.x.length > 0 && s.opacity === undefined).slice(0, max)
  if (shown.length === 0) return 'No data yet.'
  const t = Math.max(...shown.map((s) => s.x[s.x.length - 1]))
  const parts = shown.map((s) => `${s.label} ${format(s.y[s.y.length - 1], unit)}`)
  const more =
    series.length > shown.length ? `, and ${series.length - shown.length} more series` : ''
  return `At t = ${formatTime(t)}: ${parts.join(', ')}${more}.`
}

/** Rows of the chart's table: `rows` evenly spaced times and every series' value there. */
export function chartTable(
  series: readonly LineSeries[],
  rows = 12,
): { head: string[]; body: string[][] } {
  const shown = series.filter((s) => s.x.length > 0 && s.opacity === undefined).slice(0, 12)
  const head = ['t', ...shown.map((s) => s.label)]
  if (shown.length === 0) return { head, body: [] }
  const end = Math.max(...shown.map((s) => s.x[s.x.length - 1]))
  const start = Math.min(...shown.map((s) => s.x[0]))
  const body: string[][] = []
  for (let k = 0; k < rows; k++) {
    const t = rows === 1 ? end : start + ((end - start) * k) / (rows - 1)
    body.push([
      formatTime(t),
      ...shown.map((s) => {
        const i = indexAt(s.x, t)
        return i < 0 ? '—' : format(s.y[i], '')
      }),
    ])
  }
  return { head, body }
}
