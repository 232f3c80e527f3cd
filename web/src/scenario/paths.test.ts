import { describe, expect, it } from 'vitest'
import {
  applyVariant,
  deletePath,
  editedPart,
  getPath,
  PathError,
  setPath,
  type JsonObject,
} from './paths'

const doc = (): JsonObject => ({
  vcs: [{ id: 'vc1', rif: 1 }, { id: 'vc2' }],
  links: [{ id: 'l1', a: 'S', b: 'D' }],
  defaults: { vc: { nrm: 32 } },
})

describe('dotted paths (the engine’s --set grammar)', () => {
  it('sets by id, by index, and creates the objects a scenario may leave out', () => {
    const d = doc()
    setPath(d, 'vcs.vc1.rif', 0.0625)
    setPath(d, 'vcs.1.nrm', 8)
    setPath(d, 'links.l1.a_to_b.algorithm.kind', 'erica')
    setPath(d, 'run.until_ms', 100)
    expect(getPath(d, 'vcs.vc1.rif')).toBe(0.0625)
    expect(getPath(d, 'vcs.vc2.nrm')).toBe(8)
    expect(getPath(d, 'links.l1.a_to_b.algorithm')).toEqual({ kind: 'erica' })
    expect(getPath(d, 'run')).toEqual({ until_ms: 100 })
    expect(getPath(d, 'vcs.vc9.rif')).toBeUndefined()
  })

  it('refuses paths through things that do not exist, naming where', () => {
    const d = doc()
    expect(() => setPath(d, 'vcs.vc9.rif', 1)).toThrow(PathError)
    expect(() => setPath(d, 'nodes.x.y', 1)).toThrow('nodes: does not exist')
    expect(() => setPath(d, 'vcs..rif', 1)).toThrow('is not a dotted path')
    expect(() => setPath(d, 'vcs.vc1.id.x', 1)).toThrow(PathError)
  })

  it('deletes a key', () => {
    const d = doc()
    deletePath(d, 'vcs.vc1.rif')
    deletePath(d, 'vcs.vc1.nothing')
    deletePath(d, 'defaults')
    expect(d.vcs).toEqual([{ id: 'vc1' }, { id: 'vc2' }])
    expect(d.defaults).toBeUndefined()
  })

  it('applies a variant to a copy', () => {
    const d: JsonObject = {
      ...doc(),
      variants: [{ id: 'fast', label: 'RIF 1', set: { 'vcs.vc2.rif': 1, 'defaults.vc.nrm': 8 } }],
    }
    const v = applyVariant(d, 'fast')
    expect(getPath(v, 'vcs.vc2.rif')).toBe(1)
    expect(getPath(v, 'defaults.vc.nrm')).toBe(8)
    expect(getPath(d, 'vcs.vc2.rif')).toBeUndefined()
    expect(() => applyVariant(d, 'nope')).toThrow(PathError)
  })
})

describe('an edit of one part (editedPart)', () => {
  it('gives the document setPath gives, sharing what it did not change', () => {
    const before = doc()
    const whole = doc()
    setPath(whole, 'vcs.vc2.traffic.kind', 'onoff')
    setPath(whole, 'vcs.vc2.rif', 0.5)
    const after = editedPart(before, { key: 'vcs', id: 'vc2' }, (e) => {
      e.set('traffic.kind', 'onoff')
      e.set('rif', 0.5)
    })
    expect(after).toEqual(whole)
    expect(before).toEqual(doc())
    const vcs = after.vcs as JsonObject[]
    expect(vcs[0]).toBe((before.vcs as JsonObject[])[0])
    expect(after.links).toBe(before.links)
    const cleared = editedPart(before, { key: 'vcs', id: 'vc1' }, (e) => e.delete('rif'))
    expect(cleared.vcs).toEqual([{ id: 'vc1' }, { id: 'vc2' }])
  })

  it('names the whole path when the grammar refuses', () => {
    expect(() => editedPart(doc(), { key: 'vcs', id: 'vc1' }, (e) => e.set('id.x', 1))).toThrow(
      /^vcs\.vc1\.id\.x: /,
    )
    expect(() =>
      editedPart(doc(), { key: 'vcs', id: 'vc1' }, (e) => e.set('nothing.x', 1)),
    ).toThrow('vcs.vc1.nothing: does not exist')
  })

  it('edits a part that is not there with whole paths, as the grammar creates it', () => {
    const whole = doc()
    setPath(whole, 'run.until_ms', 100)
    expect(editedPart(doc(), { key: 'run' }, (e) => e.set('until_ms', 100))).toEqual(whole)
    expect(() => editedPart(doc(), { key: 'vcs', id: 'vc9' }, (e) => e.set('rif', 1))).toThrow(
      PathError,
    )
  })
})
