import { describe, expect, it } from 'vitest'
import { TimeCursor } from './cursor'

describe('TimeCursor', () => {
  it('never shows a time past the live end, whether hovered or scrubbed', () => {
    const cursor = new TimeCursor()
    const seen: (number | null)[] = []
    cursor.subscribe((t) => seen.push(t))
    cursor.setLiveEnd(31)
    cursor.set(221.6)
    expect(cursor.get()).toBe(31)
    cursor.set(12.5)
    expect(cursor.get()).toBe(12.5)
    cursor.set(null)
    cursor.setScrub(40)
    expect(cursor.get()).toBe(31)
    // The run goes on: the held time is reached, and then shown as asked.
    cursor.setLiveEnd(50)
    expect(cursor.get()).toBe(40)
    // A new run starts at zero: nothing held can be later than it.
    cursor.setLiveEnd(0)
    expect(cursor.get()).toBe(0)
    cursor.setScrub(null)
    expect(cursor.get()).toBeNull()
    expect(seen).toEqual([31, 12.5, null, 31, 40, 0, null])
  })
})
