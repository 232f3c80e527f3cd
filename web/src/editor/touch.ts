/**
 * Touch targets of the drawing on a phone: every node's and every link's hit area at
 * least 44 CSS px across (WCAG 2.5.5, "Target Size"), and no two node targets on top of each other.
 *
 * A node's target is a circle, a link's a band between the node targets at its ends. On a phone the
 * drawing first fits the screen's width; where its nodes stand too close for targets of that size
 * (ma-gfc's 23 nodes, the Ohsaki parking lots) it is drawn larger, in a pane that pans sideways.
 */
import type { Point } from '../topology/geometry'

/** Least width and height of a touch target, CSS px, with half a pixel to spare for rounding. */
export const TOUCH_PX = 44.5
/** The drawing is never drawn more than this many times wider than its pane. */
export const MAX_ZOOM = 4

export interface TouchGeometry {
  /** CSS px per drawing unit. */
  scale: number
  /** Width of the drawing, CSS px (more than the pane's when it must pan). */
  widthPx: number
  /** Radius of a node's target, drawing units. */
  nodeR: number
  /** Half-width of a link's target band, drawing units. */
  linkHalf: number
}

/**
 * The scale and target sizes for a drawing `width` units wide shown in a pane `paneWidthPx` wide.
 * `nodeR` and `linkHalf` are the sizes used with a mouse; touch targets are never smaller.
 */
export function touchGeometry(
  points: ReadonlyMap<string, Point>,
  links: readonly { a: string; b: string }[],
  width: number,
  paneWidthPx: number,
  nodeR: number,
  linkHalf: number,
): TouchGeometry {
  const base = paneWidthPx > 0 ? paneWidthPx / width : 1
  // Room each node has: half the distance to its nearest neighbour, and a quarter of its
  // shortest link (two node targets and the link's band, at least as long as a target, between).
  let room = Number.POSITIVE_INFINITY
  const all = [...points.values()]
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++)
      room = Math.min(room, Math.hypot(all[i].x - all[j].x, all[i].y - all[j].y) / 2)
  for (const l of links) {
    const a = points.get(l.a)
    const b = points.get(l.b)
    if (a && b) room = Math.min(room, Math.hypot(a.x - b.x, a.y - b.y) / 4)
  }
  if (!Number.isFinite(room) || room <= 0) room = nodeR
  const wanted = TOUCH_PX / 2 / room
  const scale = Math.min(MAX_ZOOM * base, Math.max(base, wanted))
  const half = TOUCH_PX / 2 / scale
  return {
    scale,
    widthPx: width * scale,
    nodeR: Math.min(Math.max(nodeR, half), Math.max(room, half)),
    linkHalf: Math.max(linkHalf, half),
  }
}
