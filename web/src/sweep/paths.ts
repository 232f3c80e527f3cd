/**
 * Scenario overrides by dotted path, the grammar of `abrsim run --set` and `Engine.set_param`
 * (engine-wasm/crates/sim-core/src/scenario/set.rs): `vcs.vc1.rif` names an array element by id
 * (or index), objects the engine knows may be created on the way, a new final key is inserted
 * and judged by the engine's validation like any other. Sweeps add `*` for every element of an
 * array (`vcs.*.rif`), as `abrsim sweep` does.
 */
import type { ScenarioError } from '../engine/protocol'

/** Objects a path may create when a scenario leaves them out (set.rs CREATABLE). */
const CREATABLE = new Set(['defaults', 'vc', 'switch_port', 'host_port', 'a_to_b', 'b_to_a', 'run', 'traffic', 'algorithm'])

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Parses a typed value as `--set` does: a fraction such as `1/16`, else JSON, else a bare string. */
export function parseValue(raw: string): Json {
  const fraction = /^\s*([^/]+)\/([^/]+)\s*$/.exec(raw)
  if (fraction) {
    const n = Number(fraction[1].trim())
    const d = Number(fraction[2].trim())
    if (fraction[1].trim() !== '' && fraction[2].trim() !== '' && Number.isFinite(n) && Number.isFinite(d) && d !== 0 && Number.isFinite(n / d)) {
      return n / d
    }
  }
  try {
    return JSON.parse(raw) as Json
  } catch {
    return raw
  }
}

function isObject(v: unknown): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function findElement(items: Json[], seg: string): number {
  const byId = items.findIndex((v) => isObject(v) && v.id === seg)
  if (byId >= 0) return byId
  return /^\d+$/.test(seg) && Number(seg) < items.length ? Number(seg) : -1
}

/** Sets `path` to `value` in `root` (mutated); returns the error set.rs would give, or null. */
export function applySet(root: Json, path: string, value: Json): ScenarioError | null {
  const segments = path.split('.')
  if (path === '' || segments.some((s) => s === '')) return { path, message: 'is not a dotted path such as vcs.vc1.rif' }
  let here: Json = root
  let walked = ''
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]
    const last = i === segments.length - 1
    const at = walked === '' ? seg : `${walked}.${seg}`
    if (isObject(here)) {
      if (last) {
        here[seg] = value
        return null
      }
      if (!(seg in here)) {
        if (!CREATABLE.has(seg)) return { path: at, message: 'does not exist' }
        here[seg] = {}
      }
      here = here[seg]
    } else if (Array.isArray(here)) {
      const idx = findElement(here, seg)
      if (idx < 0) return { path: at, message: `no element with id or index '${seg}' in ${walked}` }
      if (last) {
        here[idx] = value
        return null
      }
      here = here[idx]
    } else {
      return { path: at, message: `${walked} is not an object or array` }
    }
    walked = at
  }
  return null
}

/** Expands `*` into one path per array element (by id when it has one); others unchanged. */
export function expandPath(root: Json, path: string): { paths: string[] } | { error: ScenarioError } {
  const out: string[] = []
  const walk = (here: Json | undefined, rest: string[], prefix: string): ScenarioError | null => {
    if (rest.length === 0) {
      out.push(prefix)
      return null
    }
    const [seg, ...tail] = rest
    const join = (s: string) => (prefix === '' ? s : `${prefix}.${s}`)
    if (seg !== '*') {
      let next: Json | undefined
      if (isObject(here)) next = here[seg]
      else if (Array.isArray(here)) {
        const idx = findElement(here, seg)
        next = idx >= 0 ? here[idx] : undefined
      }
      return walk(next, tail, join(seg))
    }
    if (!Array.isArray(here)) return { path: join('*'), message: `'*' needs an array, and ${prefix || 'the scenario'} is not one` }
    if (here.length === 0) return { path: join('*'), message: `${prefix} is empty` }
    for (let i = 0; i < here.length; i++) {
      const item = here[i]
      const name = isObject(item) && typeof item.id === 'string' ? item.id : String(i)
      const problem = walk(item, tail, join(name))
      if (problem) return problem
    }
    return null
  }
  const problem = walk(root, path.split('.'), '')
  return problem ? { error: problem } : { paths: out }
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
export function applyOverrides(scenarioJson: string, overrides: readonly Override[]): { json: string } | { error: ScenarioError } {
  let root: Json
  try {
    root = JSON.parse(scenarioJson) as Json
  } catch (cause) {
    return { error: { path: '', message: `the scenario is not JSON: ${cause instanceof Error ? cause.message : String(cause)}` } }
  }
  for (const { path, raw } of overrides) {
    const expanded = expandPath(root, path)
    if ('error' in expanded) return expanded
    for (const concrete of expanded.paths) {
      const problem = applySet(root, concrete, parseValue(raw))
      if (problem) return { error: problem }
    }
  }
  return { json: JSON.stringify(root, null, 2) }
}

/** The overrides of one of the scenario file's variants (`variants[].set`), as typed values. */
export function variantOverrides(scenarioJson: string, variantId: string): Override[] | null {
  try {
    const root = JSON.parse(scenarioJson) as { variants?: { id?: string; set?: Record<string, Json> }[] }
    const variant = root.variants?.find((v) => v.id === variantId)
    if (!variant) return null
    return Object.entries(variant.set ?? {}).map(([path, value]) => ({ path, raw: JSON.stringify(value) }))
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
