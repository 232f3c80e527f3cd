/**
 * Undo and redo over whole scenario documents. Documents are small (a few kB), so each step keeps
 * the document as it was rather than an inverse operation. A run of changes to the same thing in
 * quick succession (a slider being dragged, a node being nudged with the arrow keys) is one step.
 */
import type { PinnedRun } from '../charts/models'
import type { Origin } from '../scenario/restore'
import type { JsonObject } from '../scenario/paths'

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

export interface HistoryEntry {
  /** The document before the change (in `past`) or after it (in `future`). */
  scenario: JsonObject
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

/** Records that `before` was replaced by a change called `label`. */
export function record(
  history: History,
  before: JsonObject,
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
    return { ...history, future: [], lastAt: now }
  }
  const past = [...history.past, { scenario: before, label, run }].slice(-HISTORY_LIMIT)
  return { past, future: [], lastKey: key, lastAt: now }
}

/** Steps back: the document to show and the history after it, or null with nothing to undo. */
export function undo(history: History, current: JsonObject, currentRun?: RunState): Travel | null {
  const entry = history.past[history.past.length - 1]
  if (!entry) return null
  const back = { scenario: current, label: entry.label, run: entry.run ? currentRun : undefined }
  return {
    scenario: entry.scenario,
    label: entry.label,
    run: entry.run,
    history: {
      past: history.past.slice(0, -1),
      future: [...history.future, back],
      lastKey: null,
      lastAt: 0,
    },
  }
}

/** Where undo or redo leads: the document, the run to restore with it (if any), the history after. */
export interface Travel {
  scenario: JsonObject
  label: string
  run?: RunState
  history: History
}

/** Steps forward again after an undo. */
export function redo(history: History, current: JsonObject, currentRun?: RunState): Travel | null {
  const entry = history.future[history.future.length - 1]
  if (!entry) return null
  const back = { scenario: current, label: entry.label, run: entry.run ? currentRun : undefined }
  return {
    scenario: entry.scenario,
    label: entry.label,
    run: entry.run,
    history: {
      past: [...history.past, back],
      future: history.future.slice(0, -1),
      lastKey: null,
      lastAt: 0,
    },
  }
}
