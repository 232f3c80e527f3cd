/**
 * The run: one EngineClient, the samples of the current run, the latest live frame, the pace, and
 * what to show when something goes wrong — held outside React. Components read it through
 * `useRun` (lab/hooks.ts); the Lab (lab/lab.ts) drives it.
 *
 * Samples arrive many times per second; they are appended to a SampleStore at once, but readers
 * are told about them at most once per animation frame (a `revision` counter), so charts redraw at
 * the display rate however fast the engine runs (excalidraw's throttleRAF).
 */
import {
  type EditResult,
  EngineCallError,
  type EngineClient,
  type KeepResult,
  NO_SCENARIO,
  type LoadResult,
  type SetParamResult,
} from '../engine/EngineClient'
import { parseFrame, type LiveFrame } from '../engine/frame'
import { parseLayout, type Layout } from '../engine/layout'
import type { RunStatus, ScenarioError, Speed, WorkerEvent } from '../engine/protocol'
import { rowsOfRun, SampleStore } from '../engine/samples'
import { Emitter } from './emitter'
import type { Operation } from './operation'

/** The engine's latest snapshot of cells on the links, for the animation. */
export interface LiveCells {
  /** Rows of 7, see `protocol.ts` (`samples.cells`). */
  rows: Float64Array
  /** Simulated time of the snapshot, ms. */
  nowMs: number
  /** `performance.now()` when it arrived. */
  wallMs: number
  /** Every cell of the magnified port, rows of 7 (`samples.portCells`), or null. */
  port: Float64Array | null
}

/** Something the page cannot run past, shown as readable text. */
export interface PageError {
  title: string
  message: string
  errors: ScenarioError[]
  /** Offer a way back to the default scenario (the one asked for cannot be opened). */
  offerDefault?: boolean
}

/** What the run looks like now: a new object whenever any of it changes. */
export interface RunView {
  layout: Layout | null
  store: SampleStore | null
  frame: LiveFrame | null
  status: RunStatus
  nowMs: number
  events: number
  speed: Speed
  error: PageError | null
  /** Suspicious-but-legal settings the engine noticed in the scenario. */
  warnings: ScenarioError[]
  /** Bumped at most once per animation frame when new samples arrived. */
  revision: number
}

export interface LoadOptions {
  play?: boolean
  /** Where that play pauses, asked once the run is built (a lecture's next stop), if anywhere. */
  pauseAt?: () => number | undefined
}

/** The title of the error shown when the engine crashed (Reset then starts a fresh engine). */
export const ENGINE_CRASHED = 'The engine crashed'

/** Default pacing: simulated ms per wall second (the default scenario's 300 ms play in 6 s). */
export const DEFAULT_SPEED: Speed = 50

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export class Run extends Emitter<RunView> {
  private readonly client: EngineClient
  /** False while a load or reset is in flight: samples still arriving belong to the old run. */
  private accepting = false
  private raf: number | null = null
  /** The clock of the latest samples, published with the next animation frame. */
  private pendingClock: { nowMs: number; events: number } | null = null
  private animationCells = 0
  private magnified: number | null = null
  /** Counts loads; only the latest one's result is adopted. */
  private generation = 0
  /** The latest cells in flight (read by the animation each display frame, outside React). */
  readonly cells: { current: LiveCells | null } = { current: null }

  constructor(client: EngineClient) {
    super({
      layout: null,
      store: null,
      frame: null,
      status: 'idle',
      nowMs: 0,
      events: 0,
      speed: DEFAULT_SPEED,
      error: null,
      warnings: [],
      revision: 0,
    })
    this.client = client
    client.subscribe(this.onEvent)
  }

  /** Terminates the engine worker; the next load starts a fresh one. */
  dispose(): void {
    this.client.dispose()
    this.client.subscribe(this.onEvent)
    this.accepting = false
    if (this.raf !== null) cancelAnimationFrame(this.raf)
    this.raf = null
  }

  /**
   * Builds a scenario (JSON text) in the engine, replacing the current run; with `play`, runs it
   * at once. Resolves with the engine's verdict, or null when a later load superseded this one.
   */
  async load(json: string, options: LoadOptions = {}): Promise<LoadResult | null> {
    const generation = ++this.generation
    this.accepting = false
    this.update({ status: 'idle' })
    try {
      // A fresh worker (first load, or after a crash) starts with default pacing: set the user's.
      await this.client.setSpeed(this.view.speed)
      await this.client.animate(this.animationCells, this.magnified)
      const result = await this.client.load(json)
      // A newer load supersedes this one: its result is not shown.
      if (generation !== this.generation) return null
      this.adopt(result)
      if (result.ok && options.play) await this.client.play(undefined, options.pauseAt?.())
      return result
    } catch (cause) {
      if (generation === this.generation) this.fail('Could not start the engine', cause)
      return null
    }
  }

  /**
   * Builds a scenario in place of the current run only if the engine finds it valid: refused, the
   * run goes on as it was. The scenario is JSON text, or an operation the worker makes on the
   * document it runs (`expected`: the page's document after it, see `EngineClient.edit`).
   * `accepted` is called just before the new run is adopted, with the old run's samples all in
   * (to pin it). Resolves with the verdict, or null when a later load or swap superseded this one.
   */
  async swap(
    scenario: string | { op: Operation; expected: string },
    options: LoadOptions,
    accepted: () => void,
  ): Promise<EditResult | null> {
    const generation = ++this.generation
    try {
      const result: EditResult =
        typeof scenario === 'string'
          ? await this.client.swap(scenario)
          : await this.client.edit(scenario.op, scenario.expected)
      if (generation !== this.generation) return null
      if (!result.ok) {
        // The worker built a run of a document the page does not have: not adopted.
        if (result.diverged) this.accepting = false
        return result
      }
      accepted()
      const { layoutJson } = result
      if (layoutJson !== null) this.adopt({ ...result, layoutJson })
      if (options.play) await this.client.play(undefined, options.pauseAt?.())
      return result
    } catch (cause) {
      if (generation === this.generation) this.fail('Could not start the engine', cause)
      return null
    }
  }

  /**
   * An operation that changes only what the engine does not run (node positions, the lecture),
   * made on the worker's document; the run untouched.
   */
  edit(op: Operation, expected: string): Promise<EditResult> {
    return this.client.edit(op, expected)
  }

  /** A document that differs only in what the engine does not run, kept by the worker. */
  keep(json: string): Promise<KeepResult> {
    return this.client.keep(json)
  }

  /** Plays on; with `pauseAtMs`, the engine pauses exactly at that simulated time. */
  play(pauseAtMs?: number): void {
    if (!this.view.layout) return
    this.client
      .play(undefined, pauseAtMs)
      .catch((cause: unknown) => this.fail('The engine could not play', cause))
  }

  pause(): void {
    this.client.pause().catch((cause: unknown) => this.fail('The engine could not pause', cause))
  }

  /** Advances `ms` of simulated time and stops there. */
  step(ms: number): void {
    if (!this.view.layout) return
    this.client.step(ms).catch((cause: unknown) => this.fail('The engine could not step', cause))
  }

  /** Rebuilds the current scenario from time zero (after a crash, in a fresh engine). */
  reset(): void {
    this.accepting = false
    const generation = ++this.generation
    this.client
      .reset()
      .then(async (result) => {
        // A fresh worker (after a crash) starts with default pacing: restore the user's.
        await this.client.setSpeed(this.view.speed)
        await this.client.animate(this.animationCells, this.magnified)
        if (generation === this.generation) this.adopt(result)
      })
      .catch((cause: unknown) => {
        if (cause instanceof EngineCallError && cause.message === NO_SCENARIO) return
        this.fail('The engine could not reset', cause)
      })
  }

  setSpeed(speed: Speed): void {
    this.update({ speed })
    this.client
      .setSpeed(speed)
      .catch((cause: unknown) => this.fail('The engine could not change speed', cause))
  }

  /** Asks the engine for up to `max` cells in flight with every frame (0: none). */
  setAnimationCells = (max: number): void => {
    if (this.animationCells === max) return
    this.animationCells = max
    if (max === 0) this.cells.current = null
    this.client
      .animate(max, this.magnified)
      .catch((cause: unknown) =>
        this.fail('The engine could not send cells for the animation', cause),
      )
  }

  /** Asks the engine for every cell of one port (by index) with every frame (null: none). */
  setMagnified = (port: number | null): void => {
    if (this.magnified === port) return
    this.magnified = port
    if (port === null && this.cells.current)
      this.cells.current = { ...this.cells.current, port: null }
    this.client
      .animate(this.animationCells, port)
      .catch((cause: unknown) =>
        this.fail('The engine could not send cells for the magnifier', cause),
      )
  }

  /** Changes one parameter of the run by dotted path (`Engine.set_param`). */
  setParam(path: string, valueJson: string): Promise<SetParamResult> {
    return this.client.setParam(path, valueJson)
  }

  private adopt(result: LoadResult): void {
    if (!result.ok) {
      const count = result.errors.length
      this.update({
        layout: null,
        store: null,
        warnings: [],
        status: 'idle',
        error: {
          title: 'The engine rejected this scenario',
          message: `${count === 1 ? 'One problem' : `${count} problems`}, each named by its path in the scenario file:`,
          errors: result.errors,
          offerDefault: true,
        },
      })
      return
    }
    const layout = parseLayout(result.layoutJson)
    const store = new SampleStore(layout.columns, {
      expectedRows: rowsOfRun(layout.until_ms, layout.sample_interval_ms),
    })
    this.cells.current = null
    this.accepting = true
    this.pendingClock = null
    this.update({
      layout,
      store,
      frame: null,
      warnings: result.warnings,
      status: 'paused',
      nowMs: 0,
      events: 0,
      error: null,
      revision: this.view.revision + 1,
    })
  }

  private fail(title: string, cause: unknown): void {
    this.update({ status: 'idle', error: { title, message: describe(cause), errors: [] } })
  }

  private onEvent = (event: WorkerEvent): void => {
    switch (event.type) {
      case 'samples': {
        const { store, layout } = this.view
        if (!this.accepting || !store || !layout) return
        let frame: LiveFrame
        try {
          store.append(event.rows)
          // Read into the store: the buffer goes back to the worker for the next rows.
          this.client.recycle(event.rows)
          frame = parseFrame(event.frame, layout)
          if (event.cells || event.portCells) {
            this.cells.current = {
              rows: event.cells ?? new Float64Array(0),
              port: event.portCells ?? null,
              nowMs: event.nowMs,
              wallMs: performance.now(),
            }
          }
        } catch (cause) {
          this.accepting = false
          void this.client.pause().catch(() => undefined)
          this.fail('The engine sent data the page cannot read', cause)
          return
        }
        // The frame is read by the drawing with the next render, like the rows.
        this.view = { ...this.view, frame }
        // One publication per display frame however many messages arrived (with 500
        // VCs a render per message kept a parameter change's answer waiting behind them).
        this.pendingClock = { nowMs: event.nowMs, events: event.events }
        this.scheduleRender()
        return
      }
      case 'status':
        if (!this.accepting) return
        this.pendingClock = null
        this.update({ status: event.status, nowMs: event.nowMs, events: event.events })
        return
      case 'fatal':
        this.accepting = false
        this.update({
          status: 'idle',
          error: {
            title: ENGINE_CRASHED,
            message: `${event.message}. Reset (R) rebuilds the scenario in a fresh engine.`,
            errors: [],
          },
        })
        return
    }
  }

  private scheduleRender(): void {
    if (this.raf !== null) return
    this.raf = requestAnimationFrame(() => {
      this.raf = null
      const latest = this.pendingClock
      this.pendingClock = null
      this.update({ ...(latest ?? {}), revision: this.view.revision + 1 })
    })
  }
}
