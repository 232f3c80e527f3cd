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
import type { EngineHandle, EngineModule } from './engineModule'
import { defaultClock, type HostClock } from './hostClock'
import { overMemory, WASM_MEMORY_LIMIT_BYTES } from './memoryLimit'
import { SamplePoster } from './samplePosts'

export { WASM_MEMORY_LIMIT_BYTES }

export type Post = (msg: WorkerMessage, transfer: Transferable[]) => void

/** A reply before it is numbered with its request's id. */
type Unnumbered<R> = R extends unknown ? Omit<R, 'id'> : never

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
/** How long to wait when paced play has caught up with the wall clock (about one display frame). */
const PACED_IDLE_MS = 16

/** A wasm trap (a Rust panic compiles to `unreachable`) leaves the instance unusable. */
function isTrap(error: unknown): boolean {
  return typeof WebAssembly !== 'undefined' && error instanceof WebAssembly.RuntimeError
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
  private readonly samples: SamplePoster
  /** Set when the engine trapped; from then on every request fails. */
  private poisoned: string | null = null

  constructor(
    private readonly mod: EngineModule,
    private readonly post: Post,
    private readonly clock: HostClock = defaultClock,
  ) {
    this.samples = new SamplePoster(post)
  }

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
      this.samples.keepSpare(req.buffer)
      return
    }
    if (this.poisoned !== null) {
      this.fail(req.id, `engine crashed earlier: ${this.poisoned}`)
      return
    }
    try {
      switch (req.type) {
        case 'load':
        case 'swap':
          this.load(req, req.scenarioJson)
          return
        case 'check':
          this.check(req)
          return
        case 'reset':
          this.refreshScenario()
          if (this.scenarioJson === null) this.fail(req.id, 'no scenario loaded')
          else this.load(req, this.scenarioJson)
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
          this.samples.animate(req.maxCells, req.port ?? null)
          this.reply(req, { type: 'ok' })
          // A paused run shows the newly magnified port at once.
          if (!this.running && this.engine !== null && this.samples.magnifying) this.flush()
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

  /**
   * Builds a scenario in place of the current run. A `load` or `reset` drops the current run
   * first; a `swap` validates first and, refused, leaves the run as it was.
   */
  private load(req: RequestOf<'load' | 'swap' | 'reset'>, scenarioJson: string): void {
    if (req.type !== 'swap') this.dropRun()
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
    this.dropRun()
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

  /** Validates a scenario whole; the run goes on untouched. */
  private check(req: RequestOf<'check'>): void {
    const text = this.mod.validate_scenario(req.scenarioJson)
    const errors = parseEngineErrors(text)
    if (errors.length > 0)
      this.reply(req, { type: 'rejected', message: 'the engine refused this change', errors })
    else this.reply(req, { type: 'checked', warnings: parseEngineWarnings(text) })
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

  private dropRun(): void {
    this.stop()
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
    const overrun = overMemory(this.mod.memoryBytes?.() ?? 0)
    if (overrun !== null) {
      this.running = false
      this.engine = null
      this.poisoned = 'the engine ran over its memory limit'
      this.post({ type: 'fatal', message: overrun }, [])
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

  /** Posts what the run produced since the last post. */
  private flush(): void {
    if (this.engine === null) return
    this.lastFlushWall = this.clock.now()
    this.samples.flush(this.engine)
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
