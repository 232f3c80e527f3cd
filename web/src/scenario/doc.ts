/**
 * Typed reading of a scenario document (the JSON of a scenario file, as the editor holds it).
 * The document stays plain JSON so that it round-trips to a file, a share link and the engine
 * unchanged; these helpers only read it, defensively, since a document may come from anywhere.
 * See scenarios/README.md for the format.
 */
import { isObject, type Json, type JsonObject } from './paths'

export type NodeKind = 'host' | 'switch'

/** What is selected in the editor: a node, a link or a VC of the document, by id. */
export interface Selection {
  kind: 'node' | 'link' | 'vc'
  id: string
}

export interface DocNode {
  id: string
  kind: NodeKind
  x: number
  y: number
}

export interface DocLink {
  id: string
  a: string
  b: string
}

export interface DocRoute {
  id: string
  path: string[]
}

function list(doc: JsonObject, key: string): JsonObject[] {
  const value = doc[key]
  return Array.isArray(value) ? value.filter(isObject) : []
}

function str(value: Json | undefined): string {
  return typeof value === 'string' ? value : ''
}

function num(value: Json | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

export function docNodes(doc: JsonObject): DocNode[] {
  return list(doc, 'nodes').map((n) => ({
    id: str(n.id),
    kind: n.kind === 'switch' ? 'switch' : 'host',
    x: num(n.x),
    y: num(n.y),
  }))
}

export function docLinks(doc: JsonObject): DocLink[] {
  return list(doc, 'links').map((l) => ({ id: str(l.id), a: str(l.a), b: str(l.b) }))
}

function routes(doc: JsonObject, key: 'vcs' | 'background'): DocRoute[] {
  return list(doc, key).map((v) => ({
    id: str(v.id),
    path: Array.isArray(v.path) ? v.path.filter((p): p is string => typeof p === 'string') : [],
  }))
}

export function docVcs(doc: JsonObject): DocRoute[] {
  return routes(doc, 'vcs')
}

export function docBackground(doc: JsonObject): DocRoute[] {
  return routes(doc, 'background')
}

/** The element of `doc[key]` with this id, or undefined. */
export function findById(doc: JsonObject, key: string, id: string): JsonObject | undefined {
  return list(doc, key).find((item) => item.id === id)
}

/** The link joining two nodes, either way round. */
export function linkBetween(doc: JsonObject, a: string, b: string): DocLink | undefined {
  return docLinks(doc).find((l) => (l.a === a && l.b === b) || (l.a === b && l.b === a))
}

/** The first id `<prefix><n>` (n = 1, 2, …) not among `taken`. */
export function freshId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken)
  for (let n = 1; ; n++) {
    const id = `${prefix}${n}`
    if (!used.has(id)) return id
  }
}

/** True when a route's consecutive nodes include the pair (a, b) in either order. */
export function routeUsesLink(path: readonly string[], a: string, b: string): boolean {
  for (let i = 1; i < path.length; i++) {
    if ((path[i - 1] === a && path[i] === b) || (path[i - 1] === b && path[i] === a)) return true
  }
  return false
}
