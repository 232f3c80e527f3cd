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

export const METRIC_LABELS: Record<SummaryMetric, { title: string; unit: string; format(value: number): string }> = {
  max_queue: { title: 'Maximum queue', unit: 'cells', format: count },
  utilization: { title: 'Bottleneck utilisation', unit: '', format: ratio },
  fairness: { title: 'Fairness index', unit: '', format: ratio },
  cells_lost: { title: 'Cells lost', unit: 'cells', format: count },
}
