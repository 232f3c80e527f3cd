/** Messages between the sweep pool (page) and a sweep worker: one run at a time per worker. */
import type { ScenarioError } from '../engine/protocol'
import type { SweepSummary } from './metrics'

export type SweepRequest = {
  type: 'run'
  job: number
  scenarioJson: string
  /** Summary window in ms; null for the whole run. */
  window: readonly [number, number] | null
}

export type SweepReply =
  | { type: 'progress'; job: number; nowMs: number; untilMs: number }
  | { type: 'done'; job: number; summary: SweepSummary; events: number }
  | { type: 'failed'; job: number; message: string; errors: ScenarioError[] }
