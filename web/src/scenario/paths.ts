/**
 * Dotted paths into a scenario, the grammar `abrsim --set`, scenario variants and
 * `Engine.set_param` use (engine-wasm/crates/sim-core/src/scenario/set.rs): `vcs.vc1.rif`,
 * `defaults.vc.nrm`, `links.l3.a_to_b.algorithm.target_utilization`. An array element is named by
 * its `id` or by its index. A path through something missing is an error, except for the few
 * objects a scenario may leave out (`defaults`, `traffic`, `a_to_b`, …), which are created on the
 * way. Setting goes through the engine itself (engine/grammar.ts), so a path applied here and in
 * the engine gives the same file.
 */
import { type Json, setPathText } from '../engine/grammar'

export type { Json }
export type JsonObject = { [key: string]: Json }

export class PathError extends Error {
  constructor(
    readonly path: string,
    /** What is wrong at `path`, without the path. */
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`)
    this.name = 'PathError'
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function segmentsOf(path: string): string[] {
  const segments = path.split('.')
  if (path === '' || segments.some((s) => s === ''))
    throw new PathError(path, 'is not a dotted path such as vcs.vc1.rif')
  return segments
}

/** The index of the array element a segment names: by id first, then by index. */
function elementIndex(items: Json[], segment: string): number {
  const byId = items.findIndex((item) => isObject(item) && item.id === segment)
  if (byId >= 0) return byId
  if (/^\d+$/.test(segment)) {
    const i = Number(segment)
    if (i < items.length) return i
  }
  return -1
}

/** The value at `path`, or undefined when any part of it is missing. */
export function getPath(root: Json, path: string): Json | undefined {
  let here: Json | undefined = root
  for (const segment of path.split('.')) {
    if (Array.isArray(here)) {
      const i = elementIndex(here, segment)
      here = i >= 0 ? here[i] : undefined
    } else if (isObject(here)) {
      here = Object.hasOwn(here, segment) ? here[segment] : undefined
    } else {
      return undefined
    }
    if (here === undefined) return undefined
  }
  return here
}

/**
 * Sets `path` to `value` in `root`, in place (callers pass a copy): the engine applies the path
 * (sim-core scenario/set.rs, the `--set` grammar) and the changed top-level member is replaced.
 * Throws a PathError naming the first segment that does not exist, as the engine does.
 */
export function setPath(root: Json, path: string, value: Json): void {
  segmentsOf(path)
  if (!isObject(root) && !Array.isArray(root))
    throw new PathError(path, 'the scenario is not an object')
  const answer = setPathText(JSON.stringify(root), path, value)
  if ('error' in answer) throw new PathError(answer.error.path, answer.error.message)
  const next = JSON.parse(answer.json) as Json
  const first = path.split('.')[0]
  if (Array.isArray(root) && Array.isArray(next)) {
    const i = elementIndex(root, first)
    root[i] = next[i]
  } else if (isObject(root) && isObject(next)) {
    root[first] = next[first]
  }
}

/** Removes the key at `path` (an object member); does nothing when it is already absent. */
export function deletePath(root: Json, path: string): void {
  const segments = segmentsOf(path)
  const container = segments.length === 1 ? root : getPath(root, segments.slice(0, -1).join('.'))
  if (isObject(container)) delete container[segments[segments.length - 1]]
}

/**
 * Where one edit happens in a scenario: a top-level member (`run`), or the element of a top-level
 * array whose `id` is `id` (`vcs` and `L001`).
 */
export interface Part {
  key: string
  id?: string
}

/** Sets and deletes paths relative to a part of the scenario (`rif` in the VC `L001`). */
export interface PartEditor {
  set(path: string, value: Json): void
  delete(path: string): void
}

/**
 * The scenario with one part changed: `change` sets and deletes paths relative to the part, through
 * the engine's grammar as `setPath` does. Only the part is copied and given to the engine: the new
 * document shares everything else with `root` (documents are never changed in place once made),
 * so a slider's step on one VC of 500 neither copies nor serialises the other 499. The
 * grammar walks a path one segment at a time from where it stands, so `rif` set in the VC is
 * `vcs.L001.rif` set in the scenario. A part that is not there (a scenario without `run`) is
 * edited with whole paths in a copy of the whole document, as the grammar would create it.
 * Throws a PathError naming the whole path.
 */
export function editedPart(
  root: JsonObject,
  part: Part,
  change: (editor: PartEditor) => void,
): JsonObject {
  const prefix = part.id === undefined ? part.key : `${part.key}.${part.id}`
  const container = root[part.key]
  const index =
    part.id === undefined
      ? -1
      : Array.isArray(container)
        ? container.findIndex((item) => isObject(item) && item.id === part.id)
        : -1
  const found = part.id === undefined ? container : index >= 0 ? (container as Json[])[index] : null
  if (!isObject(found)) {
    const copy = cloneJson(root)
    change({
      set: (path, value) => setPath(copy, `${prefix}.${path}`, value),
      delete: (path) => deletePath(copy, `${prefix}.${path}`),
    })
    return copy
  }
  const edited = cloneJson(found)
  const whole = (error: unknown): never => {
    if (error instanceof PathError) throw new PathError(`${prefix}.${error.path}`, error.reason)
    throw error
  }
  change({
    set: (path, value) => {
      try {
        setPath(edited, path, value)
      } catch (error) {
        whole(error)
      }
    },
    delete: (path) => deletePath(edited, path),
  })
  if (part.id === undefined) return { ...root, [part.key]: edited }
  const items = [...(container as Json[])]
  items[index] = edited
  return { ...root, [part.key]: items }
}

/** A deep copy of JSON data. */
export function cloneJson<T extends Json>(value: T): T {
  return structuredClone(value)
}

/**
 * Applies a scenario variant (`variants[].set`, dotted paths to values) to a copy of the scenario,
 * the same way the engine's `apply_variant` does; the variant list itself is kept.
 */
export function applyVariant(scenario: JsonObject, variantId: string): JsonObject {
  const variants = Array.isArray(scenario.variants) ? scenario.variants : []
  const variant = variants.find((v) => isObject(v) && v.id === variantId)
  if (!isObject(variant)) throw new PathError('variants', `no variant '${variantId}'`)
  const copy = cloneJson(scenario)
  const sets = isObject(variant.set) ? variant.set : {}
  for (const [path, value] of Object.entries(sets)) setPath(copy, path, value)
  return copy
}
