/**
 * The drawing as the page shows it: the boxes of its nodes, its text labels and the animation's
 * ACR gauges, and which of them overlap.
 */
import type { Page } from '@playwright/test'

/** Boxes of the drawing's node shapes, text labels and ACR gauges, in page pixels. */
export async function drawingBoxes(page: Page) {
  return page.evaluate(() => {
    const out: { what: string; x: number; y: number; w: number; h: number }[] = []
    const svg = document.querySelector('svg.topology')
    if (!svg) return out
    // The drawing's nodes and labels, and the live values laid over it in a layer of their own.
    const values = svg.parentElement?.querySelector('svg.topology-values')
    const drawn = [
      ...svg.querySelectorAll('g.node > rect, g.node > circle, text'),
      ...(values?.querySelectorAll('text') ?? []),
    ]
    for (const el of drawn) {
      const r = (el as SVGGraphicsElement).getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      const label =
        el.tagName === 'text'
          ? `text "${el.textContent}"`
          : `node ${el.parentElement?.getAttribute('data-node')}`
      out.push({ what: label, x: r.x, y: r.y, w: r.width, h: r.height })
    }
    // The ACR gauges the animation draws on its canvas, as it reports them (CSS px of the canvas).
    const canvas = document.querySelector<HTMLCanvasElement>('canvas.animation-layer')
    const origin = canvas?.getBoundingClientRect()
    for (const [i, box] of (canvas?.dataset.gauges ?? '').split(' ').filter(Boolean).entries()) {
      const [x, y, w, h] = box.split(',').map(Number)
      if (origin) out.push({ what: `gauges ${i}`, x: origin.x + x, y: origin.y + y, w, h })
    }
    return out
  })
}

/** Every pair of boxes that overlap, named; a node's own name inside it is not an overlap. */
export function overlaps(
  boxes: { what: string; x: number; y: number; w: number; h: number }[],
): string[] {
  const bad: string[] = []
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]
      const b = boxes[j]
      // A node's own label sits inside it.
      if (a.what.startsWith('node') !== b.what.startsWith('node')) {
        const [n, t] = a.what.startsWith('node') ? [a, b] : [b, a]
        if (t.what === `text "${n.what.slice(5)}"`) continue
      }
      // Gauges only matter under text.
      if (a.what.startsWith('gauges') && !b.what.startsWith('text')) continue
      if (b.what.startsWith('gauges') && !a.what.startsWith('text')) continue
      const ix = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)
      const iy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y)
      if (ix > 0.5 && iy > 0.5) bad.push(`${a.what} overlaps ${b.what}`)
    }
  return bad
}
