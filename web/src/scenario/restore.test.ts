import { describe, expect, it } from 'vitest'
import { realEngine, scenarioText } from '../test/realEngine'
import { createEngineInfo } from './engineInfo'
import { DEFAULT_SCENARIO_ID, encodeScenarioParam } from './library'
import { restoreFromHash } from './restore'
import { shareHash } from './shareLink'

const info = createEngineInfo(realEngine())
const validate = info.validate
const wan = JSON.parse(scenarioText('two-source-wan'))

describe('restoring from the URL hash', () => {
  it('opens the default, a library scenario, a whole file and a share link', async () => {
    expect(await restoreFromHash('', validate)).toMatchObject({
      origin: { kind: 'library', id: DEFAULT_SCENARIO_ID },
      notice: null,
    })
    const rif = await restoreFromHash('#scenario=fahmy-rif', validate)
    expect(rif.scenario.id).toBe('fahmy-rif')
    const file = await restoreFromHash(
      `#scenario-json=${encodeScenarioParam(JSON.stringify(wan))}`,
      validate,
    )
    expect(file).toMatchObject({ origin: { kind: 'link' }, notice: null })
    const edited = { ...wan, title: 'edited' }
    const shared = await restoreFromHash(
      await shareHash({ scenario: edited, view: { speed: null } }),
      validate,
    )
    expect(shared).toMatchObject({ scenario: edited, view: { speed: null }, notice: null })
  })

  it('never throws: whatever is wrong opens the default scenario and says why', async () => {
    const good = await shareHash({ scenario: wan, view: {} })
    const rejected = { ...wan, colour: 'red' }
    const cases: [string, RegExp][] = [
      ['#scenario=nope', /no scenario "nope"/],
      ['#scenario-json=%%%', /base64url/],
      [`#scenario-json=${encodeScenarioParam('{"not json')}`, /rejected/],
      [good.slice(0, -25), /damaged/],
      ['#lab=2.abc', /newer ABR Lab/],
      [await shareHash({ scenario: rejected, view: {} }), /rejected/],
    ]
    for (const [hash, title] of cases) {
      const restored = await restoreFromHash(hash, validate)
      expect(restored.origin, hash).toEqual({ kind: 'library', id: DEFAULT_SCENARIO_ID })
      expect(restored.notice, hash).not.toBeNull()
      expect(`${restored.notice?.title} ${restored.notice?.message}`, hash).toMatch(title)
      expect(restored.notice?.message, hash).toMatch(/The default scenario is open instead\.$/)
    }
    const withErrors = await restoreFromHash(
      await shareHash({ scenario: rejected, view: {} }),
      validate,
    )
    expect(withErrors.notice?.errors.map((e) => e.path)).toContain('colour')
  })
})
