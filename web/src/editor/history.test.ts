import { describe, expect, it } from 'vitest'
import { emptyHistory, MERGE_WINDOW_MS, record, redo, undo } from './history'

const v = (n: number) => ({ n })

describe('undo history', () => {
  it('undoes and redoes whole documents', () => {
    let h = record(emptyHistory, v(0), 'one', null, 0)
    h = record(h, v(1), 'two', null, 10)
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

  it('merges a quick run of the same change into one step', () => {
    let h = record(emptyHistory, v(0), 'RIF', 'rif', 0)
    h = record(h, v(1), 'RIF', 'rif', MERGE_WINDOW_MS / 2)
    h = record(h, v(2), 'RIF', 'rif', MERGE_WINDOW_MS)
    expect(h.past).toHaveLength(1)
    expect(undo(h, v(3))?.scenario).toEqual(v(0))
    h = record(h, v(3), 'RIF', 'rif', 10 * MERGE_WINDOW_MS)
    expect(h.past).toHaveLength(2)
    h = record(h, v(4), 'Nrm', 'nrm', 10 * MERGE_WINDOW_MS + 1)
    expect(h.past).toHaveLength(3)
  })

  it('forgets the redo branch on a new change', () => {
    let h = record(emptyHistory, v(0), 'one', null, 0)
    const back = undo(h, v(1))
    if (!back) throw new Error('nothing to undo')
    h = record(back.history, back.scenario, 'other', null, 5)
    expect(h.future).toHaveLength(0)
  })
})
