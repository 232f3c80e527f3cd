/**
 * The scenario library as a catalogue: every file of scenarios/, with its paper and section and
 * the topics it touches, grouped for browsing by paper or by topic.
 *
 * Topics are the files' own `tags`.
 */
import type { EngineInfo } from '../scenario/engineInfo'
import { library as bundled } from '../scenario/library'
import { isObject, type Json, type JsonObject } from '../scenario/paths'
import { thingsToTry } from '../scenario/things'

export interface CatalogueEntry {
  id: string
  title: string
  /** The paper, without the section: "Fahmy, Jain, Goyal & Vandalore, “ABR Engineering: …”". */
  paper: string
  /** Where in the paper: "§4.2.1, Figure 4". */
  section: string
  explanation: string
  thingsToTry: string[]
  variants: { id: string; label: string }[]
  topics: string[]
  scenario: JsonObject
}

export interface CatalogueGroup {
  title: string
  entries: CatalogueEntry[]
}

/** Splits "Authors, “Title”, venue, §4.2.1, Figure 4" at the section mark (§ or "slide"). */
export function splitPaper(text: string): { paper: string; section: string } {
  const mark = text.search(/\s(§|slides?\b)/)
  if (mark >= 0)
    return {
      paper: text.slice(0, mark).replace(/,\s*$/, '').trim(),
      section: text.slice(mark + 1).trim(),
    }
  return { paper: text.trim() || 'Other scenarios', section: '' }
}

function objects(value: Json | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : []
}

/**
 * The topics of a scenario: its `tags` (scenarios/README.md), the words a person would look it up
 * by — never the keys of the file. A file without tags is under "Other".
 */
export function topicsOf(scenario: JsonObject): string[] {
  const tags = Array.isArray(scenario.tags)
    ? scenario.tags.filter((t): t is string => typeof t === 'string' && t.trim() !== '')
    : []
  return [...new Set(tags.map((t) => t.trim()))]
}

/** Reads every bundled scenario into catalogue entries, ordered by paper and section. */
export function buildCatalogue(
  _info: EngineInfo | null,
  files: ReadonlyMap<string, string> = bundled,
): CatalogueEntry[] {
  const entries: CatalogueEntry[] = []
  for (const [id, text] of files) {
    let scenario: unknown
    try {
      scenario = JSON.parse(text)
    } catch {
      continue // A broken file is reported when it is opened, by the engine.
    }
    if (!isObject(scenario)) continue
    const { paper, section } = splitPaper(typeof scenario.paper === 'string' ? scenario.paper : '')
    entries.push({
      id,
      title: typeof scenario.title === 'string' && scenario.title !== '' ? scenario.title : id,
      paper,
      section,
      explanation: typeof scenario.explanation === 'string' ? scenario.explanation : '',
      thingsToTry: thingsToTry(scenario).map((t) => t.text),
      variants: objects(scenario.variants).map((v) => ({
        id: String(v.id),
        label: typeof v.label === 'string' ? v.label : String(v.id),
      })),
      topics: topicsOf(scenario),
      scenario,
    })
  }
  return entries.sort(
    (a, b) =>
      a.paper.localeCompare(b.paper) ||
      a.section.localeCompare(b.section, 'en', { numeric: true }) ||
      a.id.localeCompare(b.id),
  )
}

/** Entries grouped by paper, papers in order. */
export function byPaper(entries: readonly CatalogueEntry[]): CatalogueGroup[] {
  const groups = new Map<string, CatalogueEntry[]>()
  for (const e of entries) groups.set(e.paper, [...(groups.get(e.paper) ?? []), e])
  return [...groups].map(([title, list]) => ({ title, entries: list }))
}

/** Entries grouped by topic (an entry appears under each of its topics), topics alphabetically. */
export function byTopic(entries: readonly CatalogueEntry[]): CatalogueGroup[] {
  const groups = new Map<string, CatalogueEntry[]>()
  for (const e of entries) {
    for (const topic of e.topics.length > 0 ? e.topics : ['Other'])
      groups.set(topic, [...(groups.get(topic) ?? []), e])
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([title, list]) => ({ title, entries: list }))
}

/** Entries whose text mentions every word of the query. */
export function filterEntries(entries: readonly CatalogueEntry[], query: string): CatalogueEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...entries]
  return entries.filter((e) => {
    const text = [
      e.id,
      e.title,
      e.paper,
      e.section,
      e.explanation,
      ...e.topics,
      ...e.variants.map((v) => v.label),
    ]
      .join(' ')
      .toLowerCase()
    return words.every((w) => text.includes(w))
  })
}
