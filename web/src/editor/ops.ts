/**
 * The topology editor's edits as pure functions: each takes a scenario document and returns a new
 * one, or refuses with a sentence saying why (shown beside the element concerned). They check what
 * they can see locally (a VC must start and end at hosts and follow links; a link joins two
 * different nodes once); the Lab applies them for the structural operations (lab/operation.ts)
 * and the engine worker validates the whole result before it is accepted (lab/carry.ts), so
 * nothing invalid ever reaches the run.
 */
import {
  docBackground,
  docLinks,
  docNodes,
  docVcs,
  freshId,
  linkBetween,
  routeUsesLink,
  type DocNode,
  type NodeKind,
  type Selection,
} from '../scenario/doc'
import { segmentDistance } from '../topology/geometry'
import {
  cloneJson,
  isObject,
  PathError,
  setPath,
  type Json,
  type JsonObject,
} from '../scenario/paths'

export type Edit =
  | {
      ok: true
      scenario: JsonObject
      /** What the edit did, for undo/redo and the status line: "Add link SW1–SW3". */
      label: string
      /** What else changed with it (removed VCs, dropped variants), if anything. */
      detail?: string
      /** What to select afterwards; undefined keeps the selection. */
      select?: Selection | null
    }
  | { ok: false; message: string }

const refuse = (message: string): Edit => ({ ok: false, message })

function array(doc: JsonObject, key: string): Json[] {
  const value = doc[key]
  if (Array.isArray(value)) return value
  const fresh: Json[] = []
  doc[key] = fresh
  return fresh
}

function node(doc: JsonObject, id: string): DocNode | undefined {
  return docNodes(doc).find((n) => n.id === id)
}

/** A position rounded to a tenth of a unit, so files stay tidy. */
function tidy(value: number): number {
  return Math.round(value * 10) / 10
}

export function moveNode(doc: JsonObject, id: string, x: number, y: number): Edit {
  const copy = cloneJson(doc)
  const target = array(copy, 'nodes').find((n) => isObject(n) && n.id === id)
  if (!isObject(target)) return refuse(`there is no node ${id}`)
  target.x = tidy(x)
  target.y = tidy(y)
  return { ok: true, scenario: copy, label: `Move ${id}` }
}

/**
 * The document with every node at the given position (the drawing's automatic layout, adopted
 * when the author first moves or adds a node, so that the file's positions stop colliding).
 */
export function adoptPositions(
  doc: JsonObject,
  at: ReadonlyMap<string, { x: number; y: number }>,
): JsonObject {
  const copy = cloneJson(doc)
  for (const n of array(copy, 'nodes')) {
    const p = isObject(n) && typeof n.id === 'string' ? at.get(n.id) : undefined
    if (isObject(n) && p) {
      n.x = tidy(p.x)
      n.y = tidy(p.y)
    }
  }
  return copy
}

/**
 * A place for a new node: near the middle of the drawing but clear of every node and of every
 * link (a node dropped on a link would look connected to it), searched on a spiral in scenario units.
 */
export function freeSpot(doc: JsonObject): { x: number; y: number } {
  const nodes = docNodes(doc)
  if (nodes.length === 0) return { x: 0, y: 0 }
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const segments = docLinks(doc)
    .map((l) => [byId.get(l.a), byId.get(l.b)] as const)
    .filter((s): s is readonly [DocNode, DocNode] => s[0] !== undefined && s[1] !== undefined)
  const xs = nodes.map((n) => n.x)
  const ys = nodes.map((n) => n.y)
  const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 100)
  const clearance = span * 0.12
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2
  const cy = (Math.max(...ys) + Math.min(...ys)) / 2
  for (let k = 0; k < 400; k++) {
    const angle = k * 2.399963 // the golden angle: an even spread
    const radius = clearance * 0.5 * Math.sqrt(k)
    const p = { x: cx + radius * Math.cos(angle), y: cy + radius * Math.sin(angle) }
    if (
      nodes.every((n) => Math.hypot(n.x - p.x, n.y - p.y) >= clearance) &&
      segments.every(([a, b]) => segmentDistance(p, a, b) >= clearance * 0.6)
    )
      return { x: tidy(p.x), y: tidy(p.y) }
  }
  return { x: tidy(cx), y: tidy(cy + span * 0.6) }
}

export function addNode(doc: JsonObject, kind: NodeKind, at: { x: number; y: number }): Edit {
  const copy = cloneJson(doc)
  const id = freshId(
    kind === 'host' ? 'H' : 'SW',
    docNodes(copy).map((n) => n.id),
  )
  array(copy, 'nodes').push({ id, kind, x: tidy(at.x), y: tidy(at.y) })
  return { ok: true, scenario: copy, label: `Add ${kind} ${id}`, select: { kind: 'node', id } }
}

/**
 * Drops the variants whose paths no longer lead anywhere (they named a removed VC or link), so
 * that the scenario stays valid; returns their labels.
 */
function pruneVariants(doc: JsonObject): string[] {
  const variants = doc.variants
  if (!Array.isArray(variants)) return []
  const dropped: string[] = []
  doc.variants = variants.filter((variant) => {
    if (!isObject(variant) || !isObject(variant.set)) return true
    const probe = cloneJson(doc)
    try {
      for (const [path, value] of Object.entries(variant.set)) setPath(probe, path, value)
      return true
    } catch (error) {
      if (!(error instanceof PathError)) throw error
      dropped.push(typeof variant.label === 'string' ? variant.label : String(variant.id))
      return false
    }
  })
  return dropped
}

/**
 * Forgets what narrated stops would show of elements that are gone (a selection, a magnified
 * port), so that the scenario stays valid and each stop keeps its note.
 */
function pruneStopViews(doc: JsonObject): void {
  const stops = doc.stops
  if (!Array.isArray(stops)) return
  const flows = Array.isArray(doc.flows) ? doc.flows : []
  const elements = new Set<string>([
    ...docNodes(doc).map((n) => n.id),
    ...docLinks(doc).map((l) => l.id),
    ...docVcs(doc).map((v) => v.id),
    ...docBackground(doc).map((b) => b.id),
    ...flows.filter(isObject).map((f) => String(f.id)),
  ])
  const links = new Set(docLinks(doc).map((l) => l.id))
  for (const stop of stops) {
    if (!isObject(stop) || !isObject(stop.view)) continue
    const view = stop.view
    if (typeof view.selection === 'string' && !elements.has(view.selection)) delete view.selection
    if (typeof view.magnify === 'string' && !links.has(view.magnify.replace(/:rev$/, '')))
      delete view.magnify
  }
}

/** Removes what named removed elements (variants, stop views); returns the dropped variants. */
function pruneDangling(doc: JsonObject): string[] {
  pruneStopViews(doc)
  return pruneVariants(doc)
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

/** Removes the VCs and background sources for which `uses(path)` holds; describes what went. */
function removeRoutes(doc: JsonObject, uses: (path: readonly string[]) => boolean): string[] {
  const parts: string[] = []
  const gone = docVcs(doc)
    .filter((v) => uses(v.path))
    .map((v) => v.id)
  if (gone.length > 0) {
    doc.vcs = array(doc, 'vcs').filter((v) => !(isObject(v) && gone.includes(String(v.id))))
    parts.push(`${gone.length === 1 ? 'VC' : 'VCs'} ${gone.join(', ')}`)
  }
  const bg = docBackground(doc)
    .filter((b) => uses(b.path))
    .map((b) => b.id)
  if (bg.length > 0) {
    doc.background = array(doc, 'background').filter(
      (b) => !(isObject(b) && bg.includes(String(b.id))),
    )
    parts.push(`background ${bg.join(', ')}`)
  }
  return parts
}

function detailOf(removed: string[], droppedVariants: string[]): string | undefined {
  const parts = [...removed]
  if (droppedVariants.length > 0)
    parts.push(`${plural(droppedVariants.length, 'variant')} (${droppedVariants.join('; ')})`)
  return parts.length > 0 ? `also removed ${parts.join(', ')}` : undefined
}

export function removeNode(doc: JsonObject, id: string): Edit {
  if (!node(doc, id)) return refuse(`there is no node ${id}`)
  const copy = cloneJson(doc)
  const links = docLinks(copy).filter((l) => l.a === id || l.b === id)
  const removed = removeRoutes(copy, (path) => path.includes(id))
  copy.links = array(copy, 'links').filter((l) => !(isObject(l) && (l.a === id || l.b === id)))
  copy.nodes = array(copy, 'nodes').filter((n) => !(isObject(n) && n.id === id))
  if (links.length > 0)
    removed.unshift(`${links.length === 1 ? 'link' : 'links'} ${links.map((l) => l.id).join(', ')}`)
  return {
    ok: true,
    scenario: copy,
    label: `Remove ${id}`,
    detail: detailOf(removed, pruneDangling(copy)),
    select: null,
  }
}

/** Default rate and length of a new link: the registry's link defaults. */
export interface LinkDefaults {
  rate_mbps: number
  length_km: number
}

export function addLink(doc: JsonObject, a: string, b: string, defaults: LinkDefaults): Edit {
  if (a === b) return refuse('a link joins two different nodes: pick another one')
  if (!node(doc, a)) return refuse(`there is no node ${a}`)
  if (!node(doc, b)) return refuse(`there is no node ${b}`)
  const existing = linkBetween(doc, a, b)
  if (existing) return refuse(`${a} and ${b} are already joined by link ${existing.id}`)
  const copy = cloneJson(doc)
  const id = freshId(
    'l',
    docLinks(copy).map((l) => l.id),
  )
  array(copy, 'links').push({
    id,
    a,
    b,
    rate_mbps: defaults.rate_mbps,
    length_km: defaults.length_km,
  })
  return { ok: true, scenario: copy, label: `Add link ${a}–${b}`, select: { kind: 'link', id } }
}

export function removeLink(doc: JsonObject, id: string): Edit {
  const link = docLinks(doc).find((l) => l.id === id)
  if (!link) return refuse(`there is no link ${id}`)
  const copy = cloneJson(doc)
  const removed = removeRoutes(copy, (path) => routeUsesLink(path, link.a, link.b))
  copy.links = array(copy, 'links').filter((l) => !(isObject(l) && l.id === id))
  return {
    ok: true,
    scenario: copy,
    label: `Remove link ${id}`,
    detail: detailOf(removed, pruneDangling(copy)),
    select: null,
  }
}

/**
 * Why a path cannot carry a VC, or null when it can: it runs from a host through switches to a
 * different host, along links, without visiting a node twice (the engine's `read_path` rules).
 */
export function pathProblem(doc: JsonObject, path: readonly string[]): string | null {
  if (path.length < 2)
    return 'a VC needs a path: a source host, the switches along the way and a destination host'
  const nodes = new Map(docNodes(doc).map((n) => [n.id, n]))
  for (let i = 0; i < path.length; i++) {
    const n = nodes.get(path[i])
    if (!n) return `there is no node ${path[i]}`
    const end = i === 0 || i === path.length - 1
    if (end && n.kind !== 'host') return `${n.id} is a switch: a VC starts and ends at a host`
    if (!end && n.kind !== 'switch')
      return `${n.id} is a host: only switches may be in the middle of a path`
    if (path.indexOf(path[i]) !== i) return `${n.id} is on the path twice: a path may not loop`
    if (i > 0 && !linkBetween(doc, path[i - 1], path[i]))
      return `no link joins ${path[i - 1]} and ${path[i]}`
  }
  return null
}

/**
 * The shortest way from `from` to the host `to` through switches only (breadth first), both ends
 * included, or null when there is none. Used to complete a VC when its destination is picked.
 */
export function shortestSwitchPath(
  doc: JsonObject,
  from: string,
  to: string,
  avoid: readonly string[] = [],
): string[] | null {
  const kinds = new Map(docNodes(doc).map((n) => [n.id, n.kind]))
  const neighbours = new Map<string, string[]>()
  for (const l of docLinks(doc)) {
    neighbours.set(l.a, [...(neighbours.get(l.a) ?? []), l.b])
    neighbours.set(l.b, [...(neighbours.get(l.b) ?? []), l.a])
  }
  const previous = new Map<string, string>([[from, '']])
  const queue = [from]
  for (let head = 0; head < queue.length; head++) {
    const here = queue[head]
    for (const next of neighbours.get(here) ?? []) {
      if (previous.has(next) || avoid.includes(next)) continue
      if (next === to) {
        const path = [to]
        for (let at = here; at !== ''; at = previous.get(at) ?? '') path.unshift(at)
        return path
      }
      if (kinds.get(next) !== 'switch') continue
      previous.set(next, here)
      queue.push(next)
    }
  }
  return null
}

export function addVc(doc: JsonObject, path: readonly string[]): Edit {
  const problem = pathProblem(doc, path)
  if (problem) return refuse(problem)
  const copy = cloneJson(doc)
  const id = freshId(
    'vc',
    docVcs(copy).map((v) => v.id),
  )
  array(copy, 'vcs').push({ id, path: [...path], traffic: { kind: 'persistent', start_ms: 0 } })
  return {
    ok: true,
    scenario: copy,
    label: `Add ${id} ${path[0]}→${path[path.length - 1]}`,
    select: { kind: 'vc', id },
  }
}

export function removeVc(doc: JsonObject, id: string): Edit {
  if (!docVcs(doc).some((v) => v.id === id)) return refuse(`there is no VC ${id}`)
  const copy = cloneJson(doc)
  copy.vcs = array(copy, 'vcs').filter((v) => !(isObject(v) && v.id === id))
  return {
    ok: true,
    scenario: copy,
    label: `Remove ${id}`,
    detail: detailOf([], pruneDangling(copy)),
    select: null,
  }
}

/** Removes whatever is selected. */
export function removeSelected(doc: JsonObject, selection: Selection): Edit {
  switch (selection.kind) {
    case 'node':
      return removeNode(doc, selection.id)
    case 'link':
      return removeLink(doc, selection.id)
    case 'vc':
      return removeVc(doc, selection.id)
  }
}
