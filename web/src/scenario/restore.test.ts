import { describe, expect, it } from 'vitest'
import { realEngine, scenarioText } from '../test/realEngine'
import { createEngineInfo, inputTooLarge } from './engineInfo'
import { DEFAULT_SCENARIO_ID, encodeScenarioParam } from './library'
import { readScenario, restoreFromHash } from './restore'
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

  it('says a link from a newer ABR Lab is from a newer ABR Lab, not damaged', async () => {
    const restored = await restoreFromHash('#lab=2.abc', validate)
    expect(restored.notice?.title).toBe('This share link is from a newer ABR Lab')
    expect(restored.notice?.message).toMatch(/^It was made by a newer ABR Lab \(share format 2;/)
    expect(`${restored.notice?.title} ${restored.notice?.message}`).not.toMatch(/damaged/)
  })
})

describe('scenario text over the engine input limit (limits.max_input_bytes)', () => {
  it('is refused before it is parsed, naming the limit the engine reports', () => {
    expect(info.maxInputBytes).toBe(4_000_000)
    expect(inputTooLarge(JSON.stringify(wan), info.maxInputBytes)).toBeNull()
    const huge = inputTooLarge(' '.repeat(5_000_000), info.maxInputBytes)
    expect(huge?.message).toMatch(
      /5,000,000 bytes, more than the limit of 4,000,000 \(limits\.max_input_bytes\)/,
    )
    // Counted in UTF-8 bytes: 1.5 M three-byte characters are 4.5 MB.
    expect(inputTooLarge('€'.repeat(1_500_000), info.maxInputBytes)?.message).toMatch(
      /4,500,000 bytes/,
    )
    let parsed = 0
    const counting = (json: string) => {
      parsed += 1
      return validate(json)
    }
    const verdict = readScenario(
      `{"pad": "${'x'.repeat(4_000_000)}"}`,
      counting,
      info.maxInputBytes,
    )
    expect(verdict.ok).toBe(false)
    expect(parsed).toBe(0)
  })

  it('in a link: too long a hash, a compression bomb, a costly scenario, each refused with the limit', async () => {
    const long = await restoreFromHash(`#scenario-json=${'A'.repeat(6_000_000)}`, validate)
    expect(long.notice?.message).toMatch(/limits\.max_input_bytes/)
    expect(long.rejected?.message).not.toMatch(/default scenario/)
    expect(long.scenario.id).toBe(DEFAULT_SCENARIO_ID)
    const bomb = await shareHash({ scenario: { ...wan, pad: ' '.repeat(5_000_000) }, view: {} })
    expect(bomb.length).toBeLessThan(100_000)
    const unpacked = await restoreFromHash(bomb, validate)
    expect(unpacked.notice?.message).toMatch(/limits\.max_input_bytes/)
    const costly = await shareHash({
      scenario: { ...wan, run: { ...wan.run, until_ms: 600_000, sample_interval_ms: 0.01 } },
      view: {},
    })
    const refused = await restoreFromHash(costly, validate)
    expect(refused.notice?.title).toBe('The engine rejected this scenario')
    expect(refused.notice?.errors.map((e) => e.message).join(' ')).toMatch(/limits\.max_/)
  })
})
