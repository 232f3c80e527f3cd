/** Messages between the sweep pool (page) and a sweep worker: one run at a time per worker. */
import type { ScenarioError } from '../engine/protocol'
import type { SweepSummary } from './metrics'
import type { Override } from './paths'

export type SweepRequest = {
  type: 'run'
  job: number
  /** The page's scenario; the worker applies `overrides` to it (`--set` grammar) and checks the result. */
  scenarioJson: string
  overrides: readonly Override[]
  /** Summary window in ms; null for the whole run. */
  window: readonly [number, number] | null
}

export type SweepReply =
  | { type: 'progress'; job: number; nowMs: number; untilMs: number }
  | { type: 'done'; job: number; summary: SweepSummary; events: number }
  | { type: 'failed'; job: number; message: string; errors: ScenarioError[] }
