/**
 * What the engine knows about scenarios: its parameter registry (every knob's label, unit, range,
 * step kind and whether it can change mid-run), its validation, and the choices it accepts for
 * algorithms, queue disciplines, traffic models and start-up options. The editor, the parameter
 * panel and the scenario loader all ask here, so no range or choice is written twice.
 *
 * The worker runs the simulation and validates every edit of the open scenario (lab/carry.ts); on
 * the page's thread this is a second, idle instance of the same wasm module that answers registry
 * questions only (help, ranges, defaults, choices). Its `validate` serves the scenario check
 * worker, which reads a file or a link before it opens (scenario/check.ts).
 */
import { parseEngineErrors, parseEngineWarnings, type ScenarioError } from '../engine/protocol'

/** One entry of `param_registry()`: generated from the registry's Rust struct. */
export type { Kind as ParamKind, ParamSpec } from '../engine/generated/engine-types'

import type { ParamSpec } from '../engine/generated/engine-types'

/** The enumerated choices a scenario may make, as the engine states them. */
export interface Choices {
  algorithms: string[]
  queues: string[]
  traffic: string[]
  startup: string[]
  /** The traffic-scope keys each traffic model reads, by model. */
  trafficKeys: Record<string, string[]>
}

export type Validation =
  | { ok: true; warnings: ScenarioError[] }
  | { ok: false; errors: ScenarioError[] }

/** The free functions of the generated bindings this module uses. */
export interface EngineInfoModule {
  param_registry(): string
  scenario_choices(): string
  validate_scenario(json: string): string
  /** The engine's limits as JSON. */
  scenario_limits(): string
}

export interface EngineInfo {
  registry: readonly ParamSpec[]
  choices: Choices
  /** The registry entries of one scope, in registry order. */
  params(scope: string): ParamSpec[]
  /** One entry, or undefined. */
  param(scope: string, key: string): ParamSpec | undefined
  /**
   * The engine's verdict on scenario text, for reading a file or a link before it opens. An edit
   * of the open scenario is never validated here: the engine worker does that, once (lab/carry.ts).
   */
  validate(json: string): Validation
  /** The engine's `limits.max_input_bytes`: longer scenario text is refused before it is parsed. */
  maxInputBytes: number
}

/**
 * The engine's default `limits.max_input_bytes` (scenario/mod.rs), used only where the engine has
 * not said; the page reads the figure from the engine (`scenario_limits`).
 */
export const DEFAULT_MAX_INPUT_BYTES = 4_000_000

/**
 * Refuses scenario text longer than `maxBytes` (UTF-8) before anything parses it, with a message
 * naming the limit; null when it fits. Counting is cheap: the UTF-8 length is measured only when
 * the text's length in characters does not already decide.
 */
export function inputTooLarge(text: string, maxBytes: number): ScenarioError | null {
  let bytes: number | null = null
  if (text.length > maxBytes) bytes = text.length
  else if (text.length * 3 > maxBytes) {
    const n = new TextEncoder().encode(text).length
    if (n > maxBytes) bytes = n
  }
  if (bytes === null) return null
  return {
    path: '',
    message: `the scenario text is ${text.length > maxBytes ? 'at least ' : ''}${bytes.toLocaleString('en')} bytes, more than the limit of ${maxBytes.toLocaleString('en')} (limits.max_input_bytes); a scenario is a few kB`,
  }
}

/** Scopes of the registry that are not a switch algorithm's knobs. */
const NON_ALGORITHM_SCOPES = new Set(['vc', 'traffic', 'background', 'port', 'link', 'run'])

/** True for a registry scope that holds an algorithm's knobs (the scope is the algorithm's kind). */
export function isAlgorithmScope(scope: string): boolean {
  return !NON_ALGORITHM_SCOPES.has(scope)
}

/** The engine's answer to `scenario_choices()`. */
interface EngineChoices {
  algorithms: string[]
  queues: string[]
  traffic: string[]
  traffic_keys: Record<string, string[]>
  startup: string[]
}

/** Reads the engine's lists of accepted choices (`choices_json` in cell/scenario/read.rs). */
export function readChoices(json: string): Choices {
  const c = JSON.parse(json) as EngineChoices
  const choices = {
    algorithms: c.algorithms,
    queues: c.queues,
    traffic: c.traffic,
    startup: c.startup,
  }
  for (const [name, list] of Object.entries(choices)) {
    if (!Array.isArray(list) || list.length === 0)
      throw new Error(`the engine did not say which ${name} it accepts`)
  }
  return { ...choices, trafficKeys: c.traffic_keys }
}

function verdict(text: string): Validation {
  const errors = parseEngineErrors(text)
  return errors.length > 0
    ? { ok: false, errors }
    : { ok: true, warnings: parseEngineWarnings(text) }
}

export function createEngineInfo(mod: EngineInfoModule): EngineInfo {
  const registry = JSON.parse(mod.param_registry()) as ParamSpec[]
  const choices = readChoices(mod.scenario_choices())
  const limits = JSON.parse(mod.scenario_limits()) as { max_input_bytes?: number }
  return {
    registry,
    choices,
    maxInputBytes: limits.max_input_bytes ?? DEFAULT_MAX_INPUT_BYTES,
    params: (scope) => registry.filter((p) => p.scope === scope),
    param: (scope, key) => registry.find((p) => p.scope === scope && p.key === key),
    validate: (json) => verdict(mod.validate_scenario(json)),
  }
}

let loading: Promise<EngineInfo> | null = null

/** Loads the wasm module on the page's thread once and answers from it. */
export function loadEngineInfo(): Promise<EngineInfo> {
  loading ??= import('../engine/pkg/sim_wasm.js').then(async (mod) => {
    await mod.default()
    return createEngineInfo(mod)
  })
  return loading
}
