import { describe, expect, it } from 'vitest'
import {
  DEFAULT_SCENARIO_ID,
  decodeScenarioParam,
  encodeScenarioParam,
  library,
  scenarioFromHash,
} from './library'

describe('scenario library', () => {
  it('bundles the default scenario from scenarios/', () => {
    expect(library.has(DEFAULT_SCENARIO_ID)).toBe(true)
    expect(() => JSON.parse(library.get(DEFAULT_SCENARIO_ID) ?? '')).not.toThrow()
  })

  it('opens the default scenario without a hash', () => {
    const source = scenarioFromHash('')
    expect(source).toMatchObject({ ok: true, origin: 'library', id: DEFAULT_SCENARIO_ID })
  })

  it('opens a library scenario by id', () => {
    const scenarios = new Map([['a', '{"a":1}']])
    expect(scenarioFromHash('#scenario=a', scenarios)).toEqual({
      ok: true,
      origin: 'library',
      id: 'a',
      json: '{"a":1}',
    })
  })

  it('names the known scenarios when the id is unknown', () => {
    const scenarios = new Map([
      ['b', '{}'],
      ['a', '{}'],
    ])
    expect(scenarioFromHash('#scenario=zzz', scenarios)).toEqual({
      ok: false,
      message: 'there is no scenario "zzz" in the library (known: a, b)',
    })
  })

  it('round-trips a whole scenario through the link, including non-ASCII text', () => {
    const json = JSON.stringify({ title: 'Débit max–min ≈ 70 Mbit/s', x: [1, 2, 3] })
    const param = encodeScenarioParam(json)
    expect(param).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeScenarioParam(param)).toBe(json)
    expect(scenarioFromHash(`#scenario-json=${param}`)).toEqual({ ok: true, origin: 'link', json })
  })

  it('explains a link that does not decode', () => {
    expect(scenarioFromHash('#scenario-json=%%%')).toEqual({
      ok: false,
      message: 'the scenario in the link is not valid base64url',
    })
    expect(scenarioFromHash('#scenario-json=_w')).toEqual({
      ok: false,
      message: 'the scenario in the link is not UTF-8 text',
    })
  })
})
