/**
 * The scenario library as a catalogue: every file of scenarios/, with its paper and section and
 * the topics it touches, grouped for browsing by paper or by topic.
 *
 * Scenario files carry no topic field, so topics are read from what a file does: the switch
 * algorithms it runs, the parameters its variants vary (named as the registry names them), and
 * its traffic (background sources, bidirectional VCs, traffic models other than persistent).
 */
import type { EngineInfo } from '../scenario/engineInfo'
import { library as bundled } from '../scenario/library'
import { isObject, type Json, type JsonObject } from '../scenario/paths'

export interface CatalogueEntry {
  id: string
  title: string
  /** The paper, without the section: "Fahmy, Jain, Goyal & Vandalore, ABR Engineering (seed 001)". */
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

/** Splits "Authors, Title (seed 001) §4.2.1, Figure 4" at the section mark. */
export function splitPaper(text: string): { paper: string; section: string } {
  const mark = text.search(/\s(§|slide\b)/)
  if (mark >= 0) return { paper: text.slice(0, mark).replace(/,\s*$/, '').trim(), section: text.slice(mark + 1).trim() }
  const seed = /^(.*\(seed \d+\))[,\s]*(.*)$/.exec(text)
  if (seed) return { paper: seed[1].trim(), section: seed[2].trim() }
  return { paper: text.trim() || 'Other scenarios', section: '' }
}

function strings(value: Json | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

function objects(value: Json | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : []
}

/** The topics of a scenario, as described in the file comment. */
export function topicsOf(scenario: JsonObject, info: EngineInfo | null): string[] {
  const topics = new Set<string>()
  const algorithms = new Set<string>()
  const visit = (value: Json | undefined) => {
    if (isObject(value) && isObject(value.algorithm) && typeof value.algorithm.kind === 'string') algorithms.add(value.algorithm.kind)
  }
  if (isObject(scenario.defaults)) {
    visit(scenario.defaults.switch_port)
    visit(scenario.defaults.host_port)
  }
  for (const link of objects(scenario.links)) {
    visit(link.a_to_b)
    visit(link.b_to_a)
  }
  algorithms.delete('none')
  for (const kind of algorithms) topics.add(`${kind.toUpperCase()} switches`)

  for (const variant of objects(scenario.variants)) {
    if (!isObject(variant.set)) continue
    for (const path of Object.keys(variant.set)) {
      const key = path.split('.').pop() ?? path
      const spec = info?.registry.find((p) => p.key === key && p.scope !== 'traffic' && p.scope !== 'background')
      topics.add(spec ? spec.label : key)
    }
  }
  const vcs = objects(scenario.vcs)
  if (objects(scenario.background).length > 0) topics.add('Background CBR/VBR')
  if (vcs.some((vc) => vc.bidirectional === true)) topics.add('Bidirectional VCs')
  for (const vc of vcs) {
    const kind = isObject(vc.traffic) ? vc.traffic.kind : undefined
    if (typeof kind === 'string' && kind !== 'persistent') topics.add(`${kind.replace(/_/g, '/')} traffic`)
    if (typeof vc.startup === 'string' && vc.startup !== 'atm_forum') topics.add('Start-up options')
  }
  if (vcs.length >= 8) topics.add('Many VCs')
  return [...topics]
}

/** Reads every bundled scenario into catalogue entries, ordered by paper and section. */
export function buildCatalogue(info: EngineInfo | null, files: ReadonlyMap<string, string> = bundled): CatalogueEntry[] {
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
      thingsToTry: strings(scenario.things_to_try),
      variants: objects(scenario.variants).map((v) => ({ id: String(v.id), label: typeof v.label === 'string' ? v.label : String(v.id) })),
      topics: topicsOf(scenario, info),
      scenario,
    })
  }
  return entries.sort((a, b) => a.paper.localeCompare(b.paper) || a.section.localeCompare(b.section, 'en', { numeric: true }) || a.id.localeCompare(b.id))
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
    for (const topic of e.topics.length > 0 ? e.topics : ['Other']) groups.set(topic, [...(groups.get(topic) ?? []), e])
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([title, list]) => ({ title, entries: list }))
}

/** Entries whose text mentions every word of the query. */
export function filterEntries(entries: readonly CatalogueEntry[], query: string): CatalogueEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...entries]
  return entries.filter((e) => {
    const text = [e.id, e.title, e.paper, e.section, e.explanation, ...e.topics, ...e.variants.map((v) => v.label)].join(' ').toLowerCase()
    return words.every((w) => text.includes(w))
  })
}
