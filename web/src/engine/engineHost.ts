/**
 * The worker side of the protocol, independent of the worker global so that tests can drive it
 * in Node with the real wasm engine.
 *
 * It owns one engine, steps it in time slices of a few milliseconds and yields between slices so
 * that `pause`, `reset` and `speed` requests are handled promptly.
 */
import {
  type CallType,
  type ClientRequest,
  type ReplyOf,
  type RequestOf,
  type RunStatus,
  type Speed,
  type WorkerMessage,
  parseEngineErrors,
  parseEngineWarnings,
  parseSetParamResult,
} from './protocol'

/** The part of the wasm-bindgen `Engine` class the host uses. */
export interface EngineHandle {
  layout(): string
  run_until(t_ms: number, max_events: number): boolean
  now_ms(): number
  events(): number
  take_samples(): Float64Array
  /**
   * Takes the completed rows as `take_samples` does, keeping them for `copy_samples`; returns how
   * many values they are.
   */
  stash_samples(): number
  /** Copies the stashed rows into the start of `out`. */
  copy_samples(out: Float64Array): void
  frame(): Float64Array
  /** Cells on the links, rows of 7. */
  cells_in_flight(max: number): Float64Array
  /** One port's cells on its wire and in its queue. */
  port_cells(port: number, max: number): Float64Array
  set_param(path: string, value_json: string): string
  scenario_json(): string
  free(): void
}

/** The part of the generated `sim_wasm.js` module the host uses. */
export interface EngineModule {
  Engine: new (scenarioJson: string) => EngineHandle
  validate_scenario(scenarioJson: string): string
  /** Bytes of the engine's wasm memory (it only grows), for the memory watch; absent in tests. */
  memoryBytes?(): number
}

/**
 * The most wasm memory a run may reach. The engine's own limits refuse what they can
 * foresee before anything is built; this catches the rest: past it the run stops with a message
 * and the page starts a fresh worker, well before the tab itself runs short (wasm32 caps at 4 GB).
 */
export const WASM_MEMORY_LIMIT_BYTES = 1024 * 1024 * 1024

export type Post = (msg: WorkerMessage, transfer: Transferable[]) => void

/** A reply before it is numbered with its request's id. */
type Unnumbered<R> = R extends unknown ? Omit<R, 'id'> : never

/** Wall time and scheduling, injectable so tests are not tied to a browser. */
export interface HostClock {
  now(): number
  /** Runs `fn` after `ms` milliseconds, letting queued messages be handled first. */
  later(fn: () => void, ms: number): void
}

/** Wall-clock budget of one slice of engine work before yielding to the message loop. */
export const SLICE_MS = 8
/** Bounds on the events per `run_until` call; the budget adapts to the measured event rate. */
export const MIN_EVENTS_PER_CALL = 1_000
export const MAX_EVENTS_PER_CALL = 100_000
/**
 * Least wall time between two posts of samples while the engine runs ahead: two display frames.
 * Slices stay short so that requests are answered promptly, but posting after each of them made
 * the page handle more messages than it can draw: playing 500 VCs flat out, posting every slice
 * gave 48 frames/s, every 16 ms 52–54, every 32 ms 56 (the benchmark). Paced play posts
 * after every slice that catches up, so the charts follow the clock as before.
 */
export const FLUSH_MS = 32
/** Least size of a new buffer for sample rows, and how many the page's returned ones are kept. */
const MIN_ROWS_BUFFER_BYTES = 64 * 1024
const SPARE_BUFFERS = 4
/** At most this many cells of the magnified port, on its wire and again in its queue. */
export const MAGNIFIED_CELLS = 4000
/** How long to wait when paced play has caught up with the wall clock (about one display frame). */
const PACED_IDLE_MS = 16

/**
 * Runs `fn` as a new task, after the messages already queued. `setTimeout(fn, 0)` would too, but
 * browsers clamp nested timeouts to 4 ms (HTML "timer nesting level"): in a Chromium worker that
 * left the engine idle about a third of the time between 8 ms slices (the benchmark). A
 * MessageChannel message is not clamped. Its ports are unref'd where that exists (Node), so a
 * pending slice never keeps a test process alive.
 */
let immediateChannel: MessageChannel | null = null
const immediateQueue: Array<() => void> = []
function runSoon(fn: () => void): void {
  if (typeof MessageChannel === 'undefined') {
    setTimeout(fn, 0)
    return
  }
  if (immediateChannel === null) {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => immediateQueue.shift()?.()
    for (const port of [channel.port1, channel.port2]) (port as { unref?: () => void }).unref?.()
    immediateChannel = channel
  }
  immediateQueue.push(fn)
  immediateChannel.port2.postMessage(null)
}

const defaultClock: HostClock = {
  now: () => performance.now(),
  later: (fn, ms) => (ms <= 0 ? runSoon(fn) : void setTimeout(fn, ms)),
}

/** A wasm trap (a Rust panic compiles to `unreachable`) leaves the instance unusable. */
function isTrap(error: unknown): boolean {
  return typeof WebAssembly !== 'undefined' && error instanceof WebAssembly.RuntimeError
}

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

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

export class EngineHost {
  private engine: EngineHandle | null = null
  private scenarioJson: string | null = null
  /** A change was taken since `scenarioJson` was written out. */
  private scenarioStale = false
  private untilMs = 0
  private running = false
  /** Where the current play pauses (a lecture's stop), or null: the run's end. */
  private pauseAtMs: number | null = null
  private sliceScheduled = false
  private speed: Speed = null
  /** Pacing anchor: sim time and wall time when play (or a speed change) started. */
  private anchorSimMs = 0
  private anchorWallMs = 0
  private eventsPerCall = 10_000
  /** Wall time of the last post of samples. */
  private lastFlushWall = Number.NEGATIVE_INFINITY
  /** Cells in flight sent with each flush, for the animation; 0 sends none. */
  private maxCells = 0
  /** The port whose every cell is sent with each flush (the magnifier's), or null. */
  private magnified: number | null = null
  /** Buffers the page gave back after reading their samples, for the next posts (`recycle`). */
  private spare: ArrayBuffer[] = []
  /** Set when the engine trapped; from then on every request fails. */
  private poisoned: string | null = null

  constructor(
    private readonly mod: EngineModule,
    private readonly post: Post,
    private readonly clock: HostClock = defaultClock,
  ) {}

  /** Posts the answer to request `req`: of the type its kind of request is answered with. */
  private reply<K extends CallType>(
    req: { type: K; id: number },
    reply: Unnumbered<ReplyOf[K]>,
  ): void {
    this.post({ ...reply, id: req.id } as WorkerMessage, [])
  }

  /** Tells the page that request `id` could not be carried out. */
  private fail(id: number, message: string): void {
    this.post({ type: 'failed', id, message }, [])
  }

  /** Handles one request and posts exactly one reply with the same id (`recycle` has none). */
  handle(req: ClientRequest): void {
    if (req.type === 'recycle') {
      this.keepSpare(req.buffer)
      return
    }
    if (this.poisoned !== null) {
      this.fail(req.id, `engine crashed earlier: ${this.poisoned}`)
      return
    }
    try {
      switch (req.type) {
        case 'load':
          this.load(req, req.scenarioJson)
          return
        case 'reset':
          this.refreshScenario()
          if (this.scenarioJson === null) {
            this.fail(req.id, 'no scenario loaded')
          } else {
            this.load(req, this.scenarioJson)
          }
          return
        case 'play':
          this.play(req)
          return
        case 'pause':
          this.pause()
          this.reply(req, { type: 'ok' })
          return
        case 'speed':
          this.setSpeed(req.speed)
          this.reply(req, { type: 'ok' })
          return
        case 'animate':
          this.maxCells = Math.floor(req.maxCells)
          this.magnified = req.port ?? null
          this.reply(req, { type: 'ok' })
          // A paused run shows the newly magnified port at once.
          if (!this.running && this.engine !== null && this.magnified !== null) this.flush()
          return
        case 'step':
          this.step(req, req.ms)
          return
        case 'set':
          this.set(req, req.path, req.valueJson)
          return
      }
    } catch (error) {
      if (isTrap(error)) {
        this.poison(error)
        this.fail(req.id, `engine crashed: ${messageOf(error)}`)
      } else {
        this.fail(req.id, messageOf(error))
      }
    }
  }

  private load(req: RequestOf<'load' | 'reset'>, scenarioJson: string): void {
    this.stop()
    this.dropEngine()
    const verdictText = this.mod.validate_scenario(scenarioJson)
    const verdict = parseEngineErrors(verdictText)
    if (verdict.length > 0) {
      this.reply(req, {
        type: 'rejected',
        message: 'the engine rejected this scenario',
        errors: verdict,
      })
      return
    }
    const warnings = parseEngineWarnings(verdictText)
    let engine: EngineHandle
    try {
      engine = new this.mod.Engine(scenarioJson)
    } catch (error) {
      if (isTrap(error)) throw error
      const errors = parseEngineErrors(messageOf(error))
      this.reply(req, { type: 'rejected', message: 'the engine rejected this scenario', errors })
      return
    }
    const layoutJson = engine.layout()
    const layout = JSON.parse(layoutJson) as { until_ms?: unknown }
    this.engine = engine
    this.scenarioJson = scenarioJson
    this.scenarioStale = false
    this.untilMs = typeof layout.until_ms === 'number' ? layout.until_ms : 0
    this.reply(req, { type: 'loaded', layoutJson, warnings })
    this.postStatus('paused')
  }

  private play(req: RequestOf<'play'>): void {
    const engine = this.engine
    if (engine === null) {
      this.fail(req.id, 'no scenario loaded')
      return
    }
    this.reply(req, { type: 'ok' })
    if (engine.now_ms() >= this.untilMs) {
      this.postStatus('finished')
      return
    }
    const { pauseAtMs } = req
    this.pauseAtMs =
      pauseAtMs !== undefined && pauseAtMs > engine.now_ms() && pauseAtMs < this.untilMs
        ? pauseAtMs
        : null
    if (!this.running) {
      this.running = true
      this.rebaseClock()
      this.postStatus('running')
      this.scheduleSlice(0)
    }
  }

  /** Runs `ms` more of simulated time at once, whatever the pacing, and stops there. */
  private step(req: RequestOf<'step'>, ms: number): void {
    const engine = this.engine
    if (engine === null) {
      this.fail(req.id, 'no scenario loaded')
      return
    }
    this.reply(req, { type: 'ok' })
    this.stop()
    const target = Math.min(this.untilMs, engine.now_ms() + ms)
    // A step is short (a sample interval or so): run it to the end in one go.
    while (!engine.run_until(target, MAX_EVENTS_PER_CALL)) {
      // run_until returns false only when the event budget ran out first; keep going.
    }
    this.flush()
    this.postStatus(engine.now_ms() >= this.untilMs ? 'finished' : 'paused')
  }

  /** Changes one parameter of the running simulation (`Engine.set_param`). */
  private set(req: RequestOf<'set'>, path: string, valueJson: string): void {
    const engine = this.engine
    if (engine === null) {
      this.fail(req.id, 'no scenario loaded')
      return
    }
    const result = parseSetParamResult(engine.set_param(path, valueJson))
    if ('error' in result) {
      this.reply(req, {
        type: 'rejected',
        message: 'the engine refused this change',
        errors: [result.error],
      })
      return
    }
    this.reply(req, { type: 'param', applied: result.applied, nowMs: engine.now_ms() })
    // Reset rebuilds the scenario as edited, so a live change survives it; written out then.
    this.scenarioStale = true
  }

  /** Writes out the engine's scenario as edited, if a change made it stale. */
  private refreshScenario(): void {
    const engine = this.engine
    if (!this.scenarioStale || engine === null) return
    this.scenarioStale = false
    this.scenarioJson = engine.scenario_json()
  }

  private pause(): void {
    if (!this.running) return
    this.stop()
    this.flush()
    this.postStatus('paused')
  }

  private setSpeed(speed: Speed): void {
    this.speed = speed
    this.rebaseClock()
  }

  private rebaseClock(): void {
    this.anchorWallMs = this.clock.now()
    this.anchorSimMs = this.engine?.now_ms() ?? 0
  }

  private stop(): void {
    this.running = false
    this.pauseAtMs = null
  }

  private dropEngine(): void {
    const engine = this.engine
    this.engine = null
    engine?.free()
  }

  private scheduleSlice(delayMs: number): void {
    if (this.sliceScheduled) return
    this.sliceScheduled = true
    this.clock.later(() => {
      this.sliceScheduled = false
      this.slice()
    }, delayMs)
  }

  /** One time slice: run the engine for up to SLICE_MS of wall time, post what it produced, yield. */
  private slice(): void {
    const engine = this.engine
    if (!this.running || engine === null) return
    const start = this.clock.now()
    const target = Math.min(
      this.pauseAtMs ?? this.untilMs,
      this.speed === null
        ? this.untilMs
        : this.anchorSimMs + (this.speed * (start - this.anchorWallMs)) / 1000,
    )
    let caughtUp = false
    try {
      for (;;) {
        if (engine.now_ms() >= target) {
          caughtUp = true
          break
        }
        const eventsBefore = engine.events()
        const callStart = this.clock.now()
        const reached = engine.run_until(target, this.eventsPerCall)
        const callEnd = this.clock.now()
        this.adaptBudget(engine.events() - eventsBefore, callEnd - callStart)
        if (reached) {
          caughtUp = true
          break
        }
        if (callEnd - start >= SLICE_MS) break
      }
      if (caughtUp || this.clock.now() - this.lastFlushWall >= FLUSH_MS) this.flush()
    } catch (error) {
      this.poison(error)
      return
    }
    const bytes = this.mod.memoryBytes?.() ?? 0
    if (bytes > WASM_MEMORY_LIMIT_BYTES) {
      this.running = false
      this.engine = null
      this.poisoned = 'the engine ran over its memory limit'
      const mb = (n: number) => Math.round(n / (1024 * 1024))
      this.post(
        {
          type: 'fatal',
          message: `the run stopped before the tab ran short of memory: the engine holds ${mb(bytes)} MB, over its limit of ${mb(WASM_MEMORY_LIMIT_BYTES)} MB (shorten the run, slow the sources or sample less often)`,
        },
        [],
      )
      return
    }
    if (engine.now_ms() >= this.untilMs) {
      this.stop()
      this.postStatus('finished')
      return
    }
    if (this.pauseAtMs !== null && engine.now_ms() >= this.pauseAtMs) {
      // A lecture's stop: the run halts exactly there (the samples up to it were just posted).
      this.stop()
      this.postStatus('paused')
      return
    }
    this.scheduleSlice(caughtUp && this.speed !== null ? PACED_IDLE_MS : 0)
  }

  /** Sizes the next call to take about half a slice at the event rate just measured. */
  private adaptBudget(events: number, wallMs: number): void {
    if (events <= 0 || wallMs <= 0) return
    const perMs = events / wallMs
    const next = Math.round((perMs * SLICE_MS) / 2)
    this.eventsPerCall = Math.min(MAX_EVENTS_PER_CALL, Math.max(MIN_EVENTS_PER_CALL, next))
  }

  /** Posts the completed sample rows and the live frame, transferring their buffers. */
  private flush(): void {
    const engine = this.engine
    if (engine === null) return
    this.lastFlushWall = this.clock.now()
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

  private keepSpare(buffer: ArrayBuffer): void {
    if (buffer.byteLength === 0 || this.spare.length >= SPARE_BUFFERS) return
    this.spare.push(buffer)
  }

  private postStatus(status: RunStatus): void {
    const engine = this.engine
    this.post(
      { type: 'status', status, nowMs: engine?.now_ms() ?? 0, events: engine?.events() ?? 0 },
      [],
    )
  }

  /** After a trap the wasm instance may be corrupt: stop, never touch the engine again, tell the page. */
  private poison(error: unknown): void {
    this.running = false
    this.engine = null
    this.poisoned = messageOf(error)
    this.post({ type: 'fatal', message: `the engine crashed: ${this.poisoned}` }, [])
  }
}
