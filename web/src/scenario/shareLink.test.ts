import { describe, expect, it } from 'vitest'
import { scenarioText } from '../test/realEngine'
import { decodeShare, encodeShare, sanitizeView, SHARE_VERSION, ShareLinkError } from './shareLink'

const scenario = JSON.parse(scenarioText('two-source-wan'))

describe('share links', () => {
  it('round-trips a scenario and its view state, compressed', async () => {
    const view = {
      selection: { kind: 'vc' as const, id: 'vc2' },
      speed: null,
      tab: 'params' as const,
    }
    const param = await encodeShare({ scenario, view })
    expect(param.startsWith(`${SHARE_VERSION}.`)).toBe(true)
    expect(param).toMatch(/^\d+\.[A-Za-z0-9_-]+$/)
    // Shorter than the plain base64url of #scenario-json= by a good margin (most of a file is prose).
    expect(param.length).toBeLessThan(
      Buffer.from(JSON.stringify(scenario)).toString('base64url').length * 0.6,
    )
    expect(await decodeShare(param)).toEqual({ scenario, view })
  })

  it('says what is wrong with a damaged link, never anything else', async () => {
    const good = await encodeShare({ scenario, view: {} })
    const cases: [string, RegExp][] = [
      ['', /format version/],
      ['garbage', /format version/],
      [`9.${good.slice(2)}`, /newer ABR Lab/],
      ['0.abc', /does not exist/],
      ['1.', /empty/],
      ['1.ab$cd', /characters/],
      [good.slice(0, good.length - 40), /incomplete/],
      [good.slice(0, 20), /incomplete/],
      [`1.${Buffer.from('hello').toString('base64url')}`, /incomplete or altered|not to JSON/],
    ]
    for (const [param, message] of cases) {
      const error = await decodeShare(param).then(
        () => null,
        (e: unknown) => e,
      )
      expect(error, param).toBeInstanceOf(ShareLinkError)
      expect((error as Error).message, param).toMatch(message)
    }
  })

  it('keeps only meaningful view fields', () => {
    expect(
      sanitizeView({ selection: { kind: 'vc', id: 'a' }, speed: -1, tab: 'nope', extra: 1 }),
    ).toEqual({
      selection: { kind: 'vc', id: 'a' },
    })
    expect(sanitizeView('x')).toEqual({})
    expect(sanitizeView({ speed: null })).toEqual({ speed: null })
  })
})
