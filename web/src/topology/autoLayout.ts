/**
 * Automatic placement for networks whose stored positions collide once fitted into the drawing
 * (two nodes on one spot in `ma-gfc`, destinations 60 units apart in the Ohsaki parking lots).
 *
 * The layout comes from dagre (@dagrejs/dagre 3), a maintained implementation of the layered
 * ("Sugiyama") method. It was chosen over ELK (elkjs) because these networks are small and
 * flow-shaped — sources on the left, a chain of switches, destinations on the right — which is
 * exactly what a layered layout draws; dagre does it synchronously in a few kB, where elkjs ships
 * a ~1.4 MB transpiled Java engine behind an asynchronous API (a worker) for layouts we do not need.
 * Links are directed the way traffic first crosses them (by the VCs' or flows' paths), so the
 * layers follow the data from source to destination.
 */
import dagre from '@dagrejs/dagre'
import type { Layout } from '../engine/layout'
import { fitDrawing, segmentDistance, type Point } from './geometry'

export interface PlacedNode {
  id: string
  kind: string
  x: number
  y: number
}

export interface LayoutBox {
  width: number
  height: number
  padding: number
  hostRadius: number
  switchHalf: number
}

/** Least distance between two node centres in the drawing, and between a node and a link it is not on. */
export function clearances(box: LayoutBox): { node: number; link: number } {
  const r = Math.max(box.hostRadius, box.switchHalf)
  return { node: 2 * r + 8, link: r + 4 }
}

/** Whether the nodes, fitted into the box, overlap each other or sit on a link they are not on. */
export function collides(
  nodes: readonly PlacedNode[],
  links: readonly { a: string; b: string }[],
  box: LayoutBox,
): boolean {
  const fit = fitDrawing(nodes, box.width, box.height, box.padding)
  const at = new Map(nodes.map((n) => [n.id, fit.place(n)]))
  const { node: nodeGap, link: linkGap } = clearances(box)
  const points = [...at.entries()]
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++) {
      const [, p] = points[i]
      const [, q] = points[j]
      if (Math.hypot(p.x - q.x, p.y - q.y) < nodeGap) return true
    }
  for (const link of links) {
    const a = at.get(link.a)
    const b = at.get(link.b)
    if (!a || !b) continue
    for (const [id, p] of points)
      if (id !== link.a && id !== link.b && segmentDistance(p, a, b) < linkGap) return true
  }
  return false
}

/**
 * The latest placements, by what they were computed from. The drawing and the editor both place
 * the same network, and the editor again with every edit of a parameter; with 200 sources one
 * layout took about 100 ms and 35–70 MB of short-lived objects (the page's memory). A
 * placement depends only on its inputs, so an answer is reused while they stay the same.
 */
const placements = new Map<string, ReadonlyMap<string, Point> | null>()
const PLACEMENTS_KEPT = 4

/**
 * New positions for every node (in drawing units, for `fitNodes`), laid out left to right along
 * the traffic; null when the stored ones are fine. `paths` are the VCs' (or flows') node paths.
 */
export function autoPositions(
  nodes: readonly PlacedNode[],
  links: readonly { a: string; b: string }[],
  paths: readonly (readonly string[])[],
  box: LayoutBox,
): ReadonlyMap<string, Point> | null {
  const key = JSON.stringify([
    nodes.map((n) => [n.id, n.kind, n.x, n.y]),
    links.map((l) => [l.a, l.b]),
    paths,
    box,
  ])
  const known = placements.get(key)
  if (known !== undefined) {
    // Most recently used last.
    placements.delete(key)
    placements.set(key, known)
    return known
  }
  const placed = computePositions(nodes, links, paths, box)
  placements.set(key, placed)
  if (placements.size > PLACEMENTS_KEPT) placements.delete(placements.keys().next().value as string)
  return placed
}

function computePositions(
  nodes: readonly PlacedNode[],
  links: readonly { a: string; b: string }[],
  paths: readonly (readonly string[])[],
  box: LayoutBox,
): Map<string, Point> | null {
  if (nodes.length < 2 || !collides(nodes, links, box)) return null
  const size = 2 * Math.max(box.hostRadius, box.switchHalf) + 4
  const g = new dagre.graphlib.Graph({ multigraph: true })
  g.setGraph({ rankdir: 'LR', nodesep: 50, ranksep: 40, marginx: 0, marginy: 0 })
  g.setDefaultEdgeLabel(() => ({}))
  for (const n of nodes) g.setNode(n.id, { width: size, height: size })
  // Each link directed the way the first path that uses it crosses it.
  const direction = new Map<string, [string, string]>()
  for (const path of paths)
    for (let k = 1; k < path.length; k++) {
      const [a, b] = [path[k - 1], path[k]]
      const key = a < b ? `${a}|${b}` : `${b}|${a}`
      if (!direction.has(key)) direction.set(key, [a, b])
    }
  links.forEach((link, i) => {
    const key = link.a < link.b ? `${link.a}|${link.b}` : `${link.b}|${link.a}`
    const [from, to] = direction.get(key) ?? [link.a, link.b]
    if (g.hasNode(from) && g.hasNode(to) && from !== to) g.setEdge(from, to, {}, `l${i}`)
  })
  dagre.layout(g)
  const out = new Map<string, Point>()
  for (const n of nodes) {
    const p = g.node(n.id) as { x?: number; y?: number } | undefined
    out.set(n.id, { x: p?.x ?? 0, y: p?.y ?? 0 })
  }
  return out
}

/** The nodes at their automatic positions when the stored ones collide, else as they are. */
export function placeNodes<N extends PlacedNode>(
  nodes: readonly N[],
  links: readonly { a: string; b: string }[],
  paths: readonly (readonly string[])[],
  box: LayoutBox,
): N[] {
  const auto = autoPositions(nodes, links, paths, box)
  if (!auto) return [...nodes]
  return nodes.map((n) => {
    const p = auto.get(n.id)
    return p ? { ...n, x: p.x, y: p.y } : n
  })
}

/** The node paths traffic takes: the VCs' (cell model) or the flows' (packet model). */
export function trafficPaths(layout: Pick<Layout, 'vcs' | 'flows'>): string[][] {
  return layout.vcs.length > 0
    ? layout.vcs.map((v) => v.path)
    : (layout.flows ?? []).map((f) => f.path)
}

/** A layout with its nodes where the drawing shows them (automatic when the stored ones collide). */
export function placedLayout(layout: Layout, box: LayoutBox): Layout {
  const nodes = placeNodes(layout.nodes, layout.links, trafficPaths(layout), box)
  return nodes.every((n, i) => n === layout.nodes[i]) ? layout : { ...layout, nodes }
}
