/**
 * The document the engine worker runs: the scenario as it was loaded or swapped in, with every
 * change the engine accepted made to it by the same functions the page makes it with
 * (lab/operation.ts for an operation, scenario/assign.ts for a value at a path), in the same
 * order. So the page and the worker hold the same document (the page checks it by its digest),
 * and Reset rebuilds it, live changes included.
 */
import { change, type Operation, type Reach } from '../lab/operation'
import { assign } from '../scenario/assign'
import { type Json, type JsonObject, PathError } from '../scenario/paths'
import type { EngineHandle, EngineModule } from './engineModule'
import {
  documentDigest,
  parseEngineErrors,
  parseEngineWarnings,
  parseSetParamResult,
  type ScenarioError,
} from './protocol'

/** The engine's answer on a document: its warnings, or why it refused it. */
export type Verdict = { warnings: ScenarioError[] } | { errors: ScenarioError[] }

/** An operation made on the document: the result to build (reach `engine`), kept, or refused. */
export type Edited =
  | { build: JsonObject; text: string; digest: string }
  | { kept: true; warnings: ScenarioError[]; digest: string }
  | { errors: ScenarioError[] }

function pathError(error: unknown): ScenarioError {
  if (error instanceof PathError) return { path: error.path, message: error.reason }
  throw error
}

export class WorkerDocument {
  private doc: JsonObject | null = null
  /**
   * The engine's own copy of the scenario lacks a change kept without it (node positions, the
   * lecture), so a value it takes is also checked with this document.
   */
  private engineBehind = false

  constructor(private readonly mod: EngineModule) {}

  get current(): JsonObject | null {
    return this.doc
  }

  /** The engine's verdict on scenario text. */
  verdict(text: string): Verdict {
    const answer = this.mod.validate_scenario(text)
    const errors = parseEngineErrors(answer)
    return errors.length > 0 ? { errors } : { warnings: parseEngineWarnings(answer) }
  }

  /** `doc` is what a newly built engine runs (null: no run). */
  built(doc: JsonObject | null): void {
    this.doc = doc
    this.engineBehind = false
  }

  /**
   * Offers the value (JSON text) at `path` to the engine (`Engine.set_param`) and, taken, makes it
   * in the document as the page assigns it; a path the document cannot take is refused first.
   */
  set(
    engine: EngineHandle,
    path: string,
    valueJson: string,
  ): { applied: 'live' | 'restart' } | { error: ScenarioError } {
    const next = this.withValue(path, valueJson)
    if ('error' in next) return next
    const result = parseSetParamResult(engine.set_param(path, valueJson))
    if ('applied' in result) this.doc = next.scenario
    return result
  }

  /** The document with the value (JSON text) at `path`, or the problem at the path. */
  private withValue(
    path: string,
    valueJson: string,
  ): { scenario: JsonObject } | { error: ScenarioError } {
    if (this.doc === null) return { error: { path, message: 'no scenario loaded' } }
    let scenario: JsonObject
    try {
      const value = JSON.parse(valueJson) as Json
      scenario = assign(this.doc, [{ path, value }]).scenario
    } catch (error) {
      if (error instanceof SyntaxError) return { error: { path, message: 'the value is not JSON' } }
      return { error: pathError(error) }
    }
    if (this.engineBehind) {
      const [error] = parseEngineErrors(this.mod.validate_edit(JSON.stringify(scenario), path))
      if (error) return { error }
    }
    return { scenario }
  }

  /**
   * Makes `op` on the document as the page makes it: a change of what the engine runs comes back
   * to be built (`built` keeps it then); node positions are kept at once, the lecture once the
   * engine has validated the whole document.
   */
  edit(op: Operation): Edited {
    const doc = this.doc
    if (doc === null) return { errors: [{ path: '', message: 'no scenario loaded' }] }
    let reach: Reach = 'layout'
    let scenario = doc
    try {
      const outcome = change(doc, op)
      if (outcome !== null && 'refused' in outcome)
        return { errors: [{ path: '', message: outcome.refused }] }
      if (outcome !== null) ({ scenario, reach } = outcome)
    } catch (error) {
      return { errors: [pathError(error)] }
    }
    const text = JSON.stringify(scenario)
    const digest = documentDigest(text)
    if (reach === 'engine') return { build: scenario, text, digest }
    // Node positions are not validated, as the page does not validate them; the lecture is.
    const verdict: Verdict = reach === 'lecture' ? this.verdict(text) : { warnings: [] }
    if ('errors' in verdict) return verdict
    this.engineBehind ||= scenario !== doc
    this.doc = scenario
    return { kept: true, warnings: verdict.warnings, digest }
  }

  /** Keeps a document that differs only in what the engine does not run, once validated. */
  keep(text: string): Verdict {
    const verdict = this.verdict(text)
    if ('errors' in verdict) return verdict
    this.doc = JSON.parse(text) as JsonObject
    this.engineBehind = true
    return verdict
  }
}
