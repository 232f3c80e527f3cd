import { describe, expect, it } from 'vitest'
import { TOUCH_PX, touchGeometry } from './touch'

const at = (entries: [string, number, number][]) =>
  new Map(entries.map(([id, x, y]) => [id, { x, y }]))

describe('touch targets of the drawing', () => {
  it('keeps a sparse drawing at the pane width and enlarges its targets to 44 px', () => {
    const points = at([
      ['S1', 60, 60],
      ['SW1', 200, 150],
      ['SW2', 360, 150],
      ['D1', 500, 60],
    ])
    const links = [
      { a: 'S1', b: 'SW1' },
      { a: 'SW1', b: 'SW2' },
      { a: 'SW2', b: 'D1' },
    ]
    const t = touchGeometry(points, links, 560, 350, 24, 8)
    expect(t.scale).toBeCloseTo(350 / 560)
    expect(t.widthPx).toBeCloseTo(350)
    expect(2 * t.nodeR * t.scale).toBeGreaterThanOrEqual(TOUCH_PX - 1e-9)
    expect(2 * t.linkHalf * t.scale).toBeGreaterThanOrEqual(TOUCH_PX - 1e-9)
  })

  it('draws a dense drawing larger so that targets neither shrink nor overlap', () => {
    // Switches 56 units apart, as in ma-gfc's chain.
    const points = at([
      ['SW1', 100, 100],
      ['SW2', 156, 100],
      ['H1', 100, 160],
    ])
    const links = [
      { a: 'SW1', b: 'SW2' },
      { a: 'H1', b: 'SW1' },
    ]
    const t = touchGeometry(points, links, 560, 350, 24, 8)
    expect(t.widthPx).toBeGreaterThan(350)
    // Node targets at least 44 px and apart from each other.
    expect(2 * t.nodeR * t.scale).toBeGreaterThanOrEqual(TOUCH_PX - 1e-9)
    expect(2 * t.nodeR).toBeLessThanOrEqual(56)
    // The shortest link keeps a band at least 44 px long between its two node targets.
    expect((56 - 2 * t.nodeR) * t.scale).toBeGreaterThanOrEqual(TOUCH_PX - 1e-6)
  })

  it('never makes a target smaller than with a mouse', () => {
    const points = at([
      ['A', 0, 0],
      ['B', 300, 0],
    ])
    const t = touchGeometry(points, [{ a: 'A', b: 'B' }], 560, 1200, 24, 8)
    expect(t.scale).toBeCloseTo(1200 / 560)
    expect(t.nodeR).toBe(24)
    expect(t.linkHalf).toBeCloseTo(TOUCH_PX / 2 / t.scale)
    expect(t.linkHalf).toBeGreaterThan(8)
  })
})
