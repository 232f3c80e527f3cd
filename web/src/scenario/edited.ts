/**
 * Whether the open scenario is still the library file it names, and if not, what differs: every
 * change as "path: old → new", so a title, the About panel, an export and a share link can say
 * "(edited)" and list the edits instead of passing an edited run off as the paper's.
 *
 * The library file compared with is the one whose name is the document's `id`, however the
 * document arrived (the library, a share link, a loaded file, a sweep cell). Positions on the
 * drawing and view state are not edits of the experiment and are left out.
 */
import { library } from './library'
import { isObject, type Json, type JsonObject } from './paths'

export interface EditedChange {
  /** Dotted path, array elements by id: "vcs.vc1.rif". */
  path: string
  /** The value in the library file, as text ("—" when absent). */
  before: string
  /** The value now ("—" when removed). */
  after: string
}

export interface EditedState {
  /** The library file compared with (its id). */
  base: string
  changes: EditedChange[]
}

/** Keys that are not part of the experiment. */
const IGNORED = [/^view$/, /^nodes\.[^.]+\.(x|y)$/]

function show(value: Json | undefined): string {
  if (value === undefined) return '—'
  if (typeof value === 'string') return value
  const text = JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

function keyOf(item: Json, index: number): string {
  return isObject(item) && typeof item.id === 'string' ? item.id : String(index)
}

/**
 * The changes found below an object of a document, by that object: an edit shares what it did not
 * change with the document before it (scenario/paths.ts `editedPart`), so comparing the edited
 * document again reads only what the edit copied (a slider's step on one VC of 500).
 * Documents are never changed in place once made, so an object's changes against the same
 * library object at the same path stay what they were.
 */
const found = new WeakMap<
  object,
  { before: Json | undefined; path: string; changes: EditedChange[] }
>()

function diff(
  before: Json | undefined,
  after: Json | undefined,
  path: string,
  out: EditedChange[],
): void {
  if (IGNORED.some((re) => re.test(path))) return
  if (typeof after === 'object' && after !== null) {
    const known = found.get(after)
    if (known && known.before === before && known.path === path) {
      for (const change of known.changes) out.push(change)
      return
    }
    const start = out.length
    diffInner(before, after, path, out)
    found.set(after, { before, path, changes: out.slice(start) })
    return
  }
  diffInner(before, after, path, out)
}

function diffInner(
  before: Json | undefined,
  after: Json | undefined,
  path: string,
  out: EditedChange[],
): void {
  if (Array.isArray(before) && Array.isArray(after)) {
    const keyed = (list: Json[]) => new Map(list.map((item, i) => [keyOf(item, i), item]))
    const b = keyed(before)
    const a = keyed(after)
    for (const [key, item] of b) diff(item, a.get(key), `${path}.${key}`, out)
    for (const [key, item] of a) if (!b.has(key)) diff(undefined, item, `${path}.${key}`, out)
    return
  }
  if (isObject(before) && isObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
      diff(before[key], after[key], path === '' ? key : `${path}.${key}`, out)
    return
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return
  // A whole element added or removed reads better as one line than as its leaves.
  if (before === undefined && (isObject(after) || Array.isArray(after)))
    out.push({ path, before: '—', after: 'added' })
  else if (after === undefined && (isObject(before) || Array.isArray(before)))
    out.push({ path, before: 'present', after: 'removed' })
  else out.push({ path, before: show(before), after: show(after) })
}

/** Every difference between two scenario documents, in document order. */
export function scenarioChanges(before: JsonObject, after: JsonObject): EditedChange[] {
  const out: EditedChange[] = []
  diff(before, after, '', out)
  return out
}

/** The library file last compared with, parsed once (its objects key `found`). */
let lastBase: { text: string; value: Json | null } | null = null

function parsedBase(text: string): Json | null {
  if (lastBase?.text !== text) {
    let value: Json | null = null
    try {
      value = JSON.parse(text) as Json
    } catch {
      value = null
    }
    lastBase = { text, value }
  }
  return lastBase.value
}

/**
 * The open document against the library file of its id: null when the library has no such file
 * (nothing to compare with), else the changes (empty: unedited).
 */
export function editedState(
  scenario: JsonObject,
  files: ReadonlyMap<string, string> = library,
): EditedState | null {
  const id = typeof scenario.id === 'string' ? scenario.id : ''
  const text = files.get(id)
  if (text === undefined) return null
  const base = parsedBase(text)
  if (!isObject(base)) return null
  return { base: id, changes: scenarioChanges(base, scenario) }
}

/** A title with the edited mark when the scenario differs from its library file. */
export function editedTitle(title: string, state: EditedState | null): string {
  return state && state.changes.length > 0 ? `${title} (edited)` : title
}
