import { describe, expect, it } from 'vitest'
import { heatmapDomain } from '../sweep/heatmap'
import { editedState, editedTitle } from './edited'
import { library } from './library'
import { applyVariant, editedPart, type JsonObject } from './paths'
import { applyThing, thingsToTry } from './things'

const rif = JSON.parse(library.get('fahmy-rif') as string) as JsonObject

describe('edited state against the library file', () => {
  it('is unedited as the file stands, ignores positions, lists every change', () => {
    expect(editedState(rif)?.changes).toEqual([])
    const moved = structuredClone(rif)
    ;(moved.nodes as JsonObject[])[0].x = 5
    expect(editedState(moved)?.changes).toEqual([])
    const changed = applyVariant(rif, 'rif-1')
    ;(changed.vcs as JsonObject[]).pop()
    const state = editedState(changed)
    expect(state?.base).toBe('fahmy-rif')
    expect(state?.changes).toEqual([
      { path: 'defaults.vc.rif', before: '0.0625', after: '1' },
      { path: 'vcs.vc2', before: 'present', after: 'removed' },
    ])
    expect(editedTitle('RIF', state)).toBe('RIF (edited)')
    expect(editedTitle('RIF', editedState(rif))).toBe('RIF')
  })

  it('compares an edited document again from what the edit copied, with the same answer', () => {
    const one = editedPart(rif, { key: 'vcs', id: 'vc1' }, (e) => e.set('rif', 0.5))
    const two = editedPart(one, { key: 'vcs', id: 'vc2' }, (e) => e.set('nrm', 8))
    const back = editedPart(two, { key: 'vcs', id: 'vc1' }, (e) => e.delete('rif'))
    for (const d of [one, two, back, one])
      expect(editedState(d)?.changes).toEqual(editedState(structuredClone(d))?.changes)
    expect(editedState(two)?.changes.map((c) => c.path)).toEqual(['vcs.vc1.rif', 'vcs.vc2.nrm'])
    expect(editedState(back)?.changes.map((c) => c.path)).toEqual(['vcs.vc2.nrm'])
  })

  it('applies a thing to try as its variant or its paths', () => {
    const things = thingsToTry(rif)
    expect(things[0].text).toMatch(/RIF = 1\/512/)
    expect(editedState(applyThing(rif, things[0]))?.changes).toEqual([
      { path: 'defaults.vc.rif', before: '0.0625', after: '0.001953125' },
    ])
  })
})

describe('heatmap colour scale', () => {
  const fixedRatio = { lo: 0, hi: 1 }
  it('is fixed by default: near-equal fairness values share one colour range', () => {
    expect(heatmapDomain([0.99252, 0.99274], 'fixed', fixedRatio)).toEqual([0, 1])
    expect(heatmapDomain([0, 0], 'fixed', { lo: 0, hi: null })).toEqual([0, 1])
    expect(heatmapDomain([120, 4000], 'fixed', { lo: 0, hi: null })).toEqual([0, 4000])
  })
  it('is the sweep’s own spread when asked for', () => {
    expect(heatmapDomain([0.99252, 0.99274], 'relative', fixedRatio)).toEqual([0.99252, 0.99274])
    expect(heatmapDomain([3, 3], 'relative', fixedRatio)).toEqual([2, 4])
  })
})
