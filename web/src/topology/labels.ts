/**
 * Labels that never overlap: each label offers a few candidate spots in order of preference and
 * takes the first whose box (estimated from its text and font size, in drawing units) is clear of
 * every node and every label placed before it; a label with no clear spot is left out (its text
 * stays in the link's or node's tooltip). Greedy placement in priority order, as map labelling
 * does it cheaply (Christensen, Marks & Shieber's "greedy" baseline).
 */
import { gaugeArea } from '../animation/scene'
import type { Point } from './geometry'

export interface Box {
  x: number
  y: number
  w: number
  h: number
}

/** Average advance of a character of the drawing's sans-serif at `size`, as a fraction of it. */
const CHAR_WIDTH = 0.6

export type Anchor = 'start' | 'middle' | 'end'

/** The box of a one-line text at `at` (SVG anchor, central baseline), turned by `angle` degrees. */
export function textBox(
  text: string,
  size: number,
  at: Point,
  anchor: Anchor = 'middle',
  angle = 0,
): Box {
  const w = text.length * size * CHAR_WIDTH
  const h = size * 1.25
  const left = anchor === 'start' ? 0 : anchor === 'middle' ? -w / 2 : -w
  if (angle === 0) return { x: at.x + left, y: at.y - h / 2, w, h }
  // The bounding box of the turned rectangle (about `at`).
  const t = (angle * Math.PI) / 180
  const corners = [
    [left, -h / 2],
    [left + w, -h / 2],
    [left, h / 2],
    [left + w, h / 2],
  ].map(([x, y]) => ({
    x: at.x + x * Math.cos(t) - y * Math.sin(t),
    y: at.y + x * Math.sin(t) + y * Math.cos(t),
  }))
  const xs = corners.map((c) => c.x)
  const ys = corners.map((c) => c.y)
  return {
    x: Math.min(...xs),
    y: Math.min(...ys),
    w: Math.max(...xs) - Math.min(...xs),
    h: Math.max(...ys) - Math.min(...ys),
  }
}

export function intersects(a: Box, b: Box, margin = 1): boolean {
  return (
    a.x < b.x + b.w + margin &&
    b.x < a.x + a.w + margin &&
    a.y < b.y + b.h + margin &&
    b.y < a.y + a.h + margin
  )
}

/** Places labels one by one, each clear of the obstacles and of the labels placed before it. */
export class LabelPlacer {
  private readonly taken: Box[]

  constructor(
    obstacles: readonly Box[],
    private readonly bounds: Box,
  ) {
    this.taken = [...obstacles]
  }

  /** The index of the first candidate that fits (and reserves it), or -1 when none does. */
  place(candidates: readonly Box[]): number {
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[i]
      const inside =
        c.x >= this.bounds.x &&
        c.y >= this.bounds.y &&
        c.x + c.w <= this.bounds.x + this.bounds.w &&
        c.y + c.h <= this.bounds.y + this.bounds.h
      if (inside && !this.taken.some((t) => intersects(t, c))) {
        this.taken.push(c)
        return i
      }
    }
    return -1
  }
}

/** The areas the animation's ACR gauges take at each source (animation/scene.ts): obstacles. */
export function gaugeBoxes(
  vcs: readonly { source: string }[],
  pos: ReadonlyMap<string, Point>,
  middleY: number,
  hostRadius: number,
): Box[] {
  const counts = new Map<string, number>()
  for (const vc of vcs) counts.set(vc.source, (counts.get(vc.source) ?? 0) + 1)
  return [...counts].flatMap(([node, n]) => {
    const p = pos.get(node)
    return p ? [gaugeArea(p, n, middleY, hostRadius)] : []
  })
}
