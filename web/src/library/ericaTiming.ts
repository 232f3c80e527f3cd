/**
 * Which ERICA a scenario's switches run, in a sentence for the About tab: the feedback timing
 * (where CCR is read, where ER is written, whether RM cells skip the data queue) of every ERICA
 * port, from the port's own `algorithm` or the one `defaults.switch_port` gives it.
 *
 * The defaults per kind are the engine's (`EricaConfig::default` and `EricaConfig::basic`):
 * `erica` and `erica_plus` read CCR from forward RM cells, averaged over the interval the load was
 * measured on, write ER on forward and backward RM cells and send RM cells first; `erica_basic`
 * reads CCR from backward RM cells, writes ER on them only and queues RM cells with data.
 */
import { isObject, type Json, type JsonObject } from '../scenario/paths'

const ERICA_KINDS = new Set(['erica', 'erica_basic', 'erica_plus'])

/** One ERICA port's feedback timing. */
export interface EricaTiming {
  kind: string
  forwardCcr: boolean
  intervalMean: boolean
  forwardEr: boolean
  rmFirst: boolean
}

function flag(algorithm: JsonObject, key: string, fallback: boolean): boolean {
  const v = algorithm[key]
  return typeof v === 'boolean' ? v : fallback
}

/** The timing an `algorithm` object runs, or null when it is not ERICA. */
export function ericaTiming(algorithm: Json | undefined): EricaTiming | null {
  if (!isObject(algorithm) || typeof algorithm.kind !== 'string') return null
  if (!ERICA_KINDS.has(algorithm.kind)) return null
  const on = algorithm.kind !== 'erica_basic'
  return {
    kind: algorithm.kind,
    forwardCcr: flag(algorithm, 'forward_ccr', on),
    intervalMean: flag(algorithm, 'ccr_interval_mean', true),
    forwardEr: flag(algorithm, 'forward_er', on),
    rmFirst: flag(algorithm, 'rm_first', on),
  }
}

/** The timing in words. */
export function describeTiming(t: EricaTiming): string {
  const name = t.kind === 'erica_plus' ? 'ERICA+' : 'ERICA'
  const stable = t.forwardCcr && t.intervalMean && t.forwardEr && t.rmFirst
  const basic = !t.forwardCcr && !t.forwardEr && !t.rmFirst
  const ccr = !t.forwardCcr
    ? 'CCR from backward RM cells'
    : t.intervalMean
      ? 'CCR from forward RM cells, averaged over the interval the load was measured on'
      : "CCR from each VC's latest forward RM cell"
  const er = t.forwardEr ? 'ER on forward and backward RM cells' : 'ER on backward RM cells only'
  const rm = t.rmFirst ? 'RM cells sent before queued data' : 'RM cells queued with data'
  const label = stable ? ' with the default timing' : basic ? ' with basic timing' : ''
  return `${name}${label}: ${ccr}, ${er}, ${rm}`
}

/** The distinct ERICA timings a scenario's switch ports run, in words (empty: no ERICA). */
export function ericaTimings(scenario: JsonObject): string[] {
  const defaults = isObject(scenario.defaults) ? scenario.defaults : {}
  const switchPort = isObject(defaults.switch_port) ? defaults.switch_port : {}
  const nodes = Array.isArray(scenario.nodes) ? scenario.nodes.filter(isObject) : []
  const isSwitch = new Set(nodes.filter((n) => n.kind === 'switch').map((n) => String(n.id)))
  const algorithms: (Json | undefined)[] = []
  const links = Array.isArray(scenario.links) ? scenario.links.filter(isObject) : []
  for (const link of links) {
    for (const [dir, from] of [
      ['a_to_b', link.a],
      ['b_to_a', link.b],
    ] as const) {
      if (!isSwitch.has(String(from))) continue
      const own = isObject(link[dir]) ? (link[dir] as JsonObject).algorithm : undefined
      algorithms.push(own ?? switchPort.algorithm)
    }
  }
  const words = algorithms.flatMap((a) => {
    const t = ericaTiming(a)
    return t ? [describeTiming(t)] : []
  })
  return [...new Set(words)]
}
