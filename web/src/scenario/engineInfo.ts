/**
 * What the engine knows about scenarios, on the page's own thread: its parameter registry (every
 * knob's label, unit, range, step kind and whether it can change mid-run), its validation, and the
 * choices it accepts for algorithms, queue disciplines, traffic models and start-up options. The
 * editor, the parameter panel and the scenario loader all ask here, so no range or choice is
 * written twice (STYLE: "One parameter registry").
 *
 * The worker runs the simulation; this is a second, idle instance of the same wasm module used
 * only for these quick synchronous questions.
 */
import { parseEngineErrors, parseEngineWarnings, type ScenarioError } from '../engine/protocol'

export type ParamKind = 'real' | 'integer' | 'pow2' | 'zero_or_pow2' | 'bool'

/** One entry of `param_registry()` (engine-wasm/crates/sim-core/src/scenario/registry.rs). */
export interface ParamSpec {
  key: string
  /** vc | traffic | background | port | link | run, or an algorithm kind for its knobs ("erica"). */
  scope: string
  label: string
  unit: string
  /** Null when the default is derived (ICR defaults to PCR) or means "absent" (no stop time). */
  default: number | null
  min: number
  max: number
  kind: ParamKind
  /** Whether `set_param` can change it in a running simulation. */
  live: boolean
  doc: string
}

/** The enumerated choices a scenario may make, as the engine states them. */
export interface Choices {
  algorithms: string[]
  queues: string[]
  traffic: string[]
  startup: string[]
  /** The traffic-scope keys each traffic model reads, by model. */
  trafficKeys: Record<string, string[]>
}

export type Validation = { ok: true; warnings: ScenarioError[] } | { ok: false; errors: ScenarioError[] }

/** The two free functions of the generated bindings this module uses. */
export interface EngineInfoModule {
  param_registry(): string
  validate_scenario(json: string): string
}

export interface EngineInfo {
  registry: readonly ParamSpec[]
  choices: Choices
  /** The registry entries of one scope, in registry order. */
  params(scope: string): ParamSpec[]
  /** One entry, or undefined. */
  param(scope: string, key: string): ParamSpec | undefined
  validate(json: string): Validation
}

/** Scopes of the registry that are not a switch algorithm's knobs. */
const NON_ALGORITHM_SCOPES = new Set(['vc', 'traffic', 'background', 'port', 'link', 'run'])

/** True for a registry scope that holds an algorithm's knobs (the scope is the algorithm's kind). */
export function isAlgorithmScope(scope: string): boolean {
  return !NON_ALGORITHM_SCOPES.has(scope)
}

/** A value no engine accepts, so that its error message lists the values it does. */
const PROBE = 'zz-probe'

/**
 * A scenario whose only faults are the probe values; validating it makes the engine list its
 * accepted algorithms, queue disciplines, traffic models and start-up options.
 */
function probeScenario(): string {
  return JSON.stringify({
    format: 'abr-lab/scenario',
    version: 1,
    defaults: { switch_port: { queue: PROBE, algorithm: { kind: PROBE } } },
    nodes: [
      { id: 'S', kind: 'host', x: 0, y: 0 },
      { id: 'D', kind: 'host', x: 1, y: 0 },
    ],
    links: [{ id: 'l', a: 'S', b: 'D', rate_mbps: 1, delay_ms: 1 }],
    vcs: [{ id: 'v', path: ['S', 'D'], startup: PROBE, traffic: { kind: PROBE } }],
  })
}

/** The quoted words of an engine message, less the probe itself: `expected one of: "none", "erica"`. */
function quotedChoices(message: string): string[] {
  return [...message.matchAll(/"([^"]+)"/g)].map((m) => m[1]).filter((word) => word !== PROBE)
}

/** Reads the engine's lists of accepted choices from its answer to the probe scenario. */
export function probeChoices(validate: (json: string) => string, registry: readonly ParamSpec[]): Choices {
  const errors = parseEngineErrors(validate(probeScenario()))
  const at = (suffix: string) => quotedChoices(errors.find((e) => e.path.endsWith(suffix))?.message ?? '')
  const choices = {
    algorithms: at('algorithm.kind'),
    queues: at('.queue'),
    traffic: at('traffic.kind'),
    startup: at('.startup'),
  }
  for (const [name, list] of Object.entries(choices)) {
    if (list.length === 0) throw new Error(`the engine did not say which ${name} it accepts`)
  }
  return { ...choices, trafficKeys: probeTrafficKeys(validate, choices.traffic, registry) }
}

/**
 * Which traffic keys each traffic model reads: a key a model does not read is an "unknown key"
 * to the engine, so each (model, key) pair is tried once with the key at its default.
 */
function probeTrafficKeys(validate: (json: string) => string, models: readonly string[], registry: readonly ParamSpec[]): Record<string, string[]> {
  const keys = registry.filter((p) => p.scope === 'traffic')
  const result: Record<string, string[]> = {}
  for (const model of models) {
    result[model] = keys
      .filter((spec) => {
        const value = spec.key === 'stop_ms' ? 1e6 : spec.default ?? spec.min
        const scenario = JSON.parse(probeScenario()) as { defaults?: unknown; vcs: { startup?: string; traffic: unknown }[] }
        delete scenario.defaults
        delete scenario.vcs[0].startup
        scenario.vcs[0].traffic = { kind: model, [spec.key]: value }
        const errors = parseEngineErrors(validate(JSON.stringify(scenario)))
        return !errors.some((e) => e.path.endsWith(`traffic.${spec.key}`) && /unknown key/.test(e.message))
      })
      .map((spec) => spec.key)
  }
  return result
}

export function createEngineInfo(mod: EngineInfoModule): EngineInfo {
  const registry = JSON.parse(mod.param_registry()) as ParamSpec[]
  const choices = probeChoices((json) => mod.validate_scenario(json), registry)
  return {
    registry,
    choices,
    params: (scope) => registry.filter((p) => p.scope === scope),
    param: (scope, key) => registry.find((p) => p.scope === scope && p.key === key),
    validate(json) {
      const text = mod.validate_scenario(json)
      const errors = parseEngineErrors(text)
      return errors.length > 0 ? { ok: false, errors } : { ok: true, warnings: parseEngineWarnings(text) }
    },
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
