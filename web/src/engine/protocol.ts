/**
 * Messages between the page (EngineClient) and the engine worker (worker.ts → EngineHost).
 *
 * Requests carry an `id`; the worker answers each with exactly one reply with the same `id`, in
 * order. Events (samples, status, fatal) carry no `id` and may arrive at any time while running.
 */

/** One validation problem, as the engine reports it: "vcs.vc2.rif: 0.3 is not a power of two ...". */
export type { ScenarioError } from './generated/engine-types'

import type { Operation } from '../lab/operation'
import type { ScenarioError } from './generated/engine-types'

/** Simulated milliseconds per wall-clock second; `null` runs as fast as the engine goes. */
export type Speed = number | null

// ---- page → worker -------------------------------------------------------------------------

export type ClientRequest =
  /** Validate and build a scenario (JSON text), replacing any current one. Replies `loaded` or `rejected`. */
  | { type: 'load'; id: number; scenarioJson: string }
  /**
   * Validate a scenario whole and, when it is valid, build it in place of the current run (a
   * change of the network, a file opened). Replies `loaded`, or `rejected` with the current run
   * untouched and still going.
   */
  | { type: 'swap'; id: number; scenarioJson: string }
  /**
   * An edit as the page dispatched it (lab/operation.ts; any but `replace`): the worker makes it
   * on the document it runs with the function the page uses, validates the result whole and,
   * valid, keeps it — built in place of the run when it changes what the engine runs, the run
   * untouched when it does not (node positions, the lecture). Replies `edited`, or `rejected` with
   * nothing changed.
   */
  | { type: 'edit'; id: number; op: Operation }
  /**
   * A document that differs from the worker's only in what the engine does not run (the undo of
   * a node move or of a lecture edit): validated whole and, valid, kept as the worker's document,
   * the run untouched. Replies `kept` or `rejected`.
   */
  | { type: 'keep'; id: number; scenarioJson: string }
  /**
   * Start or resume stepping the engine. Replies `ok`; then `samples` events stream in. With
   * `pauseAtMs`, the run pauses exactly at that simulated time (a lecture's stop), if not before.
   */
  | { type: 'play'; id: number; pauseAtMs?: number }
  /** Stop stepping after the current time slice. Replies `ok`. */
  | { type: 'pause'; id: number }
  /** Rebuild the current scenario from time zero. Replies `loaded`. */
  | { type: 'reset'; id: number }
  /** Change the pacing, also while running. Replies `ok`. */
  | { type: 'speed'; id: number; speed: Speed }
  /**
   * Ask for up to `maxCells` cells in flight with every `samples` event (0: none), for the
   * animation, and with `port` (a port index) every cell of that port, on its wire and in its
   * queue, for the magnifier. Replies `ok`.
   */
  | { type: 'animate'; id: number; maxCells: number; port?: number }
  /**
   * Advance by `ms` of simulated time (or to the end of the run) and stop there, paused. Replies
   * `ok`; the samples and the status follow as events.
   */
  | { type: 'step'; id: number; ms: number }
  /**
   * Change one parameter by dotted path (`vcs.vc1.rif`), the value as JSON text, with
   * `Engine.set_param`. Replies `param` (applied live, or valid but needing a restart) or
   * `rejected` (the value or path is not acceptable; nothing changed).
   */
  | { type: 'set'; id: number; path: string; valueJson: string }
  /**
   * A `samples` buffer the page has read, given back (transferred) for the worker to post rows
   * in again. No reply.
   */
  | { type: 'recycle'; id: number; buffer: ArrayBuffer }

export type ClientRequestType = ClientRequest['type']

// ---- worker → page: replies ------------------------------------------------------------------

/** The scenario was built; `warnings` are suspicious-but-legal settings the engine noticed. */
export type LoadedReply = {
  type: 'loaded'
  id: number
  layoutJson: string
  warnings: ScenarioError[]
}
/** The document was kept; `warnings` are suspicious-but-legal settings the engine noticed. */
export type KeptReply = { type: 'kept'; id: number; warnings: ScenarioError[] }
/**
 * An `edit` was accepted: `layoutJson` is the run built in place of the old one, or null when the
 * run goes on; `digest` is `documentDigest` of the worker's document after it, for the page to
 * check that its own document is the same.
 */
export type EditedReply = {
  type: 'edited'
  id: number
  layoutJson: string | null
  warnings: ScenarioError[]
  digest: string
}
/** The request was carried out. */
export type OkReply = { type: 'ok'; id: number }
/**
 * A `set` was accepted: `live` when the running simulation took it, `restart` when the model
 * cannot change it mid-run and the scenario has to be rebuilt; `nowMs` the simulated time it
 * took effect.
 */
export type ParamReply = { type: 'param'; id: number; applied: 'live' | 'restart'; nowMs: number }
/** The engine refused the scenario or the change; `errors` names each offending path. */
export type RejectedReply = {
  type: 'rejected'
  id: number
  message: string
  errors: ScenarioError[]
}
/**
 * The request could not be carried out (no scenario loaded, engine crashed, ...): the client
 * rejects the call with an EngineCallError, so no call's reply type includes it.
 */
export type FailedReply = { type: 'failed'; id: number; message: string }

/** Each request's reply, by request type: what a call resolves with, known at compile time. */
export interface ReplyOf {
  load: LoadedReply | RejectedReply
  swap: LoadedReply | RejectedReply
  edit: EditedReply | RejectedReply
  keep: KeptReply | RejectedReply
  reset: LoadedReply | RejectedReply
  play: OkReply
  pause: OkReply
  speed: OkReply
  animate: OkReply
  step: OkReply
  set: ParamReply | RejectedReply
}

/** A request that is answered (every one but `recycle`). */
export type CallType = keyof ReplyOf
/** The request of one type. */
export type RequestOf<K extends CallType> = Extract<ClientRequest, { type: K }>

export type WorkerReply = ReplyOf[CallType] | FailedReply

// ---- worker → page: events -------------------------------------------------------------------

export type RunStatus = 'idle' | 'paused' | 'running' | 'finished'

export type WorkerEvent =
  /**
   * Sample rows completed since the last message: flat, row-major, `layout.columns.length` values
   * per row; and the live frame `[now_ms, acr of each VC..., queue of each port...]`.
   * `cells`, when the page asked for them (`animate`), holds the cells on the links now: rows of 7
   * `[port index, progress 0..1, kind (0 data, 1 FRM, 2 BRM, 3 background, 7 connection set-up,
   * 8 connect), VC or background index, ER Mbit/s, CI, CCR Mbit/s]` (Engine.cells_in_flight; a
   * set-up or connect is at progress 0 while a switch processes it, and its ER is the rate offered
   * so far). `portCells`, when `animate` named a port: the same rows for all of that port's cells,
   * those waiting in its queue with progress -(k + 1), k = 0 next to be sent (Engine.port_cells).
   * All buffers are transferred.
   */
  | {
      type: 'samples'
      rows: Float64Array
      frame: Float64Array
      cells?: Float64Array
      portCells?: Float64Array
      nowMs: number
      events: number
    }
  | { type: 'status'; status: RunStatus; nowMs: number; events: number }
  /** The engine crashed (a Rust panic or a trap). The worker is poisoned: terminate it. */
  | { type: 'fatal'; message: string }

export type WorkerMessage = WorkerReply | WorkerEvent

/** How the worker side hands a message to the page, with the buffers it transfers. */
export type Post = (msg: WorkerMessage, transfer: Transferable[]) => void

const replyTypes: ReadonlySet<string> = new Set([
  'loaded',
  'kept',
  'edited',
  'ok',
  'param',
  'rejected',
  'failed',
])
const eventTypes: ReadonlySet<string> = new Set(['samples', 'status', 'fatal'])

/** The operations an `edit` carries: every one but another scenario, which goes whole (`swap`). */
const EDIT_OPS: ReadonlySet<string> = new Set([
  'set',
  'assign',
  'moveNode',
  'addNode',
  'addLink',
  'addVc',
  'remove',
  'addStop',
  'editStop',
  'removeStop',
  'variant',
] satisfies Exclude<Operation['op'], 'replace'>[])

/** True for a reply to a numbered request. */
export function isWorkerReply(msg: unknown): msg is WorkerReply {
  return (
    typeof msg === 'object' &&
    msg !== null &&
    replyTypes.has((msg as { type?: unknown }).type as string) &&
    typeof (msg as { id?: unknown }).id === 'number'
  )
}

/** True for an unsolicited worker event. */
export function isWorkerEvent(msg: unknown): msg is WorkerEvent {
  return (
    typeof msg === 'object' &&
    msg !== null &&
    eventTypes.has((msg as { type?: unknown }).type as string)
  )
}

/** True for a request the worker understands. */
export function isClientRequest(msg: unknown): msg is ClientRequest {
  if (typeof msg !== 'object' || msg === null) return false
  const m = msg as Record<string, unknown>
  if (typeof m.id !== 'number') return false
  switch (m.type) {
    case 'load':
    case 'swap':
    case 'keep':
      return typeof m.scenarioJson === 'string'
    case 'edit':
      return (
        typeof m.op === 'object' &&
        m.op !== null &&
        EDIT_OPS.has((m.op as { op?: unknown }).op as string)
      )
    case 'play':
      return (
        m.pauseAtMs === undefined ||
        (typeof m.pauseAtMs === 'number' && Number.isFinite(m.pauseAtMs) && m.pauseAtMs >= 0)
      )
    case 'pause':
    case 'reset':
      return true
    case 'speed':
      return m.speed === null || (typeof m.speed === 'number' && m.speed > 0)
    case 'animate':
      return (
        typeof m.maxCells === 'number' &&
        Number.isFinite(m.maxCells) &&
        m.maxCells >= 0 &&
        (m.port === undefined ||
          (typeof m.port === 'number' && Number.isInteger(m.port) && m.port >= 0))
      )
    case 'step':
      return typeof m.ms === 'number' && Number.isFinite(m.ms) && m.ms > 0
    case 'set':
      return typeof m.path === 'string' && typeof m.valueJson === 'string'
    case 'recycle':
      return m.buffer instanceof ArrayBuffer
    default:
      return false
  }
}

/**
 * Reads the engine's error text (`{"ok":false,"errors":[{path,message}]}`, the same text
 * `validate_scenario` returns and `new Engine` throws). Text that is not in that form becomes a
 * single error without a path, so nothing the engine says is lost.
 */
export function parseEngineErrors(text: string): ScenarioError[] {
  try {
    const value = JSON.parse(text) as { ok?: unknown; errors?: unknown }
    if (value && value.ok === true) return []
    if (value && Array.isArray(value.errors)) {
      return value.errors.map((e: unknown) => {
        const err = e as { path?: unknown; message?: unknown }
        return {
          path: typeof err.path === 'string' ? err.path : '',
          message: typeof err.message === 'string' ? err.message : JSON.stringify(e),
        }
      })
    }
  } catch {
    // Not JSON: fall through and keep the text as it is.
  }
  return [{ path: '', message: text }]
}

/** The warnings of an accepted scenario (`{"ok":true,"warnings":[{path,message}]}`); none when absent. */
export function parseEngineWarnings(text: string): ScenarioError[] {
  try {
    const value = JSON.parse(text) as { ok?: unknown; warnings?: unknown }
    if (value && value.ok === true && Array.isArray(value.warnings)) {
      return value.warnings.map((w: unknown) => {
        const warning = w as { path?: unknown; message?: unknown }
        return {
          path: typeof warning.path === 'string' ? warning.path : '',
          message: typeof warning.message === 'string' ? warning.message : JSON.stringify(w),
        }
      })
    }
  } catch {
    // Not JSON: no warnings to read.
  }
  return []
}

/**
 * Reads `Engine.set_param`'s answer: `{"applied":"live"|"restart"}` or
 * `{"error":{"path","message"}}`. Anything else becomes an error, so nothing is lost.
 */
export function parseSetParamResult(
  text: string,
): { applied: 'live' | 'restart' } | { error: ScenarioError } {
  try {
    const value = JSON.parse(text) as {
      applied?: unknown
      error?: { path?: unknown; message?: unknown }
    }
    if (value.applied === 'live' || value.applied === 'restart') return { applied: value.applied }
    if (value.error && typeof value.error === 'object') {
      return {
        error: {
          path: typeof value.error.path === 'string' ? value.error.path : '',
          message:
            typeof value.error.message === 'string'
              ? value.error.message
              : JSON.stringify(value.error),
        },
      }
    }
  } catch {
    // Not JSON: reported below as it is.
  }
  return { error: { path: '', message: `unexpected answer from set_param: ${text}` } }
}

/** "vcs.vc2.rif: 0.3 is not a power of two" — one line per error, path first when there is one. */
export function formatScenarioError(error: ScenarioError): string {
  return error.path ? `${error.path}: ${error.message}` : error.message
}

/**
 * A short fingerprint of a document's JSON text (its length and a 32-bit FNV-1a hash of its UTF-16
 * code units): what the worker says its document is after an edit, for the page to compare.
 */
export function documentDigest(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return `${text.length}:${(hash >>> 0).toString(16)}`
}
