import { describe, expect, it } from 'vitest'
import { applyOverrides, expandPath, formatParamValue, parseValue, variantOverrides } from './paths'

const set = (root: object, path: string, raw: string) => {
  const out = applyOverrides(JSON.stringify(root), [{ path, raw }])
  return 'json' in out ? JSON.parse(out.json) : out.error
}

describe('the --set path grammar, as set.rs has it', () => {
  it('sets by id, by index, and creates the objects the engine knows', () => {
    let v: object = { vcs: [{ id: 'vc1', rif: 1 }], links: [{ id: 'l1' }] }
    v = set(v, 'vcs.vc1.rif', '1/16')
    v = set(v, 'vcs.0.nrm', '8')
    v = set(v, 'links.l1.a_to_b.buffer_cells', '500')
    v = set(v, 'defaults.vc.nrm', '256')
    v = set(v, 'defaults.router_port.aqm.clcc.gain', '2')
    expect(v).toEqual({
      vcs: [{ id: 'vc1', rif: 0.0625, nrm: 8 }],
      links: [{ id: 'l1', a_to_b: { buffer_cells: 500 } }],
      defaults: { vc: { nrm: 256 }, router_port: { aqm: { clcc: { gain: 2 } } } },
    })
  })

  it('names the first missing step of a path that does not exist', () => {
    const v = { vcs: [{ id: 'vc1' }] }
    expect(set(v, 'vcs.vc9.rif', '1').path).toBe('vcs.vc9')
    expect(set(v, 'nodes.x.y', '1').path).toBe('nodes')
    expect(set(v, 'vcs..rif', '1').message).toContain('dotted path')
    expect(set(v, 'vcs.vc1.id.x', '1').message).toContain('not an object')
  })

  it('reads values as JSON, fractions or strings', () => {
    expect(parseValue('true')).toBe(true)
    expect(parseValue('erica')).toBe('erica')
    expect(parseValue('{"kind":"none"}')).toEqual({ kind: 'none' })
    expect(parseValue('1/0')).toBe('1/0')
    expect(parseValue(' 1 / 4 ')).toBe(0.25)
  })

  it('expands * to every element, by id or index', () => {
    const s = {
      vcs: [{ id: 'vc1' }, { id: 'vc2' }],
      background: [{ rate_mbps: 1 }],
      defaults: { vc: {} },
    }
    expect(expandPath(s as never, 'vcs.*.rif')).toEqual({ paths: ['vcs.vc1.rif', 'vcs.vc2.rif'] })
    expect(expandPath(s as never, 'background.*.rate_mbps')).toEqual({
      paths: ['background.0.rate_mbps'],
    })
    expect(expandPath(s as never, 'defaults.vc.nrm')).toEqual({ paths: ['defaults.vc.nrm'] })
    expect(expandPath(s as never, 'defaults.*.x')).toMatchObject({
      error: { message: expect.stringContaining('needs an array') },
    })
  })

  it('applies overrides and variants to scenario text', () => {
    const text = JSON.stringify({
      vcs: [{ id: 'vc1' }, { id: 'vc2' }],
      variants: [{ id: 'fast', label: 'RIF 1', set: { 'defaults.vc.rif': 1 } }],
    })
    const out = applyOverrides(text, [{ path: 'vcs.*.rif', raw: '1/4' }])
    expect('json' in out && JSON.parse(out.json).vcs).toEqual([
      { id: 'vc1', rif: 0.25 },
      { id: 'vc2', rif: 0.25 },
    ])
    expect(variantOverrides(text, 'fast')).toEqual([{ path: 'defaults.vc.rif', raw: '1' }])
    expect(variantOverrides(text, 'nope')).toBeNull()
    expect(applyOverrides('{', [])).toMatchObject({
      error: { message: expect.stringContaining('not JSON') },
    })
  })

  it('writes powers of two as fractions', () => {
    expect(formatParamValue(0.0625)).toBe('1/16')
    expect(formatParamValue(1)).toBe('1')
    expect(formatParamValue(0.3)).toBe('0.3')
    expect(formatParamValue(140.5)).toBe('140.5')
  })
})
