/**
 * Sample rows from the engine, kept as columns.
 *
 * The engine hands over rows flat and row-major (`columns.length` values per row); charts want one
 * contiguous array per column. The store transposes on arrival into growable Float64Arrays, so a
 * chart reads `series('vc.vc1.acr')` as a typed-array view without copying.
 */

const INITIAL_CAPACITY = 1024

export class SampleStore {
  readonly columns: readonly string[]
  private readonly index: ReadonlyMap<string, number>
  private data: Float64Array[]
  private length = 0
  /** Largest value seen so far in each column, for autoscaling and bottleneck choice. */
  private maxima: Float64Array

  constructor(columns: readonly string[]) {
    if (columns.length === 0) throw new Error('a sample store needs at least one column')
    const index = new Map<string, number>()
    columns.forEach((name, i) => {
      if (index.has(name)) throw new Error(`duplicate sample column "${name}"`)
      index.set(name, i)
    })
    this.columns = columns
    this.index = index
    this.data = columns.map(() => new Float64Array(INITIAL_CAPACITY))
    this.maxima = new Float64Array(columns.length).fill(-Infinity)
  }

  /** Number of rows held. */
  get rowCount(): number {
    return this.length
  }

  has(name: string): boolean {
    return this.index.has(name)
  }

  /** Appends flat row-major rows; returns how many rows were added. */
  append(rows: Float64Array): number {
    const width = this.columns.length
    if (rows.length % width !== 0) {
      throw new Error(`sample buffer of ${rows.length} values is not a whole number of ${width}-column rows`)
    }
    const added = rows.length / width
    if (added === 0) return 0
    this.reserve(this.length + added)
    for (let c = 0; c < width; c++) {
      const column = this.data[c]
      let max = this.maxima[c]
      for (let r = 0; r < added; r++) {
        const value = rows[r * width + c]
        column[this.length + r] = value
        if (value > max) max = value
      }
      this.maxima[c] = max
    }
    this.length += added
    return added
  }

  /** The values of one column, oldest first: a view that stays valid until the next append. */
  series(name: string): Float64Array {
    const c = this.index.get(name)
    if (c === undefined) throw new Error(`no sample column "${name}"`)
    return this.data[c].subarray(0, this.length)
  }

  /** The largest value of a column so far (-Infinity when empty). */
  max(name: string): number {
    const c = this.index.get(name)
    if (c === undefined) throw new Error(`no sample column "${name}"`)
    return this.maxima[c]
  }

  /** The most recent value of a column, or undefined when no row has arrived. */
  last(name: string): number | undefined {
    if (this.length === 0) return undefined
    return this.series(name)[this.length - 1]
  }

  clear(): void {
    this.length = 0
    this.maxima.fill(-Infinity)
  }

  private reserve(rows: number): void {
    const capacity = this.data[0].length
    if (rows <= capacity) return
    let next = capacity
    while (next < rows) next *= 2
    this.data = this.data.map((old) => {
      const grown = new Float64Array(next)
      grown.set(old.subarray(0, this.length))
      return grown
    })
  }
}
