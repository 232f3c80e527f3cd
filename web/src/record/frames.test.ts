import { describe, expect, it } from 'vitest'
import { defaultSpeed } from './RecordMenu'
import { MAX_FRAMES, planFrames } from './frames'

describe('planFrames', () => {
  it('steps the simulated time by speed / fps and ends exactly at the span', () => {
    const plan = planFrames(100, 20, 25)
    // 0.8 ms a frame: 125 steps, 126 frames.
    expect(plan.times.length).toBe(126)
    expect(plan.times[0]).toBe(0)
    expect(plan.times[1]).toBeCloseTo(0.8, 12)
    expect(plan.times.at(-1)).toBe(100)
    for (let k = 1; k < plan.times.length; k++)
      expect(plan.times[k]).toBeGreaterThan(plan.times[k - 1])
  })

  it('adds a last, shorter step when the span is not a whole number of steps', () => {
    const plan = planFrames(10.5, 25, 25)
    expect(plan.times).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10.5])
  })

  it('refuses an empty span, a bad speed and too many frames, naming the limit', () => {
    expect(() => planFrames(0, 10)).toThrow(/play the run first/)
    expect(() => planFrames(100, 0)).toThrow(/positive number/)
    expect(() => planFrames(100, Number.NaN)).toThrow(/positive number/)
    expect(() => planFrames(1e6, 1)).toThrow(new RegExp(`${MAX_FRAMES} a recording`))
  })

  it('offers a speed that makes a clip of at most about ten seconds', () => {
    expect(defaultSpeed(100)).toBe(10)
    expect(defaultSpeed(500)).toBe(50)
    expect(defaultSpeed(1e9)).toBe(5000)
  })
})
