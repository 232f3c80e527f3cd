/** Placement of the topology drawing: scenario coordinates → SVG coordinates. */
import type { LayoutNode } from '../engine/layout'

export interface Point {
  x: number
  y: number
}

export interface Fit {
  width: number
  height: number
  /** Maps a scenario position to the drawing. */
  place(node: Pick<LayoutNode, 'x' | 'y'>): Point
}

/**
 * Scales node positions uniformly into a width×height box with `padding` on every side, centred.
 * Scenario coordinates are in arbitrary units (the file's author chose them); only their
 * proportions matter. A single node, or nodes on one line, are centred rather than stretched.
 */
export function fitNodes(
  nodes: readonly Pick<LayoutNode, 'x' | 'y'>[],
  width: number,
  height: number,
  padding: number,
): Fit {
  if (nodes.length === 0) return { width, height, place: () => ({ x: width / 2, y: height / 2 }) }
  const xs = nodes.map((n) => n.x)
  const ys = nodes.map((n) => n.y)
  const minX = Math.min(...xs)
  const maxX = Math.max(...xs)
  const minY = Math.min(...ys)
  const maxY = Math.max(...ys)
  const spanX = maxX - minX
  const spanY = maxY - minY
  const innerW = Math.max(1, width - 2 * padding)
  const innerH = Math.max(1, height - 2 * padding)
  const scale = Math.min(
    spanX > 0 ? innerW / spanX : Infinity,
    spanY > 0 ? innerH / spanY : Infinity,
  )
  const k = Number.isFinite(scale) ? scale : 1
  const offsetX = (width - spanX * k) / 2
  const offsetY = (height - spanY * k) / 2
  return {
    width,
    height,
    place: (n) => ({ x: offsetX + (n.x - minX) * k, y: offsetY + (n.y - minY) * k }),
  }
}

/** The tallest the drawing gets (drawing units; it is 560 wide), for a crowded network. */
export const MAX_DRAWING_HEIGHT = 620

/**
 * The drawing's height for these nodes: `height` unless the network, scaled to fill the width,
 * needs more room (a tall automatic layout), then up to MAX_DRAWING_HEIGHT. Every layer over the
 * drawing derives it the same way, from the node positions alone.
 */
export function drawingHeight(
  nodes: readonly Pick<LayoutNode, 'x' | 'y'>[],
  width: number,
  height: number,
  padding: number,
): number {
  if (nodes.length < 2) return height
  const ys = nodes.map((n) => n.y)
  const xs = nodes.map((n) => n.x)
  const spanX = Math.max(...xs) - Math.min(...xs)
  const spanY = Math.max(...ys) - Math.min(...ys)
  if (spanY <= 0) return height
  const scale = spanX > 0 ? (width - 2 * padding) / spanX : 1
  return Math.round(Math.max(height, Math.min(MAX_DRAWING_HEIGHT, spanY * scale + 2 * padding)))
}

/** Fits nodes into the drawing: `width` wide, as tall as `drawingHeight` says. */
export function fitDrawing(
  nodes: readonly Pick<LayoutNode, 'x' | 'y'>[],
  width: number,
  height: number,
  padding: number,
): Fit {
  return fitNodes(nodes, width, drawingHeight(nodes, width, height, padding), padding)
}

/** The point `distance` px from a towards b, pushed `offset` px to the left of a→b. */
export function stepFrom(a: Point, b: Point, distance: number, offset = 0): Point {
  const length = Math.hypot(b.x - a.x, b.y - a.y) || 1
  return along(a, b, distance / length, offset)
}

/** Unit normal to the left of the direction a→b (SVG y points down). */
export function leftNormal(a: Point, b: Point): Point {
  const dx = b.x - a.x
  const dy = b.y - a.y
  const len = Math.hypot(dx, dy) || 1
  return { x: dy / len, y: -dx / len }
}

/** The point a fraction `f` of the way from a to b, pushed `offset` px to the left of a→b. */
export function along(a: Point, b: Point, f: number, offset = 0): Point {
  const n = leftNormal(a, b)
  return { x: a.x + (b.x - a.x) * f + n.x * offset, y: a.y + (b.y - a.y) * f + n.y * offset }
}

/** Distance from p to the segment a–b. */
export function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x
  const dy = b.y - a.y
  const len2 = dx * dx + dy * dy
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy))
}

/** The mean position of some points. */
export function centroid(points: readonly Point[]): Point {
  if (points.length === 0) return { x: 0, y: 0 }
  const sum = points.reduce((acc, p) => ({ x: acc.x + p.x, y: acc.y + p.y }), { x: 0, y: 0 })
  return { x: sum.x / points.length, y: sum.y / points.length }
}

/**
 * Where to write a link's label: beside its midpoint, on the side facing away from the middle of
 * the drawing (above, when the link passes through the middle), turned to run along the link but
 * never upside down.
 */
export function linkLabelPlacement(
  a: Point,
  b: Point,
  middle: Point,
  offset: number,
): { at: Point; angle: number } {
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }
  let n = leftNormal(a, b)
  const away = { x: mid.x - middle.x, y: mid.y - middle.y }
  const dot = n.x * away.x + n.y * away.y
  if (Math.hypot(away.x, away.y) < 1 ? n.y > 0 : dot < 0) n = { x: -n.x, y: -n.y }
  let angle = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI
  if (angle > 90) angle -= 180
  if (angle <= -90) angle += 180
  return { at: { x: mid.x + n.x * offset, y: mid.y + n.y * offset }, angle }
}

/** Formats a link rate: "155.52 Mbit/s". */
export function formatRate(mbps: number): string {
  return `${Number(mbps.toFixed(2))} Mbit/s`
}

/** Formats a propagation delay: "5 ms", "10 µs". */
export function formatDelay(ms: number): string {
  if (ms >= 1) return `${Number(ms.toFixed(3))} ms`
  return `${Number((ms * 1000).toFixed(3))} µs`
}

/** "155.52 Mbit/s · 5 ms": how a link is labelled. */
export function linkCaption(link: { rate_mbps: number; delay_ms: number }): string {
  return `${formatRate(link.rate_mbps)} · ${formatDelay(link.delay_ms)}`
}

/**
 * The caption most links share (ties go to the first link's), so the drawing can state it once
 * and label only the links that differ; undefined when there are no links.
 */
export function commonLinkCaption(
  links: readonly { rate_mbps: number; delay_ms: number }[],
): string | undefined {
  const counts = new Map<string, number>()
  for (const link of links) {
    const caption = linkCaption(link)
    counts.set(caption, (counts.get(caption) ?? 0) + 1)
  }
  let best: string | undefined
  let bestCount = 0
  for (const [caption, count] of counts) {
    if (count > bestCount) {
      best = caption
      bestCount = count
    }
  }
  return best
}
