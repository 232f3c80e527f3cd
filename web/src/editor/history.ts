/**
 * Undo and redo by inverse steps. A parameter change keeps the assignments that undo it (its old
 * values, or the removal of what it created); a structural change (a node, link or VC added or
 * removed, a stop, another scenario) keeps the document it replaced, which holds what it removed.
 * Undoing a step records the step that redoes it. A run of changes to the same thing in quick
 * succession (a slider being dragged, a node being nudged with the arrow keys) is one step.
 */
import type { PinnedRun } from '../charts/chartContext'
import type { Reach } from '../lab/operation'
import { type Assignment, assign } from '../scenario/assign'
import type { JsonObject } from '../scenario/paths'
import type { Origin } from '../scenario/restore'

/**
 * Besides the document, what a change that replaced the whole run (change & run again, a sweep
 * cell, a library file, a loaded file) replaced: where the document came from, how far its run
 * had got and the run pinned beside it. Undo rebuilds that run to the same time (the engine is
 * deterministic) and pins the same run again.
 */
export interface RunState {
  origin: Origin | null
  nowMs: number
  pinned: PinnedRun | null
}

/** What takes the document to the other side of a change, and how far that reaches. */
export type Step =
  | { kind: 'assign'; sets: readonly Assignment[]; reach: Reach }
  | { kind: 'document'; scenario: JsonObject; reach: Reach }

export interface HistoryEntry {
  /** Undoes the change (in `past`) or redoes it (in `future`). */
  step: Step
  label: string
  /** Set on steps that replaced the run: the run to restore with the document. */
  run?: RunState
}

export interface History {
  past: readonly HistoryEntry[]
  future: readonly HistoryEntry[]
  /** The key and time of the last recorded change, to merge a quick run of the same change. */
  lastKey: string | null
  lastAt: number
}

/** Changes with the same key closer together than this are one undo step. */
export const MERGE_WINDOW_MS = 1000
/** Steps kept. */
export const HISTORY_LIMIT = 200

export const emptyHistory: History = { past: [], future: [], lastKey: null, lastAt: 0 }

/** Records a change called `label`, undone by `back`. */
export function record(
  history: History,
  back: Step,
  label: string,
  key: string | null,
  now: number,
  run?: RunState,
): History {
  if (
    run === undefined &&
    key !== null &&
    key === history.lastKey &&
    now - history.lastAt < MERGE_WINDOW_MS &&
    history.past.length > 0
  ) {
    // The first step of the run already goes back to where it started.
    return { ...history, future: [], lastAt: now }
  }
  const past = [...history.past, { step: back, label, run }].slice(-HISTORY_LIMIT)
  return { past, future: [], lastKey: key, lastAt: now }
}

/** Where undo or redo leads: the document, the step taken, the run to restore (if any), the history after. */
export interface Travel {
  scenario: JsonObject
  /** The step that led there (what the engine must take), and the one that comes back. */
  step: Step
  back: Step
  label: string
  run?: RunState
  history: History
}

/** Takes `step` on `current`: the document it leads to, and the step that comes back. */
function take(step: Step, current: JsonObject): { scenario: JsonObject; back: Step } {
  if (step.kind === 'document')
    return { scenario: step.scenario, back: { ...step, scenario: current } }
  const { scenario, inverse } = assign(current, step.sets)
  return { scenario, back: { ...step, sets: inverse } }
}

function travel(
  entry: HistoryEntry,
  current: JsonObject,
  currentRun: RunState | undefined,
  history: Pick<History, 'past' | 'future'>,
  toFuture: boolean,
): Travel {
  const { scenario, back } = take(entry.step, current)
  const other: HistoryEntry = {
    step: back,
    label: entry.label,
    run: entry.run ? currentRun : undefined,
  }
  return {
    scenario,
    step: entry.step,
    back,
    label: entry.label,
    run: entry.run,
    history: {
      past: toFuture ? history.past : [...history.past, other],
      future: toFuture ? [...history.future, other] : history.future,
      lastKey: null,
      lastAt: 0,
    },
  }
}

/** Steps back, or null with nothing to undo. */
export function undo(history: History, current: JsonObject, currentRun?: RunState): Travel | null {
  const entry = history.past[history.past.length - 1]
  if (!entry) return null
  return travel(entry, current, currentRun, { ...history, past: history.past.slice(0, -1) }, true)
}

/** Steps forward again after an undo. */
export function redo(history: History, current: JsonObject, currentRun?: RunState): Travel | null {
  const entry = history.future[history.future.length - 1]
  if (!entry) return null
  return travel(
    entry,
    current,
    currentRun,
    { ...history, future: history.future.slice(0, -1) },
    false,
  )
}
