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

function diff(
  before: Json | undefined,
  after: Json | undefined,
  path: string,
  out: EditedChange[],
): void {
  if (IGNORED.some((re) => re.test(path))) return
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
  let base: unknown
  try {
    base = JSON.parse(text)
  } catch {
    return null
  }
  if (!isObject(base)) return null
  return { base: id, changes: scenarioChanges(base, scenario) }
}

/** A title with the edited mark when the scenario differs from its library file. */
export function editedTitle(title: string, state: EditedState | null): string {
  return state && state.changes.length > 0 ? `${title} (edited)` : title
}
