/**
 * What the parameter panel shows: a field (a number with its origin, or a choice) and the section
 * that groups fields, with the helpers every section builder reads values through.
 */
import type { Assignment } from '../scenario/assign'
import type { ParamSpec } from '../scenario/engineInfo'
import { isObject, type Json, type JsonObject } from '../scenario/paths'

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
  /** The assignments that set this field to `value`: its own path first. */
  assign(value: number): Assignment[]
  /** The assignments that remove this field's own setting, back to what it inherits. */
  clear?: readonly Assignment[]
  /** The assignments that give every VC this value ("apply to all VCs"). */
  applyAll?: (value: number) => Assignment[]
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
  /** The assignments that make this choice. */
  assign(value: string): Assignment[]
}

export type Field = NumberField | ChoiceField

export interface Section {
  /** Unique within the panel. */
  id: string
  title: string
  note?: string
  fields: Field[]
}

/** A stored value as a number (booleans as 1/0), or undefined when there is none. */
export function numberOf(value: Json | undefined): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'boolean') return value ? 1 : 0
  return undefined
}

/** JSON for a field's value: booleans as true/false, numbers as they are. */
export function jsonValue(spec: ParamSpec, value: number): Json {
  return spec.kind === 'bool' ? value !== 0 : value
}

/** Text made safe for a DOM id. */
export function safeId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_')
}

/** What an unset value means, for the parameters whose unset value is not a number. */
export const UNSET_TEXT: Record<string, string> = {
  stop_ms: 'never',
  crm: '⌈TBE/Nrm⌉',
  on_ms: 'always on',
}

/**
 * The assignments that give `path` the object `value` where there was none, leaf by leaf, `kind`
 * first — as the engine's path grammar builds one, so that each may be taken live.
 */
export function objectAssignments(path: string, value: JsonObject): Assignment[] {
  const keys = Object.keys(value).sort((x, y) => Number(y === 'kind') - Number(x === 'kind'))
  return keys.flatMap((key): Assignment[] => {
    const v = value[key]
    const at = `${path}.${key}`
    return isObject(v) ? objectAssignments(at, v) : [{ path: at, value: v }]
  })
}
