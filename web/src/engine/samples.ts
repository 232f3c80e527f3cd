/**
 * Sample rows from the engine, kept as columns.
 *
 * The engine hands over rows flat and row-major (`columns.length` values per row); charts want one
 * contiguous array per column. The store transposes on arrival into growable Float64Arrays, so a
 * chart reads `series('vc.vc1.acr')` as a typed-array view without copying.
 *
 * Storage is bounded: a run of hours at 0.5 ms per row would not fit in memory. When the store
 * holds `maxRows` rows it merges them in pairs and from then on merges each `stride` incoming rows
 * into one, so the whole run stays covered at a uniform, coarser resolution. Merging keeps peaks:
 * of the rows merged, each column keeps the value farthest from the value kept before it, so a
 * one-sample spike of the queue (or a dip of an ACR) survives any number of halvings; a
 * monotone counter keeps its latest value. `max()` and `last()` stay exact.
 */

const INITIAL_CAPACITY = 1024
/** Values (rows × columns) kept before rows are merged: 64 MB of Float64. */
export const MAX_STORED_VALUES = 8_000_000
/** However many columns, at least this many rows are kept. */
export const MIN_MAX_ROWS = 2048

export interface SampleStoreOptions {
  /** Rows kept before merging (even; default from MAX_STORED_VALUES and the column count). */
  maxRows?: number
}

export class SampleStore {
  readonly columns: readonly string[]
  /** Rows held before the store merges them in pairs. */
  readonly maxRows: number
  private readonly index: ReadonlyMap<string, number>
  private data: Float64Array[]
  /** Committed rows. */
  private length = 0
  /** Raw rows merged into each committed row. */
  private rowStride = 1
  /** Raw rows gathered towards the next committed row (held at index `length`). */
  private pending = 0
  private received = 0
  /** Largest value seen so far in each column, for autoscaling and bottleneck choice. */
  private maxima: Float64Array
  /** The most recent raw row. */
  private latest: Float64Array

  constructor(columns: readonly string[], options: SampleStoreOptions = {}) {
    if (columns.length === 0) throw new Error('a sample store needs at least one column')
    const index = new Map<string, number>()
    columns.forEach((name, i) => {
      if (index.has(name)) throw new Error(`duplicate sample column "${name}"`)
      index.set(name, i)
    })
    const fromBudget = Math.max(MIN_MAX_ROWS, Math.floor(MAX_STORED_VALUES / columns.length))
    const maxRows = options.maxRows ?? fromBudget
    if (!(maxRows >= 2)) throw new Error(`maxRows must be at least 2, not ${maxRows}`)
    this.maxRows = maxRows - (maxRows % 2)
    this.columns = columns
    this.index = index
    this.data = columns.map(() => new Float64Array(Math.min(INITIAL_CAPACITY, this.maxRows + 1)))
    this.maxima = new Float64Array(columns.length).fill(-Infinity)
    this.latest = new Float64Array(columns.length).fill(Number.NaN)
  }

  /** Number of rows held, including a partly merged last row. */
  get rowCount(): number {
    return this.length + (this.pending > 0 ? 1 : 0)
  }

  /** Rows received from the engine since the start (or the last clear). */
  get receivedRows(): number {
    return this.received
  }

  /** How many received rows each held row stands for (1 until the store first fills). */
  get stride(): number {
    return this.rowStride
  }

  has(name: string): boolean {
    return this.index.has(name)
  }

  /** Appends flat row-major rows; returns how many rows were received. */
  append(rows: Float64Array): number {
    const width = this.columns.length
    if (rows.length % width !== 0) {
      throw new Error(
        `sample buffer of ${rows.length} values is not a whole number of ${width}-column rows`,
      )
    }
    const added = rows.length / width
    for (let r = 0; r < added; r++) this.push(rows, r * width)
    this.received += added
    return added
  }

  /** The values of one column, oldest first: a view that stays valid until the next append. */
  series(name: string): Float64Array {
    const c = this.index.get(name)
    if (c === undefined) throw new Error(`no sample column "${name}"`)
    return this.data[c].subarray(0, this.rowCount)
  }

  /** The largest value of a column so far (-Infinity when empty). */
  max(name: string): number {
    const c = this.index.get(name)
    if (c === undefined) throw new Error(`no sample column "${name}"`)
    return this.maxima[c]
  }

  /** The most recent value of a column, or undefined when no row has arrived. */
  last(name: string): number | undefined {
    const c = this.index.get(name)
    if (c === undefined) throw new Error(`no sample column "${name}"`)
    if (this.received === 0) return undefined
    return this.latest[c]
  }

  clear(): void {
    this.length = 0
    this.pending = 0
    this.received = 0
    this.rowStride = 1
    this.maxima.fill(-Infinity)
    this.latest.fill(Number.NaN)
  }

  /** Folds one raw row (at `offset` in `rows`) into the store. */
  private push(rows: Float64Array, offset: number): void {
    if (this.pending === 0) {
      if (this.length === this.maxRows) this.halve()
      this.reserve(this.length + 1)
    }
    const at = this.length
    for (let c = 0; c < this.columns.length; c++) {
      const value = rows[offset + c]
      const column = this.data[c]
      if (value > this.maxima[c]) this.maxima[c] = value
      this.latest[c] = value
      if (this.pending === 0) {
        column[at] = value
      } else {
        const reference = at > 0 ? column[at - 1] : column[at]
        column[at] = farther(reference, column[at], value)
      }
    }
    this.pending++
    if (this.pending === this.rowStride) {
      this.length++
      this.pending = 0
    }
  }

  /** Merges the held rows in pairs and doubles the stride. */
  private halve(): void {
    const half = this.length / 2
    for (const column of this.data) {
      for (let i = 0; i < half; i++) {
        const reference = i > 0 ? column[i - 1] : column[0]
        column[i] = farther(reference, column[2 * i], column[2 * i + 1])
      }
    }
    this.length = half
    this.rowStride *= 2
  }

  private reserve(rows: number): void {
    const capacity = this.data[0].length
    if (rows <= capacity) return
    let next = capacity
    while (next < rows) next *= 2
    next = Math.min(next, this.maxRows + 1)
    this.data = this.data.map((old) => {
      const grown = new Float64Array(next)
      grown.set(old.subarray(0, this.rowCount))
      return grown
    })
  }
}

/** Of `a` and `b`, the one farther from `reference`; a number beats NaN; ties keep `b`, the later. */
function farther(reference: number, a: number, b: number): number {
  if (Number.isNaN(b)) return a
  if (Number.isNaN(a)) return b
  const da = Math.abs(a - reference)
  const db = Math.abs(b - reference)
  if (Number.isNaN(da) || Number.isNaN(db)) return b
  return da > db ? a : b
}
