/** The topology drawing's coordinate box, node sizes, fonts and inks, shared by its layers. */
import type { Point } from './geometry'

/** The drawing's coordinate box and node sizes, for layers drawn over it (the editor, the cell animation). */
export const TOPOLOGY_BOX = {
  width: 560,
  height: 300,
  padding: 56,
  hostRadius: 20,
  switchHalf: 22,
} as const
export const {
  width: WIDTH,
  height: HEIGHT,
  padding: PADDING,
  hostRadius: HOST_R,
  switchHalf: SWITCH_HALF,
} = TOPOLOGY_BOX
/** Spacing between parallel VC routes drawn along a shared link. */
export const ROUTE_GAP = 6
export const INK = '#1b1f24'

/** Font sizes (drawing units) of the drawing's texts: link labels, the common caption, ACR and
 * queue labels, bundle badges and node names. */
export const FONT = { link: 12, caption: 13, acr: 14, queue: 12, badge: 12, node: 13 } as const
export type Fonts = { readonly [K in keyof typeof FONT]: number }

/** The drawing's fonts, none under `min` units (presentation mode keeps every label large). */
export function fontsAtLeast(min: number): Fonts {
  const at = (size: number) => Math.max(size, min)
  return {
    link: at(FONT.link),
    caption: at(FONT.caption),
    acr: at(FONT.acr),
    queue: at(FONT.queue),
    badge: at(FONT.badge),
    node: at(FONT.node),
  }
}

/**
 * Width of a character of a bold sans-serif name, in ems: the widest of the usual faces (DejaVu
 * Sans Bold sets "SW1" at 2.54 em, "S1" at 1.45, "DES1" at 2.96), so that a name sized by it fits.
 */
function nameEms(id: string): number {
  let ems = 0
  for (const ch of id) {
    if (/[WM]/.test(ch)) ems += 1.05
    else if (/[A-Z]/.test(ch)) ems += 0.8
    else if (/[0-9]/.test(ch)) ems += 0.7
    else if (/[wm]/.test(ch)) ems += 1
    else ems += 0.65
  }
  return Math.max(ems, 1)
}

/**
 * The font size (drawing units) of a node's name: `size`, or less when the name would overrun its
 * node's shape at that size (presentation mode asks for large labels on a small drawing), yet never
 * under the drawing's own node size.
 */
export function nodeNameFont(id: string, isSwitch: boolean, size: number): number {
  // A name's capitals are about 0.7 em high: a circle's chord at their top and foot is nearly its
  // diameter, so a host lends almost all of it; a switch keeps a margin inside its square.
  const room = isSwitch ? 2 * SWITCH_HALF - 4 : 2 * HOST_R - 2
  return Math.max(FONT.node, Math.min(size, room / nameEms(id)))
}

/** Colour of a bundle of routes whose VCs have no colour of their own. */
export const BUNDLE_COLOR = '#59636e'

/** Where the nodes are drawn: each node's point, the drawing's centre of mass and its height. */
export interface Placement {
  pos: Map<string, Point>
  middle: Point
  height: number
}
