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
 *
 * A column that has held one value in every row so far (most of a large network's: the queue and
 * losses of ports that never queue, a share that never moves) is kept as that one value, and gets
 * its array on the first row that differs (3,605 of the 5,212 columns of 200 sources,
 * 30 MB). Its `series` is a view of a shared array of that value, so what is read is exactly what
 * arrived either way.
 */

const INITIAL_CAPACITY = 1024
/** Values (rows × columns) kept before rows are merged: 64 MB of Float64. */
export const MAX_STORED_VALUES = 8_000_000
/** However many columns, at least this many rows are kept. */
export const MIN_MAX_ROWS = 2048

/** Rows a run sends: one per sample interval up to its end, and the row at 0 (0 if unknown). */
export function rowsOfRun(untilMs: number, sampleIntervalMs: number): number {
  if (!(untilMs >= 0) || !(sampleIntervalMs > 0)) return 0
  return Math.floor(untilMs / sampleIntervalMs) + 1
}

export interface SampleStoreOptions {
  /** Rows kept before merging (even; default from MAX_STORED_VALUES and the column count). */
  maxRows?: number
  /** Keep a column of one value as that value until a row differs (default true). */
  foldConstants?: boolean
  /**
   * Rows the run is expected to send (its length over its sample interval, plus the row at 0):
   * the columns get room for that many at once (never more than `maxRows` + 1), instead of
   * doubling from 1,024 as rows come. A doubling copies every column that varies while the run
   * plays: at 500 VCs (3,042 columns, 39 s at 20 ms) the page's thread spent 40–55 ms on the one
   * message that crossed 1,024 rows, a frame of 100–150 ms flat out (the benchmark's frames
   * benchmark). A run that goes on longer still grows as before.
   */
  expectedRows?: number
}

export class SampleStore {
  readonly columns: readonly string[]
  /** Rows held before the store merges them in pairs. */
  readonly maxRows: number
  private readonly index: ReadonlyMap<string, number>
  /** Each column's values, or null while it has held one value (`constants`) in every row. */
  private data: (Float64Array | null)[]
  private readonly foldConstants: boolean
  /** Rows each column array has room for. */
  private capacity: number
  /** The value of each column that has held only one so far. */
  private readonly constants: Float64Array
  /** Shared arrays of one value, by value (`-0` apart), that constant columns' views read. */
  private filled = new Map<number | string, Float64Array>()
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
    const expected = options.expectedRows
    this.capacity = Math.min(
      expected !== undefined && Number.isFinite(expected) && expected >= 1
        ? Math.ceil(expected)
        : INITIAL_CAPACITY,
      this.maxRows + 1,
    )
    this.foldConstants = options.foldConstants ?? true
    this.data = columns.map(() => null)
    this.constants = new Float64Array(columns.length)
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
    const column = this.data[c]
    if (column !== null) return column.subarray(0, this.rowCount)
    return this.filledWith(this.constants[c]).subarray(0, this.rowCount)
  }

  /** One held value of a column (row as in `series`), NaN outside the rows held; no view made. */
  at(name: string, row: number): number {
    const c = this.index.get(name)
    if (c === undefined) throw new Error(`no sample column "${name}"`)
    if (!(row >= 0 && row < this.rowCount)) return Number.NaN
    const column = this.data[c]
    return column === null ? this.constants[c] : column[row]
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
    this.data.fill(null)
    this.filled.clear()
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
    const first = this.length === 0 && this.pending === 0
    const pending = this.pending
    // Fields read once: this loop runs for every column of every row (with 500 VCs it
    // was a tenth of the page's thread while a run streams in).
    const data = this.data
    const maxima = this.maxima
    const latest = this.latest
    const constants = this.constants
    const fold = this.foldConstants
    const width = this.columns.length
    for (let c = 0; c < width; c++) {
      const value = rows[offset + c]
      if (value > maxima[c]) maxima[c] = value
      latest[c] = value
      let column = data[c]
      if (column === null) {
        if (first && fold) {
          constants[c] = value
          continue
        }
        if (!first && Object.is(value, constants[c])) continue
        // The first value that differs: the rows held so far (`at`, and the one being merged
        // into at `at`) were all the constant.
        column = new Float64Array(this.capacity)
        column.fill(constants[c], 0, at + (pending > 0 ? 1 : 0))
        data[c] = column
      }
      if (pending === 0) {
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
      if (column === null) continue
      for (let i = 0; i < half; i++) {
        const reference = i > 0 ? column[i - 1] : column[0]
        column[i] = farther(reference, column[2 * i], column[2 * i + 1])
      }
    }
    this.length = half
    this.rowStride *= 2
  }

  private reserve(rows: number): void {
    const capacity = this.capacity
    if (rows <= capacity) return
    let next = capacity
    while (next < rows) next *= 2
    next = Math.min(next, this.maxRows + 1)
    this.capacity = next
    this.filled.clear()
    this.data = this.data.map((old) => {
      if (old === null) return null
      const grown = new Float64Array(next)
      grown.set(old.subarray(0, this.rowCount))
      return grown
    })
  }

  /** A shared array of `capacity` copies of `value` (read-only by everyone). */
  private filledWith(value: number): Float64Array {
    const key = Object.is(value, -0) ? '-0' : value
    let array = this.filled.get(key)
    if (array === undefined || array.length < this.capacity) {
      array = new Float64Array(this.capacity).fill(value)
      this.filled.set(key, array)
    }
    return array
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
