/**
 * What the engine host sends the page after each stretch of run: the completed sample rows, the
 * live frame, the cells in flight for the animation and every cell of the magnified port, in
 * buffers transferred (not copied) to the page, the rows' buffers taken back and used again.
 */
import type { EngineHandle } from './engineModule'
import type { Post } from './protocol'

/** Least size of a new buffer for sample rows, and how many the page's returned ones are kept. */
const MIN_ROWS_BUFFER_BYTES = 64 * 1024
const SPARE_BUFFERS = 4
/** At most this many cells of the magnified port, on its wire and again in its queue. */
export const MAGNIFIED_CELLS = 4000

/**
 * Transferring a view into wasm memory would detach the engine's memory, so only arrays that own
 * their whole buffer are transferred; anything else is copied first (js-sys `view` docs).
 */
function ownBuffer(array: Float64Array): Float64Array {
  const buffer = array.buffer
  const owns =
    buffer instanceof ArrayBuffer &&
    array.byteOffset === 0 &&
    array.byteLength === buffer.byteLength
  return owns ? array : array.slice()
}

export class SamplePoster {
  /** Cells in flight sent with each post, for the animation; 0 sends none. */
  private maxCells = 0
  /** The port whose every cell is sent with each post (the magnifier's), or null. */
  private magnified: number | null = null
  /** Buffers the page gave back after reading their samples, for the next posts (`recycle`). */
  private spare: ArrayBuffer[] = []

  constructor(private readonly post: Post) {}

  /** What each post carries for the animation: this many cells in flight, this port's cells. */
  animate(maxCells: number, port: number | null): void {
    this.maxCells = Math.floor(maxCells)
    this.magnified = port
  }

  /** A port is magnified: a paused run shows it as soon as it is chosen. */
  get magnifying(): boolean {
    return this.magnified !== null
  }

  /** Posts the completed sample rows and the live frame, transferring their buffers. */
  flush(engine: EngineHandle): void {
    const rows = this.takeRows(engine)
    const frame = ownBuffer(engine.frame())
    const cells = this.maxCells > 0 ? ownBuffer(engine.cells_in_flight(this.maxCells)) : undefined
    const portCells =
      this.magnified !== null
        ? ownBuffer(engine.port_cells(this.magnified, MAGNIFIED_CELLS))
        : undefined
    const transfer: Transferable[] = [rows.buffer, frame.buffer]
    if (cells) transfer.push(cells.buffer)
    if (portCells) transfer.push(portCells.buffer)
    this.post(
      {
        type: 'samples',
        rows,
        frame,
        cells,
        portCells,
        nowMs: engine.now_ms(),
        events: engine.events(),
      },
      transfer,
    )
  }

  /**
   * The completed sample rows, in a buffer the page gave back when there is one big enough: the
   * rows are posted about 30 times a second, and a new buffer each time was tens of MB of
   * garbage in the page's process with 200 sources. The rows are a view at the start
   * of the buffer; the whole buffer is transferred.
   */
  private takeRows(engine: EngineHandle): Float64Array {
    const n = engine.stash_samples()
    const bytes = n * Float64Array.BYTES_PER_ELEMENT
    const i = this.spare.findIndex((b) => b.byteLength >= bytes)
    // Room to spare, so that a buffer serves the next posts too (their row counts vary).
    const buffer =
      i >= 0
        ? this.spare.splice(i, 1)[0]
        : new ArrayBuffer(Math.max(MIN_ROWS_BUFFER_BYTES, 2 * bytes))
    const rows = new Float64Array(buffer, 0, n)
    engine.copy_samples(rows)
    return rows
  }

  /** Keeps a buffer the page gave back, for the next posts. */
  keepSpare(buffer: ArrayBuffer): void {
    if (buffer.byteLength === 0 || this.spare.length >= SPARE_BUFFERS) return
    this.spare.push(buffer)
  }
}
