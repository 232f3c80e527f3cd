/**
 * A scenario's "things to try" (scenarios/README.md): each a sentence, or `{text, variant?, set?}`
 * carrying the change the sentence suggests — one of the file's variants, or dotted paths to
 * values. The engine checks on load that every change applies and validates; here it is applied
 * to the document as it stands, for the one-click "try it".
 */
import { applyVariant, cloneJson, isObject, setPath, type Json, type JsonObject } from './paths'

export interface ThingToTry {
  text: string
  /** A variant id of the scenario. */
  variant?: string
  /** Dotted paths to values. */
  set?: JsonObject
}

/** The things to try of a document, read defensively (the engine has validated it). */
export function thingsToTry(scenario: JsonObject): ThingToTry[] {
  const items: Json[] = Array.isArray(scenario.things_to_try) ? scenario.things_to_try : []
  return items.flatMap((item): ThingToTry[] => {
    if (typeof item === 'string') return [{ text: item }]
    if (!isObject(item) || typeof item.text !== 'string') return []
    return [
      {
        text: item.text,
        variant: typeof item.variant === 'string' ? item.variant : undefined,
        set: isObject(item.set) ? item.set : undefined,
      },
    ]
  })
}

/** Whether the item carries a change to run. */
export function hasChange(thing: ThingToTry): boolean {
  return thing.variant !== undefined || thing.set !== undefined
}

/** The document with the item's change applied (a copy); throws a PathError when it cannot be. */
export function applyThing(scenario: JsonObject, thing: ThingToTry): JsonObject {
  if (thing.variant !== undefined) return applyVariant(scenario, thing.variant)
  const copy = cloneJson(scenario)
  for (const [path, value] of Object.entries(thing.set ?? {})) setPath(copy, path, value)
  return copy
}
