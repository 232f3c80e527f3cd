/**
 * The editing layer's geometry: its box, the sizes of its hit areas, and the conversions between
 * the drawing's coordinates, the pointer's and the scenario's.
 */
import { along, type Fit, type Point } from '../topology/geometry'
import { TOPOLOGY_BOX } from '../topology/TopologyView'

export const { width: W, height: BOX_H, padding: PAD } = TOPOLOGY_BOX
/** Hit radius of a node, and how far from the edge a dragged node may go. */
export const NODE_R = 24
/** Pixels of drawing an arrow key moves a node (Shift: one pixel). */
export const NUDGE = 8
/** Pointer travel below which a press is a click, not a drag. */
export const CLICK_SLOP = 3
/** Half-width of a link's hit area. */
export const LINK_HIT = 8

/** The inverse of a fit: drawing coordinates back to scenario units. */
export function unplace(fit: Fit, p: Point): Point {
  const o = fit.place({ x: 0, y: 0 })
  const k = fit.place({ x: 1, y: 0 }).x - o.x || 1
  return { x: (p.x - o.x) / k, y: (p.y - o.y) / k }
}

/** A pointer's client coordinates in the drawing's. */
export function svgPoint(svg: SVGSVGElement, clientX: number, clientY: number): Point {
  const matrix = svg.getScreenCTM()
  if (!matrix) return { x: clientX, y: clientY }
  const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse())
  return { x: p.x, y: p.y }
}

/** The corners of a band of half-width `half` along a→b, as SVG polygon points. */
export function band(a: Point, b: Point, half: number): string {
  return [along(a, b, 0, half), along(a, b, 1, half), along(a, b, 1, -half), along(a, b, 0, -half)]
    .map((p) => `${p.x},${p.y}`)
    .join(' ')
}

/** Keeps a node's centre inside the drawing. */
export const clampX = (x: number) => Math.min(W - NODE_R, Math.max(NODE_R, x))
export const clampY = (y: number, h: number) => Math.min(h - NODE_R, Math.max(NODE_R, y))
