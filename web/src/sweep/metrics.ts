/**
 * The four figures a sweep reports for each grid point, as the engine computes them for the page
 * and for `abrsim sweep` alike (sim-core sweep.rs, through engine/grammar.ts's SweepWindow):
 * maximum queue at any switch or router port, the bottleneck's utilisation, the mean fairness
 * index, and cells (packets) lost; here only their labels and formats.
 */

export type { SweepSummary } from '../engine/generated/engine-types'

export const SUMMARY_METRICS = ['max_queue', 'utilization', 'fairness', 'cells_lost'] as const
export type SummaryMetric = (typeof SUMMARY_METRICS)[number]

const count = (v: number) => Math.round(v).toLocaleString('en')
const ratio = (v: number) => v.toFixed(3)

/**
 * How each figure is written, and its fixed colour scale in a heatmap: from `lo` to `hi`, or to
 * the largest value when `hi` is null (a queue or a loss count has no natural top).
 */
export const METRIC_LABELS: Record<
  SummaryMetric,
  {
    title: string
    unit: string
    format(value: number): string
    scale: { lo: number; hi: number | null }
  }
> = {
  max_queue: { title: 'Maximum queue', unit: 'cells', format: count, scale: { lo: 0, hi: null } },
  utilization: {
    title: 'Bottleneck utilisation',
    unit: '',
    format: ratio,
    scale: { lo: 0, hi: 1 },
  },
  fairness: { title: 'Fairness index', unit: '', format: ratio, scale: { lo: 0, hi: 1 } },
  cells_lost: { title: 'Cells lost', unit: 'cells', format: count, scale: { lo: 0, hi: null } },
}
