/**
 * Assignments: the values of a parameter change, each at its dotted path (`vcs.vc1.rif`), made on
 * a document through the engine's path grammar (scenario/paths.ts), with the assignments that
 * undo them exactly — so that a change and its undo travel as values, not as documents.
 */
import { editedPart, getPath, type Json, type JsonObject, type Part, setPath } from './paths'

/** `value` at `path`; an undefined value removes the setting there (back to what it inherits). */
export interface Assignment {
  readonly path: string
  readonly value: Json | undefined
}

/**
 * `doc` with the assignments made in order (sharing what they leave alone), and the assignments
 * that bring it back, in the order to make them. Throws a PathError for a path that leads nowhere.
 */
export function assign(
  doc: JsonObject,
  sets: readonly Assignment[],
): { scenario: JsonObject; inverse: Assignment[] } {
  let scenario = doc
  const inverse: Assignment[] = []
  for (const one of sets) {
    inverse.unshift(restoring(scenario, one.path))
    scenario = assignOne(scenario, one)
  }
  return { scenario, inverse }
}

/** True when every assignment leaves `doc` as it is (a slider let go where it was). */
export function changesNothing(doc: JsonObject, sets: readonly Assignment[]): boolean {
  return sets.every((one) => JSON.stringify(getPath(doc, one.path)) === JSON.stringify(one.value))
}

/** What restores `path` as `doc` has it: its value, or the removal of its first missing part. */
function restoring(doc: JsonObject, path: string): Assignment {
  const segments = path.split('.')
  for (let i = 1; i <= segments.length; i++) {
    const at = segments.slice(0, i).join('.')
    const value = getPath(doc, at)
    if (value === undefined) return { path: at, value: undefined }
    if (i === segments.length) return { path, value }
  }
  return { path, value: undefined }
}

/** One assignment; only the top-level member (or array element) it reaches is copied. */
function assignOne(doc: JsonObject, { path, value }: Assignment): JsonObject {
  const segments = path.split('.')
  const key = segments[0]
  if (segments.length === 1) {
    const next = { ...doc }
    if (value === undefined) delete next[key]
    else setPath(next, path, value)
    return next
  }
  const byId = Array.isArray(doc[key]) && segments.length > 2
  const part: Part = byId ? { key, id: segments[1] } : { key }
  const rest = segments.slice(byId ? 2 : 1).join('.')
  return editedPart(doc, part, (e) => (value === undefined ? e.delete(rest) : e.set(rest, value)))
}
