/**
 * The parameter panel's sections for a link and its ports: a port's settings over its defaults, its
 * queue discipline, its switch algorithm and that algorithm's knobs; a link's rate and length or delay.
 */
import { findById } from '../scenario/doc'
import { isAlgorithmScope, type EngineInfo } from '../scenario/engineInfo'
import { getPath, isObject, type JsonObject } from '../scenario/paths'
import { noEffectReason } from './effect'
import {
  type Field,
  jsonValue,
  type NumberField,
  numberOf,
  objectAssignments,
  type Section,
  safeId,
} from './field'
import { type Direction, portName } from './ports'

function nodeKind(scenario: JsonObject, id: string): 'host' | 'switch' {
  return findById(scenario, 'nodes', id)?.kind === 'switch' ? 'switch' : 'host'
}

/** The algorithm object a port uses: its own, or the one its defaults give, or none. */
function portAlgorithm(
  scenario: JsonObject,
  linkId: string,
  dir: Direction,
  fromKind: 'host' | 'switch',
): { value: JsonObject; own: boolean } {
  const own = getPath(scenario, `links.${linkId}.${dir}.algorithm`)
  if (isObject(own)) return { value: own, own: true }
  const inherited = getPath(scenario, `defaults.${fromKind}_port.algorithm`)
  if (isObject(inherited)) return { value: inherited, own: false }
  return { value: { kind: 'none' }, own: false }
}

/** One output port's section: its settings, queue discipline, switch algorithm and knobs. */
export function portSection(
  scenario: JsonObject,
  info: EngineInfo,
  linkId: string,
  dir: Direction,
  builtinBuffer?: number,
): Section | null {
  const link = findById(scenario, 'links', linkId)
  if (!link) return null
  const from = String(dir === 'a_to_b' ? link.a : link.b)
  const to = String(dir === 'a_to_b' ? link.b : link.a)
  const fromKind = nodeKind(scenario, from)
  const portPath = `links.${linkId}.${dir}`
  const port = getPath(scenario, portPath)
  const defaultsPath = `defaults.${fromKind}_port`
  const defaults = getPath(scenario, defaultsPath)
  const stem = `port-${safeId(linkId)}-${dir}`

  const portFields: Field[] = info.params('port').map((spec): NumberField => {
    const own = isObject(port) ? numberOf(port[spec.key]) : undefined
    const inherited = isObject(defaults) ? numberOf(defaults[spec.key]) : undefined
    const builtin =
      spec.key === 'buffer_cells' && builtinBuffer !== undefined ? builtinBuffer : spec.default
    return {
      type: 'number',
      id: `${stem}-${spec.key}`,
      spec,
      value: own ?? inherited ?? builtin,
      origin: own !== undefined ? 'set' : inherited !== undefined ? 'inherited' : 'default',
      originText:
        own !== undefined
          ? 'set on this port'
          : inherited !== undefined
            ? `from ${defaultsPath}`
            : `default for ${fromKind} ports`,
      assign: (v) => [{ path: `${portPath}.${spec.key}`, value: jsonValue(spec, v) }],
      clear:
        own !== undefined ? [{ path: `${portPath}.${spec.key}`, value: undefined }] : undefined,
    }
  })

  const queueOwn = isObject(port) && typeof port.queue === 'string' ? port.queue : undefined
  const queueInherited =
    isObject(defaults) && typeof defaults.queue === 'string' ? defaults.queue : undefined
  portFields.push({
    type: 'choice',
    id: `${stem}-queue`,
    label: 'Queue discipline',
    doc: 'How the port serves its queue: the disciplines this version of ABR Lab has.',
    options: info.choices.queues,
    value: queueOwn ?? queueInherited ?? info.choices.queues[0],
    live: false,
    assign: (v) => [{ path: `${portPath}.queue`, value: v }],
  })

  const algorithm = portAlgorithm(scenario, linkId, dir, fromKind)
  const kind = typeof algorithm.value.kind === 'string' ? algorithm.value.kind : 'none'
  portFields.push({
    type: 'choice',
    id: `${stem}-algorithm`,
    label: 'Switch algorithm',
    doc: `The algorithm that reads cells through this port and may write RM-cell fields${algorithm.own ? '' : `; now inherited from ${defaultsPath}`}.`,
    options: info.choices.algorithms,
    value: kind,
    live: false,
    assign: (v) => [{ path: `${portPath}.algorithm`, value: { kind: v } }],
  })

  for (const spec of info.params(kind)) {
    if (!isAlgorithmScope(spec.scope)) continue
    const own = numberOf(algorithm.value[spec.key])
    portFields.push({
      type: 'number',
      id: `${stem}-${kind}-${spec.key}`,
      spec,
      value: own ?? spec.default,
      noEffect: noEffectReason(info, kind, algorithm.value, spec.key),
      origin: algorithm.own
        ? own !== undefined
          ? 'set'
          : 'default'
        : own !== undefined
          ? 'inherited'
          : 'default',
      originText: algorithm.own
        ? own !== undefined
          ? 'set on this port'
          : 'default'
        : own !== undefined
          ? `from ${defaultsPath}`
          : 'default',
      assign: (v) =>
        algorithm.own
          ? [{ path: `${portPath}.algorithm.${spec.key}`, value: jsonValue(spec, v) }]
          : // A port without its own algorithm gets a copy of the inherited one with this knob changed.
            objectAssignments(`${portPath}.algorithm`, {
              ...algorithm.value,
              [spec.key]: jsonValue(spec, v),
            }),
    })
  }

  return {
    id: stem,
    title: `Port ${portName(from, to, linkId)}`,
    note: `The output queue at ${from} (${fromKind}) for traffic towards ${to}.`,
    fields: portFields,
  }
}
/** A link's section: its rate, and its length or delay (either one, editing one replaces the other). */
export function linkSection(
  scenario: JsonObject,
  info: EngineInfo,
  linkId: string,
): Section | null {
  const link = findById(scenario, 'links', linkId)
  if (!link) return null
  const stem = `link-${safeId(linkId)}`
  // A link's delay is given either as a length or as a delay (never both): editing one replaces the other.
  const lengthKm = numberOf(link.length_km)
  const delayMs = numberOf(link.delay_ms)
  const fields = info.params('link').map((spec): NumberField => {
    let value = numberOf(link[spec.key]) ?? null
    let originText = value !== null ? `set on ${linkId}` : 'default'
    if (spec.key === 'delay_ms' && value === null && lengthKm !== undefined) {
      value = lengthKm * 0.005
      originText = 'from the length (5 µs per km)'
    }
    if (spec.key === 'length_km' && value === null && delayMs !== undefined) {
      value = delayMs / 0.005
      originText = 'from the delay (5 µs per km)'
    }
    const other =
      spec.key === 'length_km' ? 'delay_ms' : spec.key === 'delay_ms' ? 'length_km' : null
    return {
      type: 'number',
      id: `${stem}-${spec.key}`,
      spec,
      value: value ?? spec.default,
      origin: numberOf(link[spec.key]) !== undefined ? 'set' : 'inherited',
      originText,
      assign: (v) => [
        ...(other && link[other] !== undefined
          ? [{ path: `links.${linkId}.${other}`, value: undefined }]
          : []),
        { path: `links.${linkId}.${spec.key}`, value: v },
      ],
    }
  })
  return { id: stem, title: `Link ${linkId}: ${String(link.a)}–${String(link.b)}`, fields }
}
