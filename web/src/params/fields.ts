/**
 * The parameter panel's contents for a selection, built from the engine's registry: one field per
 * registry entry of the selection's scope, with the value in force (set on the element, inherited
 * from `defaults`, or the registry default) and how to write a new one into the scenario. Nothing
 * here names a parameter or its range: a knob added to the registry appears in the panel.
 *
 * Where values live follows scenarios/README.md: VC parameters on the VC or in `defaults.vc`;
 * port settings on `links[i].a_to_b` / `b_to_a` over `defaults.switch_port` / `host_port`, an
 * `algorithm` object replacing the inherited one as a whole.
 */
import { findById } from '../scenario/doc'
import { isAlgorithmScope, type EngineInfo, type ParamSpec } from '../scenario/engineInfo'
import {
  cloneJson,
  editedPart,
  getPath,
  isObject,
  type Json,
  type JsonObject,
  type Part,
} from '../scenario/paths'
import type { Selection } from '../scenario/shareLink'
import { noEffectReason } from './effect'
import { type Direction, orderedPorts, portName } from './ports'

/** Where a field's value comes from. */
export type ValueOrigin = 'set' | 'inherited' | 'default'

export interface NumberField {
  type: 'number'
  /** Unique within the panel; also the DOM id stem. */
  id: string
  spec: ParamSpec
  /** The value in force; null when unset and without a number (no stop time, CRM from TBE/Nrm). */
  value: number | null
  origin: ValueOrigin
  /** "set on vc1", "from the scenario’s VC defaults", "default": where the value comes from. */
  originText: string
  /** What an unset value means, when it is not a number ("never", "⌈TBE/Nrm⌉"). */
  unsetText?: string
  /** Why the value has no effect as the element is configured now, shown beside the control. */
  noEffect?: string
  /** Top of the slider, below the registry's maximum where that is far beyond any use. */
  softMax?: number
  /** The scenario with this field set to `value`. */
  write(scenario: JsonObject, value: number): JsonObject
  /** The scenario with this field's own setting removed, back to what it inherits. */
  clear?: (scenario: JsonObject) => JsonObject
  /** The scenario with this value on every VC ("apply to all VCs"). */
  applyAll?: (scenario: JsonObject, value: number) => JsonObject
}

export interface ChoiceField {
  type: 'choice'
  id: string
  label: string
  doc: string
  options: readonly string[]
  value: string
  /** Whether a change can be taken by a running simulation (choices never can, today). */
  live: boolean
  write(scenario: JsonObject, value: string): JsonObject
}

export type Field = NumberField | ChoiceField

export interface Section {
  /** Unique within the panel. */
  id: string
  title: string
  note?: string
  fields: Field[]
}

function numberOf(value: Json | undefined): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'boolean') return value ? 1 : 0
  return undefined
}

/** JSON for a field's value: booleans as true/false, numbers as they are. */
export function jsonValue(spec: ParamSpec, value: number): Json {
  return spec.kind === 'bool' ? value !== 0 : value
}

function safeId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_')
}

const UNSET_TEXT: Record<string, string> = {
  stop_ms: 'never',
  crm: '⌈TBE/Nrm⌉',
  on_ms: 'always on',
}

// ---- VCs ---------------------------------------------------------------------------------------

function vcFields(scenario: JsonObject, info: EngineInfo, vcId: string): Section[] {
  const vc = findById(scenario, 'vcs', vcId)
  if (!vc) return []
  const defaults = getPath(scenario, 'defaults.vc')
  const vcIds = (Array.isArray(scenario.vcs) ? scenario.vcs : [])
    .filter(isObject)
    .map((v) => String(v.id))
  const untilMs =
    numberOf(getPath(scenario, 'run.until_ms')) ??
    info.param('run', 'until_ms')?.default ??
    undefined

  const vcPart: Part = { key: 'vcs', id: vcId }
  const abr: NumberField[] = info.params('vc').map((spec) => {
    const own = numberOf(vc[spec.key])
    const inherited = isObject(defaults) ? numberOf(defaults[spec.key]) : undefined
    let value: number | null = own ?? inherited ?? spec.default
    let originText =
      own !== undefined
        ? `set on ${vcId}`
        : inherited !== undefined
          ? 'from the scenario’s VC defaults'
          : 'default'
    if (value === null && spec.key === 'icr_mbps') {
      // Table 1: ICR defaults to PCR.
      value =
        numberOf(vc.pcr_mbps) ??
        (isObject(defaults) ? numberOf(defaults.pcr_mbps) : undefined) ??
        info.param('vc', 'pcr_mbps')?.default ??
        null
      originText = 'default: PCR'
    }
    return {
      type: 'number',
      id: `vc-${safeId(vcId)}-${spec.key}`,
      spec,
      value,
      origin: own !== undefined ? 'set' : inherited !== undefined ? 'inherited' : 'default',
      originText,
      unsetText: UNSET_TEXT[spec.key],
      write: (s, v) => editedPart(s, vcPart, (e) => e.set(spec.key, jsonValue(spec, v))),
      clear:
        own !== undefined ? (s) => editedPart(s, vcPart, (e) => e.delete(spec.key)) : undefined,
      applyAll:
        vcIds.length > 1
          ? (s, v) =>
              vcIds.reduce(
                (doc, id) =>
                  editedPart(doc, { key: 'vcs', id }, (e) => e.set(spec.key, jsonValue(spec, v))),
                s,
              )
          : undefined,
    }
  })

  const startupOptions = info.choices.startup
  const startup: ChoiceField = {
    type: 'choice',
    id: `vc-${safeId(vcId)}-startup`,
    label: 'Start-up option',
    doc: 'How the source picks its initial rate (Ma & Ramakrishnan §3): ATM Forum uses the static ICR; RATE takes the max-min share computed as set-up crosses the switches; RM also has the switches allocate at set-up.',
    options: startupOptions,
    value:
      typeof vc.startup === 'string'
        ? vc.startup
        : startupOptions.includes('atm_forum')
          ? 'atm_forum'
          : startupOptions[0],
    live: false,
    write: (s, v) => editedPart(s, vcPart, (e) => e.set('startup', v)),
  }

  const traffic = isObject(vc.traffic) ? vc.traffic : {}
  const kind = typeof traffic.kind === 'string' ? traffic.kind : 'persistent'
  const trafficKind: ChoiceField = {
    type: 'choice',
    id: `vc-${safeId(vcId)}-traffic-kind`,
    label: 'Traffic model',
    doc: 'What the application offers the source: always data, a start/stop window, a rate cap, bursts, or request–response.',
    options: info.choices.traffic,
    value: kind,
    live: false,
    write: (s, v) =>
      editedPart(s, vcPart, (e) => {
        // A new model keeps the source's start and stop times; its own knobs start at their defaults.
        const next: JsonObject = { kind: v }
        if (traffic.start_ms !== undefined) next.start_ms = traffic.start_ms
        if (traffic.stop_ms !== undefined) next.stop_ms = traffic.stop_ms
        e.set('traffic', next)
      }),
  }
  const trafficKeys = info.choices.trafficKeys[kind] ?? []
  const trafficFields: NumberField[] = info
    .params('traffic')
    .filter((spec) => trafficKeys.includes(spec.key))
    .map((spec) => {
      const own = numberOf(traffic[spec.key])
      const path = `traffic.${spec.key}`
      return {
        type: 'number',
        id: `vc-${safeId(vcId)}-traffic-${spec.key}`,
        spec,
        value: own ?? spec.default,
        origin: own !== undefined ? 'set' : 'default',
        originText: own !== undefined ? `set on ${vcId}` : 'default',
        unsetText: UNSET_TEXT[spec.key],
        softMax: spec.unit === 'ms' && untilMs !== undefined ? untilMs : undefined,
        write: (s, v) => editedPart(s, vcPart, (e) => e.set(path, v)),
        clear:
          own !== undefined && (spec.default === null || spec.key === 'stop_ms')
            ? (s) => editedPart(s, vcPart, (e) => e.delete(path))
            : undefined,
      }
    })

  return [
    { id: 'abr', title: `ABR parameters of ${vcId}`, fields: [...abr, startup] },
    { id: 'traffic', title: `Traffic of ${vcId}`, fields: [trafficKind, ...trafficFields] },
  ]
}

// ---- ports and links ---------------------------------------------------------------------------

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

function portSection(
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
  const linkPart: Part = { key: 'links', id: linkId }
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
      write: (s, v) =>
        editedPart(s, linkPart, (e) => e.set(`${dir}.${spec.key}`, jsonValue(spec, v))),
      clear:
        own !== undefined
          ? (s) => editedPart(s, linkPart, (e) => e.delete(`${dir}.${spec.key}`))
          : undefined,
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
    write: (s, v) => editedPart(s, linkPart, (e) => e.set(`${dir}.queue`, v)),
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
    write: (s, v) => editedPart(s, linkPart, (e) => e.set(`${dir}.algorithm`, { kind: v })),
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
      write: (s, v) =>
        editedPart(s, linkPart, (e) => {
          // A port without its own algorithm gets a copy of the inherited one with this knob changed.
          if (!algorithm.own) e.set(`${dir}.algorithm`, cloneJson(algorithm.value))
          e.set(`${dir}.algorithm.${spec.key}`, jsonValue(spec, v))
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

function linkSection(scenario: JsonObject, info: EngineInfo, linkId: string): Section | null {
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
      write: (s, v) =>
        editedPart(s, { key: 'links', id: linkId }, (e) => {
          if (other) e.delete(other)
          e.set(spec.key, v)
        }),
    }
  })
  return { id: stem, title: `Link ${linkId}: ${String(link.a)}–${String(link.b)}`, fields }
}

// ---- the run and background sources -----------------------------------------------------------

function runSection(scenario: JsonObject, info: EngineInfo): Section {
  const run = getPath(scenario, 'run')
  const fields = info.params('run').map((spec): NumberField => {
    const own = isObject(run) ? numberOf(run[spec.key]) : undefined
    return {
      type: 'number',
      id: `run-${spec.key}`,
      spec,
      value: own ?? spec.default,
      origin: own !== undefined ? 'set' : 'default',
      originText: own !== undefined ? 'set in this scenario' : 'default',
      softMax: spec.key === 'seed' ? 1000 : spec.key === 'until_ms' ? 10_000 : undefined,
      write: (s, v) => editedPart(s, { key: 'run' }, (e) => e.set(spec.key, v)),
    }
  })
  return {
    id: 'run',
    title: 'Run',
    note: 'Select a node, link or VC to see its parameters.',
    fields,
  }
}

function backgroundSections(scenario: JsonObject, info: EngineInfo): Section[] {
  const sources = Array.isArray(scenario.background) ? scenario.background.filter(isObject) : []
  return sources.map((bg) => {
    const id = String(bg.id)
    const fields = info.params('background').map((spec): NumberField => {
      const own = numberOf(bg[spec.key])
      const part: Part = { key: 'background', id }
      return {
        type: 'number',
        id: `bg-${safeId(id)}-${spec.key}`,
        spec,
        value: own ?? spec.default,
        origin: own !== undefined ? 'set' : 'default',
        originText: own !== undefined ? `set on ${id}` : 'default',
        unsetText: UNSET_TEXT[spec.key],
        write: (s, v) => editedPart(s, part, (e) => e.set(spec.key, v)),
        clear:
          own !== undefined && spec.default === null
            ? (s) => editedPart(s, part, (e) => e.delete(spec.key))
            : undefined,
      }
    })
    const route = Array.isArray(bg.path) ? bg.path.join('→') : ''
    return {
      id: `bg-${safeId(id)}`,
      title: `Background ${String(bg.kind ?? 'cbr').toUpperCase()} ${id} (${route})`,
      fields,
    }
  })
}

/** Buffer sizes of ports as the engine built them, by port id (`l3`, `l3:rev`), for built-in defaults. */
export type PortBuffers = ReadonlyMap<string, number>

/** The panel's sections for a selection (null: the run and background sources). */
export function sectionsFor(
  scenario: JsonObject,
  info: EngineInfo,
  selection: Selection | null,
  buffers: PortBuffers = new Map(),
): Section[] {
  if (selection === null) return [runSection(scenario, info), ...backgroundSections(scenario, info)]
  switch (selection.kind) {
    case 'vc':
      return vcFields(scenario, info, selection.id)
    case 'link':
    case 'node': {
      // A link's two ports, or a node's output ports: bottleneck-first.
      const link = selection.kind === 'link' ? linkSection(scenario, info, selection.id) : null
      const ports = orderedPorts(
        scenario,
        selection.kind === 'link' ? [selection.id] : null,
        selection.kind === 'node' ? selection.id : undefined,
      ).map(({ linkId, dir }) =>
        portSection(
          scenario,
          info,
          linkId,
          dir,
          buffers.get(dir === 'a_to_b' ? linkId : `${linkId}:rev`),
        ),
      )
      return [link, ...ports].filter((s): s is Section => s !== null)
    }
  }
}
