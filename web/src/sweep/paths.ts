/**
 * Scenario overrides by dotted path, the grammar of `abrsim run --set` and `Engine.set_param`:
 * `vcs.vc1.rif` names an array element by id (or index), objects the engine knows may be created
 * on the way, a new final key is inserted and judged by the engine's validation like any other.
 * Sweeps add `*` for every element of an array (`vcs.*.rif`), as `abrsim sweep` does. The engine
 * answers (engine/grammar.ts over sim-core's scenario/set.rs); nothing of the grammar is
 * re-implemented here.
 */
import { applyOverridesText, expandPath as expandInEngine, parseSetValue } from '../engine/grammar'
import type { ScenarioError } from '../engine/protocol'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Parses a typed value as `--set` does: a fraction such as `1/16`, else JSON, else a bare string. */
export function parseValue(raw: string): Json {
  return parseSetValue(raw)
}

/** Expands `*` into one path per array element (by id when it has one); others unchanged. */
export function expandPath(
  root: Json,
  path: string,
): { paths: string[] } | { error: ScenarioError } {
  return expandInEngine(JSON.stringify(root), path)
}

/** One override of a scenario: a path (maybe with `*`) and the value as typed. */
export interface Override {
  path: string
  raw: string
}

/**
 * The scenario text with the overrides applied, or the first problem. The engine validates the
 * result (ranges, powers of two) when it loads it.
 */
export function applyOverrides(
  scenarioJson: string,
  overrides: readonly Override[],
): { json: string } | { error: ScenarioError } {
  return applyOverridesText(scenarioJson, overrides)
}

/** The overrides of one of the scenario file's variants (`variants[].set`), as typed values. */
export function variantOverrides(scenarioJson: string, variantId: string): Override[] | null {
  try {
    const root = JSON.parse(scenarioJson) as {
      variants?: { id?: string; set?: Record<string, Json> }[]
    }
    const variant = root.variants?.find((v) => v.id === variantId)
    if (!variant) return null
    return Object.entries(variant.set ?? {}).map(([path, value]) => ({
      path,
      raw: JSON.stringify(value),
    }))
  } catch {
    return null
  }
}

/** "1/16" for powers of two below one, else the number as short as it reads. */
export function formatParamValue(value: number): string {
  if (value > 0 && value < 1) {
    const inverse = 1 / value
    if (Number.isInteger(inverse) && inverse <= 1 << 20) return `1/${inverse}`
  }
  return String(Number(value.toPrecision(6)))
}
