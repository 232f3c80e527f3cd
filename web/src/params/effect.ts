/**
 * Switch-algorithm knobs that only act while another knob is on: shown beside such a control, so
 * that moving it while its switch is off is never a silent no-op. The engine's registry lists each
 * knob on its own; which one gates which is read from each algorithm's description (Ma &
 * Ramakrishnan, "Queue Management for Explicit Rate Based Congestion Control", §4, for the
 * explicit max-min switch's queue management; Jain et al., "ABR Switch Algorithm Testing: A Case
 * Study with ERICA", extensions 5, 8, 9, 11 and ERICA+).
 */
import type { EngineInfo } from '../scenario/engineInfo'
import type { Json, JsonObject } from '../scenario/paths'

/** Algorithm kind → knob → the on/off knob it needs. */
const GATED_BY: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  explicit_maxmin: {
    set_point_cells: 'queue_management',
    max_reduction: 'queue_management',
    max_rtt_ms: 'queue_management',
  },
  erica: {
    interval_cells: 'count_averaging',
    delta: 'maxmin_fix',
    alpha: 'average_sources',
    load_decay: 'average_load',
    a: 'erica_plus',
    b: 'erica_plus',
    t0_ms: 'erica_plus',
    f_min: 'erica_plus',
  },
}

function isOn(value: Json | undefined, fallback: number | null): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return value !== 0
  return (fallback ?? 0) !== 0
}

/**
 * Why a knob of a port's algorithm has no effect as the port is configured ("No effect while
 * Queue management is off."), or undefined when it acts.
 */
export function noEffectReason(
  info: EngineInfo,
  kind: string,
  algorithm: JsonObject,
  key: string,
): string | undefined {
  const gate = GATED_BY[kind]?.[key]
  if (gate === undefined) return undefined
  const spec = info.param(kind, gate)
  if (!spec) return undefined
  if (isOn(algorithm[gate], spec.default)) return undefined
  return `No effect while ${spec.label} is off.`
}
