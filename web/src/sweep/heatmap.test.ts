import { interpolateViridis, rgb } from 'd3'
import { describe, expect, it } from 'vitest'
import {
  cellAt,
  finiteRange,
  heatmapDomain,
  heatmapGeometry,
  heatmapPixels,
  labelStep,
  moveFocus,
} from './heatmap'

describe('heatmap geometry', () => {
  it('finds the cell under a point, and none outside the grid', () => {
    const g = heatmapGeometry(372, 100, 100)
    expect(g.cellW).toBeCloseTo(3)
    expect(cellAt(g, 0, 0)).toEqual({ column: 0, row: 0 })
    expect(cellAt(g, 3.01, 5.99)).toEqual({ column: 1, row: 1 })
    expect(cellAt(g, 299.9, 299.9)).toEqual({ column: 99, row: 99 })
    expect(cellAt(g, 300.1, 10)).toBeNull()
    expect(cellAt(g, -0.1, 10)).toBeNull()
  })

  it('thins axis labels so that they keep their spacing', () => {
    expect(labelStep(56, 44)).toBe(1)
    expect(labelStep(3, 44)).toBe(15)
    expect(labelStep(0, 44)).toBeGreaterThan(1_000)
  })

  it('moves the keyboard focus within the grid, stopping at its edges', () => {
    // 3 columns × 2 rows: slots 0 1 2 / 3 4 5.
    expect(moveFocus('ArrowRight', 0, 3, 2)).toBe(1)
    expect(moveFocus('ArrowRight', 2, 3, 2)).toBe(2)
    expect(moveFocus('ArrowDown', 1, 3, 2)).toBe(4)
    expect(moveFocus('ArrowDown', 4, 3, 2)).toBe(4)
    expect(moveFocus('ArrowUp', 4, 3, 2)).toBe(1)
    expect(moveFocus('Home', 5, 3, 2)).toBe(3)
    expect(moveFocus('End', 3, 3, 2)).toBe(5)
    expect(moveFocus('PageUp', 5, 3, 2)).toBe(2)
    expect(moveFocus('a', 5, 3, 2)).toBeNull()
  })
})

describe('heatmap colours', () => {
  it('leaves running (null) and failed (NaN) points out of the range', () => {
    expect(finiteRange([null, Number.NaN, 3, -1, 2])).toEqual([-1, 3])
    expect(finiteRange([null, Number.NaN])).toBeNull()
    expect(heatmapDomain([0.99, 0.995], 'fixed', { lo: 0, hi: 1 })).toEqual([0, 1])
    expect(heatmapDomain([4, 4], 'relative', { lo: 0, hi: 1 })).toEqual([3, 5])
    expect(heatmapDomain([], 'fixed', { lo: 0, hi: null })).toEqual([0, 1])
  })

  it('paints one viridis pixel per cell, grey while running, pale red when failed', () => {
    const pixels = heatmapPixels([0, 1, 0.5, null, Number.NaN], [0, 1])
    const at = (i: number) => [...pixels.slice(i * 4, i * 4 + 4)]
    const viridis = (t: number) => {
      const c = rgb(interpolateViridis(t))
      return [c.r, c.g, c.b, 255]
    }
    expect(at(0)).toEqual(viridis(0))
    expect(at(1)).toEqual(viridis(1))
    for (const [k, v] of at(2).entries())
      expect(Math.abs(v - viridis(0.5)[k])).toBeLessThanOrEqual(2)
    expect(at(3)).toEqual([0xee, 0xf1, 0xf4, 255])
    expect(at(4)).toEqual([0xff, 0xf1, 0xf2, 255])
    // Values beyond the scale's ends take its end colours.
    expect([...heatmapPixels([-5, 7], [0, 1])]).toEqual([...viridis(0), ...viridis(1)])
  })
})
