/**
 * What a sweep can vary in the current scenario: parameters of the engine's registry
 * (`param_registry()`), each turned into a `--set` path that reaches it here — every VC at once
 * (`vcs.*.rif`), one VC, the switch ports' defaults, one link, one background source.
 */
import { isPacketModel, type Layout } from '../engine/layout'
import { formatParamValue } from './paths'

/** One entry of the engine's parameter registry (generated from the Rust struct). */
export type { ParamSpec } from '../engine/generated/engine-types'

import type { ParamSpec } from '../engine/generated/engine-types'

export interface SweepTarget {
  /** The `--set` path, maybe with `*`. */
  path: string
  /** "every VC · RIF". */
  label: string
  spec: ParamSpec
}

/** Per-element targets are offered for at most this many VCs (all of them through `*`). */
const MAX_SINGLE_VCS = 8

/** The algorithm scopes the registry knows besides the model's own. */
const MODEL_SCOPES = new Set(['vc', 'traffic', 'background', 'port', 'link', 'run'])

export function sweepTargets(
  layout: Layout,
  scenarioJson: string,
  registry: readonly ParamSpec[],
): SweepTarget[] {
  if (isPacketModel(layout)) return packetTargets(layout, scenarioJson, registry)
  let scenario: { defaults?: { switch_port?: { algorithm?: { kind?: string } } } } = {}
  try {
    scenario = JSON.parse(scenarioJson) as typeof scenario
  } catch {
    // The engine loaded it, so it is JSON; nothing to add if not.
  }
  const algorithm = scenario.defaults?.switch_port?.algorithm?.kind
  const forward = layout.vcs.filter((v) => !v.reverse_of)
  const out: SweepTarget[] = []
  const numeric = registry.filter((p) => p.kind !== 'bool')
  for (const spec of numeric.filter((p) => p.scope === 'vc')) {
    out.push({ path: `vcs.*.${spec.key}`, label: `every VC · ${spec.label}`, spec })
  }
  for (const spec of numeric.filter((p) => p.scope === algorithm && !MODEL_SCOPES.has(p.scope))) {
    out.push({
      path: `defaults.switch_port.algorithm.${spec.key}`,
      label: `switch ports · ${spec.label}`,
      spec,
    })
  }
  for (const spec of numeric.filter((p) => p.scope === 'port')) {
    out.push({
      path: `defaults.switch_port.${spec.key}`,
      label: `switch ports · ${spec.label}`,
      spec,
    })
  }
  for (const link of layout.links) {
    for (const spec of numeric.filter((p) => p.scope === 'link' && p.key !== 'length_km')) {
      out.push({
        path: `links.${link.id}.${spec.key}`,
        label: `link ${link.id} (${link.a}–${link.b}) · ${spec.label}`,
        spec,
      })
    }
  }
  for (const bg of layout.background) {
    const spec = numeric.find((p) => p.scope === 'background' && p.key === 'rate_mbps')
    if (spec)
      out.push({
        path: `background.${bg.id}.rate_mbps`,
        label: `background ${bg.id} · ${spec.label}`,
        spec,
      })
  }
  if (forward.length > 1 && forward.length <= MAX_SINGLE_VCS) {
    for (const vc of forward) {
      for (const spec of numeric.filter((p) => p.scope === 'vc')) {
        out.push({ path: `vcs.${vc.id}.${spec.key}`, label: `${vc.id} · ${spec.label}`, spec })
      }
    }
  }
  return out
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The packet model's targets (Pletka et al.): each link's rate and delay, each flow's numbers, the BAT's
 * knobs and per-group guarantees where the scenario has a BAT, the CLCC's where it has one, and the
 * seed (TCP's randomness).
 */
function packetTargets(
  layout: Layout,
  scenarioJson: string,
  registry: readonly ParamSpec[],
): SweepTarget[] {
  let scenario: Obj = {}
  try {
    scenario = JSON.parse(scenarioJson) as Obj
  } catch {
    // The engine loaded it, so it is JSON.
  }
  const numeric = registry.filter((p) => p.kind !== 'bool')
  const scope = (name: string) => numeric.filter((p) => p.scope === name)
  const out: SweepTarget[] = []
  const flows = Array.isArray(scenario.flows) ? scenario.flows.filter(isObj) : []
  for (const flow of flows) {
    for (const spec of scope('ip_flow').filter((p) => typeof flow[p.key] === 'number')) {
      out.push({
        path: `flows.${String(flow.id)}.${spec.key}`,
        label: `flow ${String(flow.id)} · ${spec.label}`,
        spec,
      })
    }
  }
  const links = Array.isArray(scenario.links) ? scenario.links.filter(isObj) : []
  for (const link of links) {
    for (const dir of ['a_to_b', 'b_to_a']) {
      const aqm = isObj(link[dir]) ? (link[dir] as Obj).aqm : undefined
      if (!isObj(aqm) || aqm.kind !== 'bat') continue
      const base = `links.${String(link.id)}.${dir}.aqm`
      for (const spec of scope('bat').filter(
        (p) => p.key !== 'f_min_mbps' && p.key !== 'f_max_mbps',
      )) {
        out.push({
          path: `${base}.${spec.key}`,
          label: `BAT at ${String(link.id)} · ${spec.label}`,
          spec,
        })
      }
      const groups = {
        ...(isObj(aqm.flows) ? aqm.flows : {}),
        ...Object.fromEntries(['tcp', 'udp'].filter((c) => isObj(aqm[c])).map((c) => [c, aqm[c]])),
      }
      for (const group of Object.keys(groups)) {
        const at =
          group === 'tcp' || group === 'udp' ? `${base}.${group}` : `${base}.flows.${group}`
        for (const spec of scope('bat').filter(
          (p) => p.key === 'f_min_mbps' || p.key === 'f_max_mbps',
        )) {
          out.push({
            path: `${at}.${spec.key}`,
            label: `BAT at ${String(link.id)} · ${group} ${spec.label}`,
            spec,
          })
        }
      }
      if (isObj(aqm.clcc)) {
        for (const spec of scope('clcc'))
          out.push({
            path: `${base}.clcc.${spec.key}`,
            label: `CLCC at ${String(link.id)} · ${spec.label}`,
            spec,
          })
      }
    }
    for (const spec of numeric.filter((p) => p.scope === 'link' && p.key !== 'length_km')) {
      out.push({
        path: `links.${String(link.id)}.${spec.key}`,
        label: `link ${String(link.id)} · ${spec.label}`,
        spec,
      })
    }
  }
  const seed = numeric.find((p) => p.scope === 'run' && p.key === 'seed')
  if (seed) out.push({ path: 'run.seed', label: 'run · Seed', spec: seed })
  void layout
  return out
}

/** A first guess at values to sweep: powers of two a factor 4 apart, or around the default. */
export function suggestValues(spec: ParamSpec): string {
  const clip = (v: number) => Math.min(spec.max, Math.max(spec.min, v))
  let values: number[]
  if (spec.kind === 'pow2' || spec.kind === 'zero_or_pow2') {
    values = []
    for (let v = spec.max; v >= spec.min && values.length < 5; v /= 4) values.unshift(v)
  } else {
    const d = spec.default ?? (spec.min + spec.max) / 2
    values = [...new Set([clip(d / 2), clip(d), clip(d * 2)])]
    if (spec.kind === 'integer') values = [...new Set(values.map(Math.round))]
  }
  return values.map(formatParamValue).join(', ')
}

/** Splits a typed list of values ("1/64, 1/16,1") into its items. */
export function parseValueList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

let registryPromise: Promise<ParamSpec[]> | null = null

/** The engine's parameter registries (the cell model's and the packet model's), read once from the wasm module. */
export function loadRegistry(): Promise<ParamSpec[]> {
  registryPromise ??= import('../engine/pkg/sim_wasm.js').then(async (mod) => {
    await mod.default()
    const packet =
      'ip_param_registry' in mod ? (JSON.parse(mod.ip_param_registry()) as ParamSpec[]) : []
    return [...(JSON.parse(mod.param_registry()) as ParamSpec[]), ...packet]
  })
  return registryPromise
}
