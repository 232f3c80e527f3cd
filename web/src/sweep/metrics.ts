/**
 * The four figures a sweep reports for each grid point, computed from the sample rows exactly as
 * `abrsim sweep` computes them from `abrsim run`'s report window (engine-wasm/crates/abrsim/src/
 * sweep.rs over sim-core/src/runner.rs):
 *
 * - a row counts towards the window [from, to] when the interval it covers, (t − Δ, t], lies in it;
 * - `max_queue`: the largest `queue_max` of any port in the network (a switch's or a router's);
 * - `utilization`: the highest mean `util` of any such port — the bottleneck's utilisation;
 * - `fairness`: the mean of the `fairness` column (Jain's index of the active VCs' mean ACR over
 *   their max-min shares; in the packet model Pletka et al.'s weighted index, reported to 4 places);
 * - `cells_lost`: the growth of every port's `lost` counter over the window, summed (packets in
 *   the packet model).
 */
import { column } from '../engine/layout'

export interface SweepSummary {
  max_queue: number
  utilization: number
  fairness: number | null
  cells_lost: number
}

export const SUMMARY_METRICS = ['max_queue', 'utilization', 'fairness', 'cells_lost'] as const
export type SummaryMetric = (typeof SUMMARY_METRICS)[number]

const count = (v: number) => Math.round(v).toLocaleString('en')
const ratio = (v: number) => v.toFixed(3)

/**
 * How each figure is written, and its fixed colour scale in a heatmap: from `lo` to `hi`, or to
 * the largest value when `hi` is null (a queue or a loss count has no natural top).
 */
export const METRIC_LABELS: Record<SummaryMetric, { title: string; unit: string; format(value: number): string; scale: { lo: number; hi: number | null } }> = {
  max_queue: { title: 'Maximum queue', unit: 'cells', format: count, scale: { lo: 0, hi: null } },
  utilization: { title: 'Bottleneck utilisation', unit: '', format: ratio, scale: { lo: 0, hi: 1 } },
  fairness: { title: 'Fairness index', unit: '', format: ratio, scale: { lo: 0, hi: 1 } },
  cells_lost: { title: 'Cells lost', unit: 'cells', format: count, scale: { lo: 0, hi: null } },
}

/** Same rounding as runner.rs `round` (positive figures: half away from zero = half up). */
function round(x: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

interface PortColumns {
  queueMax: number
  util: number
  lost: number
  isSwitch: boolean
}

export class WindowSummary {
  private readonly width: number
  private readonly ports: PortColumns[]
  private readonly fairnessColumn: number
  private readonly from: number
  private readonly to: number
  private prev: Float64Array
  private rows = 0
  private queueMax: Float64Array
  private utilSum: Float64Array
  private lost: Float64Array
  private fairnessSum = 0

  /**
   * @param columns the layout's sample columns
   * @param ports every port, with whether it transmits from a switch
   * @param window [from, to] in ms
   * @param sampleMs the sample interval Δ
   */
  constructor(
    columns: readonly string[],
    ports: readonly { id: string; from_kind: string }[],
    window: readonly [number, number],
    private readonly sampleMs: number,
    /** Decimal places of the fairness figure, as the runner rounds it (packet model: 4). */
    private readonly fairnessDigits = 5,
  ) {
    const index = new Map(columns.map((c, i) => [c, i]))
    const at = (name: string) => {
      const i = index.get(name)
      if (i === undefined) throw new Error(`the engine has no sample column "${name}"`)
      return i
    }
    this.width = columns.length
    this.ports = ports.map((p) => ({ queueMax: at(column.queueMax(p.id)), util: at(column.util(p.id)), lost: at(column.lost(p.id)), isSwitch: p.from_kind !== 'host' }))
    this.fairnessColumn = index.get(column.fairness) ?? -1
    this.from = window[0]
    this.to = window[1]
    this.prev = new Float64Array(this.width)
    this.queueMax = new Float64Array(this.ports.length)
    this.utilSum = new Float64Array(this.ports.length)
    this.lost = new Float64Array(this.ports.length)
  }

  /** Folds in flat row-major sample rows, in time order. */
  add(rows: Float64Array): void {
    const EPS = 1e-9
    for (let r = 0; r + this.width <= rows.length; r += this.width) {
      const end = rows[r]
      const start = end - this.sampleMs
      if (start >= this.from - EPS && end <= this.to + EPS) {
        this.rows++
        this.ports.forEach((p, i) => {
          this.queueMax[i] = Math.max(this.queueMax[i], rows[r + p.queueMax])
          this.utilSum[i] += rows[r + p.util]
          this.lost[i] += rows[r + p.lost] - this.prev[p.lost]
        })
        if (this.fairnessColumn >= 0) this.fairnessSum += rows[r + this.fairnessColumn]
      }
      this.prev = rows.slice(r, r + this.width)
    }
  }

  summary(): SweepSummary {
    const n = Math.max(1, this.rows)
    let maxQueue = 0
    let utilization = 0
    let lost = 0
    this.ports.forEach((p, i) => {
      lost += Math.trunc(this.lost[i])
      if (!p.isSwitch) return
      maxQueue = Math.max(maxQueue, Math.trunc(this.queueMax[i]))
      utilization = Math.max(utilization, round(this.utilSum[i] / n, 5))
    })
    return {
      max_queue: maxQueue,
      utilization,
      fairness: this.fairnessColumn >= 0 ? round(this.fairnessSum / n, this.fairnessDigits) : null,
      cells_lost: lost,
    }
  }
}
