/**
 * Seeing it at every scale (issue 15): single cells on a chosen link, drawings that stay readable
 * from 2 to 500 VCs, presentation mode, the embed, the phone layout and accessibility.
 * Screenshots go to e2e/artifacts (not committed).
 */
import { expect, test } from './fixtures'
import type { Page } from '@playwright/test'

const SCENARIOS = ['two-source-wan', 'ohsaki-lan-fast-decrease', 'ma-gfc', 'ma-500-vcs', 'pletka-bat-tcp-udp'] as const

/** Boxes of the drawing's node shapes and text labels, in page pixels. */
async function drawingBoxes(page: Page) {
  return page.evaluate(() => {
    const out: { what: string; x: number; y: number; w: number; h: number }[] = []
    const svg = document.querySelector('svg.topology')
    if (!svg) return out
    for (const el of svg.querySelectorAll('g.node > rect, g.node > circle, text')) {
      const r = (el as SVGGraphicsElement).getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      const label = el.tagName === 'text' ? `text "${el.textContent}"` : `node ${el.parentElement?.getAttribute('data-node')}`
      out.push({ what: label, x: r.x, y: r.y, w: r.width, h: r.height })
    }
    return out
  })
}

function overlaps(boxes: { what: string; x: number; y: number; w: number; h: number }[]): string[] {
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
      const ix = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)
      const iy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y)
      if (ix > 0.5 && iy > 0.5) bad.push(`${a.what} overlaps ${b.what}`)
    }
  return bad
}

for (const id of SCENARIOS) {
  test(`drawing of ${id}: no two nodes or labels overlap`, async ({ lab, page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await lab.open(`#scenario=${id}`)
    await lab.waitUntilLoaded()
    await page.screenshot({ path: `e2e/artifacts/${id}-1280.png` })
    expect(overlaps(await drawingBoxes(page))).toEqual([])
  })
}
