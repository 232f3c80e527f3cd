import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../scenario/paths'
import { emptyHistory, MERGE_WINDOW_MS, record, redo, type Step, undo } from './history'

const v = (n: number): JsonObject => ({ n })
const doc = (n: number): Step => ({ kind: 'document', scenario: v(n), reach: 'engine' })
const setN = (n: number | undefined): Step => ({
  kind: 'assign',
  sets: [{ path: 'n', value: n }],
  reach: 'engine',
})

describe('undo history', () => {
  it('undoes and redoes structural steps by the documents they replaced', () => {
    let h = record(emptyHistory, doc(0), 'one', null, 0)
    h = record(h, doc(1), 'two', null, 10)
    const back = undo(h, v(2))
    expect(back?.scenario).toEqual(v(1))
    expect(back?.label).toBe('two')
    const back2 = back && undo(back.history, back.scenario)
    expect(back2?.scenario).toEqual(v(0))
    expect(back2 && undo(back2.history, back2.scenario)).toBeNull()
    const forward = back2 && redo(back2.history, back2.scenario)
    expect(forward?.scenario).toEqual(v(1))
    const forward2 = forward && redo(forward.history, forward.scenario)
    expect(forward2?.scenario).toEqual(v(2))
    expect(forward2 && redo(forward2.history, forward2.scenario)).toBeNull()
  })

  it('undoes a parameter step by its inverse assignments, and redoes it by theirs', () => {
    const start: JsonObject = { run: { seed: 1 }, m: 2 }
    const h = record(emptyHistory, setN(undefined), 'n = 3', null, 0)
    const back = undo(h, { ...start, n: 3 })
    expect(back?.scenario).toEqual(start)
    expect(back?.step).toEqual(setN(undefined))
    expect(back?.back).toEqual(setN(3))
    const forward = back && redo(back.history, back.scenario)
    expect(forward?.scenario).toEqual({ ...start, n: 3 })
    expect(forward?.step).toEqual(setN(3))
  })

  it('merges a quick run of the same change into one step', () => {
    let h = record(emptyHistory, setN(0), 'RIF', 'rif', 0)
    h = record(h, setN(1), 'RIF', 'rif', MERGE_WINDOW_MS / 2)
    h = record(h, setN(2), 'RIF', 'rif', MERGE_WINDOW_MS)
    expect(h.past).toHaveLength(1)
    expect(undo(h, v(3))?.scenario).toEqual(v(0))
    h = record(h, setN(3), 'RIF', 'rif', 10 * MERGE_WINDOW_MS)
    expect(h.past).toHaveLength(2)
    h = record(h, setN(4), 'Nrm', 'nrm', 10 * MERGE_WINDOW_MS + 1)
    expect(h.past).toHaveLength(3)
  })

  it('forgets the redo branch on a new change', () => {
    let h = record(emptyHistory, doc(0), 'one', null, 0)
    const back = undo(h, v(1))
    if (!back) throw new Error('nothing to undo')
    h = record(back.history, doc(0), 'other', null, 5)
    expect(h.future).toHaveLength(0)
  })
})
