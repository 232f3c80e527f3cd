import { describe, expect, it } from 'vitest'
import { stepsDown } from './labelPlan'

describe('stepsDown', () => {
  it('steps two units at a time to the drawing’s own size, ending on it', () => {
    expect(stepsDown(24, 14)).toEqual([24, 22, 20, 18, 16, 14])
    expect(stepsDown(15, 14)).toEqual([15, 14])
  })

  it('tries the one size when there is nothing to step down to', () => {
    expect(stepsDown(14, 14)).toEqual([14])
    expect(stepsDown(12, 14)).toEqual([12])
    expect(stepsDown(Number.NaN, 14)).toEqual([Number.NaN])
  })

  it('keeps to a handful of sizes for a drawing shown tiny (a font asked in thousands)', () => {
    const sizes = stepsDown(5600, 14)
    expect(sizes.length).toBeLessThanOrEqual(10)
    expect(sizes[0]).toBe(5600)
    expect(sizes[sizes.length - 1]).toBe(14)
    expect(stepsDown(Number.POSITIVE_INFINITY, 14).length).toBeLessThanOrEqual(10)
  })
})
