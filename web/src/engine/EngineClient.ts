/**
 * The page's typed handle on the engine worker.
 *
 * Calls go through a serial queue: a request is posted only after the previous one has been
 * answered, so `load` → `play` → `pause` → `reset` happen in the order the user asked for them.
 * A queued call can be cancelled with an AbortSignal until it is posted. When the worker crashes
 * (a `fatal` event or an `error` on the worker) every pending call is rejected, the worker is
 * terminated, and the next call starts a fresh one; `reset` then rebuilds the last scenario that
 * loaded (a crashed worker is terminated and a fresh one started).
 */
import {
  type CallType,
  documentDigest,
  type LoadedReply,
  type RejectedReply,
  type ReplyOf,
  type RequestOf,
  type ScenarioError,
  type Speed,
  type WorkerEvent,
  type WorkerReply,
  isWorkerEvent,
  isWorkerReply,
} from './protocol'
import type { Operation } from '../lab/operation'

/** What the client needs from a Worker; tests pass a stand-in transport. */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void
  terminate(): void
  onmessage: ((event: MessageEvent<unknown>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
}

export type LoadResult =
  | { ok: true; layoutJson: string; warnings: ScenarioError[] }
  | { ok: false; message: string; errors: ScenarioError[] }

/** The engine's verdict on a document given to the worker to keep, the run untouched. */
export type KeepResult =
  | { ok: true; warnings: ScenarioError[] }
  | { ok: false; message: string; errors: ScenarioError[] }

/**
 * What became of an operation: the run built in place of the old one (`layoutJson`), or the run
 * untouched (null); refused; or `diverged`, the worker's document not the page's after it.
 */
export type EditResult =
  | { ok: true; layoutJson: string | null; warnings: ScenarioError[] }
  | { ok: false; message: string; errors: ScenarioError[]; diverged?: true }

/** Why an operation's result is refused when the worker's document differs from the page's. */
export const DIVERGED =
  "the engine's copy of the scenario differs from the page's after this change"

/** What became of a parameter change. */
export type SetParamResult =
  | { ok: true; applied: 'live' | 'restart'; nowMs: number }
  | { ok: false; errors: ScenarioError[] }

/** A request the worker could not carry out, or one cut short by a crash. */
export class EngineCallError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'EngineCallError'
  }
}

/** Why `reset` failed when no scenario has loaded yet (nothing to say to the user). */
export const NO_SCENARIO = 'no scenario to reset to'

type EventListener = (event: WorkerEvent) => void

interface Pending {
  /** Takes the reply the worker sent for the request with this id (its type: ReplyOf). */
  resolve: (reply: WorkerReply) => void
  reject: (error: Error) => void
}

/** A request before the client numbers it. */
type Body<K extends CallType> = Omit<RequestOf<K>, 'id'>

function loadResult(reply: LoadedReply | RejectedReply): LoadResult {
  return reply.type === 'loaded'
    ? { ok: true, layoutJson: reply.layoutJson, warnings: reply.warnings }
    : { ok: false, message: reply.message, errors: reply.errors }
}

function abortError(): Error {
  return new DOMException('the engine call was aborted before it was sent', 'AbortError')
}

export class EngineClient {
  private worker: WorkerLike | null = null
  private nextId = 1
  private pending = new Map<number, Pending>()
  /** Tail of the serial queue: resolves when the last queued call has been answered. */
  private tail: Promise<unknown> = Promise.resolve()
  private listeners = new Set<EventListener>()
  private crashed = false
  private lastGoodScenario: string | null = null

  constructor(private readonly createWorker: () => WorkerLike) {}

  /** Subscribes to samples, status and fatal events; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Validates and builds a scenario in the worker. */
  async load(scenarioJson: string, signal?: AbortSignal): Promise<LoadResult> {
    const reply = await this.call({ type: 'load', scenarioJson }, signal)
    if (reply.type === 'loaded') this.lastGoodScenario = scenarioJson
    return loadResult(reply)
  }

  /**
   * Validates a scenario whole and, when valid, builds it in place of the current run; refused,
   * the current run goes on as it was.
   */
  async swap(scenarioJson: string, signal?: AbortSignal): Promise<LoadResult> {
    const reply = await this.call({ type: 'swap', scenarioJson }, signal)
    if (reply.type === 'loaded') this.lastGoodScenario = scenarioJson
    return loadResult(reply)
  }

  /**
   * Has the worker keep a document that differs from its own only in what the engine does not
   * run (node positions, the lecture), validated whole; the run is not touched.
   */
  async keep(scenarioJson: string, signal?: AbortSignal): Promise<KeepResult> {
    const reply = await this.call({ type: 'keep', scenarioJson }, signal)
    return reply.type === 'kept'
      ? { ok: true, warnings: reply.warnings }
      : { ok: false, message: reply.message, errors: reply.errors }
  }

  /**
   * Sends an operation as it is, for the worker to make on the document it runs and the engine
   * to validate. `expected` is the page's document after it (JSON text, not sent): the worker's
   * must be the same, or the result is refused as `diverged`.
   */
  async edit(op: Operation, expected: string, signal?: AbortSignal): Promise<EditResult> {
    const reply = await this.call({ type: 'edit', op }, signal)
    if (reply.type === 'rejected')
      return { ok: false, message: reply.message, errors: reply.errors }
    if (reply.digest !== documentDigest(expected))
      return {
        ok: false,
        message: DIVERGED,
        errors: [{ path: '', message: DIVERGED }],
        diverged: true,
      }
    this.lastGoodScenario = expected
    return { ok: true, layoutJson: reply.layoutJson, warnings: reply.warnings }
  }

  /** Plays on; with `pauseAtMs`, pauses exactly at that simulated time. */
  async play(signal?: AbortSignal, pauseAtMs?: number): Promise<void> {
    await this.call(
      pauseAtMs === undefined ? { type: 'play' } : { type: 'play', pauseAtMs },
      signal,
    )
  }

  async pause(signal?: AbortSignal): Promise<void> {
    await this.call({ type: 'pause' }, signal)
  }

  async setSpeed(speed: Speed, signal?: AbortSignal): Promise<void> {
    await this.call({ type: 'speed', speed }, signal)
  }

  /** Asks for up to `maxCells` cells in flight with every samples event (0: none). */
  async animate(maxCells: number, port: number | null = null, signal?: AbortSignal): Promise<void> {
    await this.call(
      port === null ? { type: 'animate', maxCells } : { type: 'animate', maxCells, port },
      signal,
    )
  }

  /** Advances `ms` of simulated time and stops there, paused. */
  async step(ms: number, signal?: AbortSignal): Promise<void> {
    await this.call({ type: 'step', ms }, signal)
  }

  /** Changes one parameter by dotted path; the value is JSON text (`"0.0625"`, `"true"`). */
  async setParam(path: string, valueJson: string, signal?: AbortSignal): Promise<SetParamResult> {
    const reply = await this.call({ type: 'set', path, valueJson }, signal)
    return reply.type === 'param'
      ? { ok: true, applied: reply.applied, nowMs: reply.nowMs }
      : { ok: false, errors: reply.errors }
  }

  /** Restarts the current scenario from time zero; after a crash, rebuilds the last good one. */
  async reset(signal?: AbortSignal): Promise<LoadResult> {
    if (this.crashed || this.worker === null) {
      if (this.lastGoodScenario === null) throw new EngineCallError(NO_SCENARIO)
      return this.load(this.lastGoodScenario, signal)
    }
    return loadResult(await this.call({ type: 'reset' }, signal))
  }

  /** Terminates the worker and rejects whatever is still pending. */
  dispose(): void {
    this.failAll(new EngineCallError('the engine client was disposed'))
    this.worker?.terminate()
    this.worker = null
    this.listeners.clear()
  }

  /**
   * Gives a `samples` event's rows back to the worker once read (transferred: the array is
   * unusable afterwards), for it to post rows in again instead of a new buffer each time.
   */
  recycle(rows: Float64Array): void {
    const buffer = rows.buffer
    if (this.worker === null || !(buffer instanceof ArrayBuffer) || buffer.byteLength === 0) return
    this.worker.postMessage({ type: 'recycle', id: 0, buffer }, [buffer])
  }

  /**
   * Queues one request; resolves with its reply (`ReplyOf` its type) once every earlier call has
   * been answered, and rejects with an EngineCallError when the worker could not carry it out.
   */
  call<K extends CallType>(body: Body<K> & { type: K }, signal?: AbortSignal): Promise<ReplyOf[K]> {
    const run = async (): Promise<ReplyOf[K]> => {
      if (signal?.aborted) throw abortError()
      const worker = this.ensureWorker()
      const id = this.nextId++
      // The worker answers request `id` with `ReplyOf[K]` (engineHost.ts `reply`) or `failed`.
      const reply = new Promise<ReplyOf[K]>((resolve, reject) =>
        this.pending.set(id, { resolve: resolve as (reply: WorkerReply) => void, reject }),
      )
      worker.postMessage({ ...body, id })
      return reply
    }
    const result = this.tail.then(run, run)
    // The queue moves on whether this call succeeded or not.
    this.tail = result.catch(() => undefined)
    return result
  }

  private ensureWorker(): WorkerLike {
    if (this.worker !== null) return this.worker
    const worker = this.createWorker()
    worker.onmessage = (event) => this.receive(event.data)
    worker.onerror = (event) => {
      event.preventDefault?.()
      this.crash(`the engine worker failed: ${event.message || 'unknown error'}`)
    }
    this.worker = worker
    this.crashed = false
    return worker
  }

  private receive(data: unknown): void {
    if (isWorkerReply(data)) {
      const pending = this.pending.get(data.id)
      if (pending === undefined) return
      this.pending.delete(data.id)
      if (data.type === 'failed') pending.reject(new EngineCallError(data.message))
      else pending.resolve(data)
      return
    }
    if (isWorkerEvent(data)) {
      if (data.type === 'fatal') {
        this.crash(data.message)
        return
      }
      this.emit(data)
    }
  }

  private crash(message: string): void {
    this.crashed = true
    this.failAll(new EngineCallError(message))
    this.worker?.terminate()
    this.worker = null
    this.emit({ type: 'fatal', message })
  }

  private failAll(error: Error): void {
    const pending = [...this.pending.values()]
    this.pending.clear()
    for (const p of pending) p.reject(error)
  }

  private emit(event: WorkerEvent): void {
    for (const listener of this.listeners) listener(event)
  }
}

/** Creates the real module worker (bundled by Vite from worker.ts). */
export function createEngineWorker(): WorkerLike {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'abr-engine' })
}
