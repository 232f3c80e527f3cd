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
  type Post,
  type ScenarioError,
  type Speed,
  type WorkerMessage,
  parseEngineErrors,
} from './protocol'
import type { JsonObject } from '../scenario/paths'
import { WorkerDocument } from './document'
import { type EngineHandle, type EngineModule, isTrap, messageOf } from './engineModule'
import {
  defaultClock,
  FLUSH_MS,
  type HostClock,
  MAX_EVENTS_PER_CALL,
  MIN_EVENTS_PER_CALL,
  PACED_IDLE_MS,
  SLICE_MS,
} from './hostClock'
import { overMemory, WASM_MEMORY_LIMIT_BYTES } from './memoryLimit'
import { SamplePoster } from './samplePosts'

export { WASM_MEMORY_LIMIT_BYTES }

/** A reply before it is numbered with its request's id. */
type Unnumbered<R> = R extends unknown ? Omit<R, 'id'> : never

export class EngineHost {
  private engine: EngineHandle | null = null
  /** The document the worker runs, every accepted change made to it. */
  readonly document: WorkerDocument
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
    this.document = new WorkerDocument(mod)
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
        case 'edit':
          this.edit(req)
          return
        case 'keep':
          this.keep(req)
          return
        case 'reset':
          if (this.document.current === null) this.fail(req.id, 'no scenario loaded')
          else this.load(req, JSON.stringify(this.document.current))
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
    const built = this.build(req, scenarioJson)
    if (built === null) return
    this.reply(req, { type: 'loaded', ...built })
    this.postStatus('paused')
  }

  /**
   * Builds scenario text in place of the run and keeps it (or `doc`, the same as an object) as the
   * worker's document; refused (the reply sent), returns null with the run as it was.
   */
  private build(
    req: RequestOf<'load' | 'swap' | 'reset' | 'edit'>,
    text: string,
    doc?: JsonObject,
  ): { layoutJson: string; warnings: ScenarioError[] } | null {
    const verdict = this.document.verdict(text)
    let errors = 'errors' in verdict ? verdict.errors : []
    let engine: EngineHandle | null = null
    if (errors.length === 0) {
      this.dropRun()
      try {
        engine = new this.mod.Engine(text)
      } catch (error) {
        if (isTrap(error)) throw error
        errors = parseEngineErrors(messageOf(error))
      }
    }
    if (engine === null || 'errors' in verdict) {
      this.reply(req, { type: 'rejected', message: 'the engine rejected this scenario', errors })
      return null
    }
    const layoutJson = engine.layout()
    const layout = JSON.parse(layoutJson) as { until_ms?: unknown }
    this.engine = engine
    this.document.built(doc ?? (JSON.parse(text) as JsonObject))
    this.untilMs = typeof layout.until_ms === 'number' ? layout.until_ms : 0
    return { layoutJson, warnings: verdict.warnings }
  }

  /**
   * Makes an operation on the worker's document as the page makes it, validated whole: built in
   * place of the run when it changes what the engine runs, else kept with the run untouched.
   */
  private edit(req: RequestOf<'edit'>): void {
    if (this.engineFor(req.id) === null) return
    const result = this.document.edit(req.op)
    if ('errors' in result) {
      this.reply(req, { type: 'rejected', message: 'the engine refused this change', ...result })
    } else if ('kept' in result) {
      const { warnings, digest } = result
      this.reply(req, { type: 'edited', layoutJson: null, warnings, digest })
    } else {
      const built = this.build(req, result.text, result.build)
      if (built === null) return
      this.reply(req, { type: 'edited', ...built, digest: result.digest })
      this.postStatus('paused')
    }
  }

  /** Keeps a document that differs only in what the engine does not run; the run goes on. */
  private keep(req: RequestOf<'keep'>): void {
    const verdict = this.document.keep(req.scenarioJson)
    if ('errors' in verdict)
      this.reply(req, { type: 'rejected', message: 'the engine refused this change', ...verdict })
    else this.reply(req, { type: 'kept', ...verdict })
  }

  private play(req: RequestOf<'play'>): void {
    const engine = this.engineFor(req.id)
    if (engine === null) return
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
    const engine = this.engineFor(req.id)
    if (engine === null) return
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

  /**
   * Changes one parameter of the running simulation (`Engine.set_param`) and, taken, of the
   * worker's document, which Reset rebuilds, so a live change survives it.
   */
  private set(req: RequestOf<'set'>, path: string, valueJson: string): void {
    const engine = this.engineFor(req.id)
    if (engine === null) return
    const result = this.document.set(engine, path, valueJson)
    if ('error' in result) {
      const errors = [result.error]
      this.reply(req, { type: 'rejected', message: 'the engine refused this change', errors })
    } else this.reply(req, { type: 'param', applied: result.applied, nowMs: engine.now_ms() })
  }

  /** The engine, or null when there is none (request `id` failed then). */
  private engineFor(id: number): EngineHandle | null {
    if (this.engine === null) this.fail(id, 'no scenario loaded')
    return this.engine
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
    this.document.built(null)
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
