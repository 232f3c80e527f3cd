/**
 * Series as files: CSV (one column per series against simulated time) and JSON (every series
 * with its own time axis, so a pinned run exports beside the current one).
 */
import type { SampleStore } from '../engine/samples'
import type { LineSeries } from '../charts/timeSeries'

/** Quotes a CSV field when it needs it (RFC 4180). */
export function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A number as CSV text: empty for NaN (a gap), full precision otherwise. */
function csvNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : ''
}

/**
 * A wide CSV of series that share one time axis: a `t_ms` column, then one column per series
 * named by its sample column (`key`). Series on another time axis (a pinned run) are left out;
 * the JSON export has them.
 */
export function seriesCsv(series: readonly LineSeries[]): string {
  const base = series[0]
  if (!base) return 't_ms\n'
  const same = series.filter((s) => s.x === base.x)
  const rows = Math.min(base.x.length, ...same.map((s) => s.y.length))
  const lines = [['t_ms', ...same.map((s) => s.key)].map(csvField).join(',')]
  for (let i = 0; i < rows; i++) {
    const cells = [csvNumber(base.x[i])]
    for (const s of same) cells.push(csvNumber(s.y[i]))
    lines.push(cells.join(','))
  }
  return `${lines.join('\n')}\n`
}

export interface SeriesJson {
  chart: string
  unit: string
  exported_at_ms: number | null
  series: {
    key: string
    label: string
    color: string
    t_ms: (number | null)[]
    values: (number | null)[]
  }[]
}

/** Every series of a chart with its own time axis; NaN becomes null (JSON has no NaN). */
export function seriesJson(chart: string, unit: string, series: readonly LineSeries[]): SeriesJson {
  const num = (v: number) => (Number.isFinite(v) ? v : null)
  return {
    chart,
    unit,
    exported_at_ms:
      series.length > 0 && series[0].x.length > 0 ? num(series[0].x[series[0].x.length - 1]) : null,
    series: series.map((s) => {
      const n = Math.min(s.x.length, s.y.length)
      return {
        key: s.key,
        label: s.label,
        color: s.color,
        t_ms: Array.from({ length: n }, (_, i) => num(s.x[i])),
        values: Array.from({ length: n }, (_, i) => num(s.y[i])),
      }
    }),
  }
}

/** Every sample column of a run as CSV, in engine order. */
export function samplesCsv(store: SampleStore): string {
  const columns = store.columns.map((c) => store.series(c))
  const lines = [store.columns.map(csvField).join(',')]
  for (let r = 0; r < store.rowCount; r++) lines.push(columns.map((c) => csvNumber(c[r])).join(','))
  return `${lines.join('\n')}\n`
}
