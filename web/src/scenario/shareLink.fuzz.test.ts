/**
 * Share links under abuse: well over a thousand damaged links — bit flips in the
 * payload, the link cut at every length, wrong and future versions, characters base64url never
 * has, payloads that unpack to far too much — each restores to a scenario the engine accepts, with a
 * notice saying what was wrong, and never throws. A link in the older `#scenario-json=` form
 * (the share format before versioned links) still opens its scenario.
 */
import { describe, expect, it } from 'vitest'
import { realEngine, scenarioText } from '../test/realEngine'
import { createEngineInfo } from './engineInfo'
import { DEFAULT_SCENARIO_ID, encodeScenarioParam } from './library'
import { restoreFromHash, type Restored } from './restore'
import { SHARE_PARAM, encodeShare } from './shareLink'

const info = createEngineInfo(realEngine())
const wan = JSON.parse(scenarioText('two-source-wan'))
const edited = { ...wan, title: 'edited by a student' }

/** A small deterministic generator, so a failing case can be replayed from its index. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return (s >>> 0) / 2 ** 32
  }
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

async function damagedLinks(): Promise<string[]> {
  const good = await encodeShare({ scenario: edited, view: { speed: 10, tab: 'about' } })
  const [version, payload] = [good.slice(0, good.indexOf('.')), good.slice(good.indexOf('.') + 1)]
  const links: string[] = []
  // Cut at every length.
  for (let n = 0; n < good.length; n++) links.push(good.slice(0, n))
  // Bit flips: one character of the payload replaced by another base64url character.
  const next = rng(20261122)
  for (let i = 0; i < 600; i++) {
    const at = Math.floor(next() * payload.length)
    const ch = BASE64URL[Math.floor(next() * BASE64URL.length)]
    links.push(`${version}.${payload.slice(0, at)}${ch}${payload.slice(at + 1)}`)
  }
  // Wrong, future and malformed versions; characters base64url never has; empty payloads.
  for (const v of ['0', '2', '99', '-1', '1e3', 'x', '']) links.push(`${v}.${payload}`)
  for (const junk of ['%%%', '====', ' ', '🙂', '<script>', '\u0000', '+/'])
    links.push(`${version}.${junk}${payload}`)
  links.push(`${version}.`, `${version}`, '.', '')
  // Oversized: a valid deflate stream of a huge string.
  const huge = await encodeShare({
    scenario: { ...wan, explanation: 'x'.repeat(5 * 1024 * 1024) },
    view: {},
  })
  links.push(huge)
  return links
}

function expectDefaultWithNotice(restored: Restored, what: string): void {
  expect(restored.notice, what).not.toBeNull()
  expect(restored.notice?.message.length, what).toBeGreaterThan(10)
  expect(restored.scenario.id, what).toBe(DEFAULT_SCENARIO_ID)
  expect(restored.origin, what).toEqual({ kind: 'library', id: DEFAULT_SCENARIO_ID })
}

describe('share links under abuse', () => {
  it('over a thousand damaged links each open the default scenario with a clear message, never throwing', async () => {
    const links = await damagedLinks()
    expect(links.length).toBeGreaterThan(1000)
    let survivedFlip = 0
    for (const [i, link] of links.entries()) {
      const restored = await restoreFromHash(
        `#${SHARE_PARAM}=${encodeURIComponent(link)}`,
        info.validate,
      )
      if (restored.notice === null) {
        // A flip that still decodes to a valid scenario (e.g. inside a text field) is a real
        // scenario the engine accepts: fine, as long as it is one.
        expect(info.validate(JSON.stringify(restored.scenario)).ok, `case ${i}`).toBe(true)
        survivedFlip++
      } else {
        expectDefaultWithNotice(restored, `case ${i}: ${link.slice(0, 40)}`)
      }
    }
    // Nearly every damaged link must be caught.
    expect(survivedFlip).toBeLessThan(links.length / 10)
  }, 120_000)

  it('an older-format link still opens its scenario', async () => {
    const restored = await restoreFromHash(
      `#scenario-json=${encodeScenarioParam(JSON.stringify(edited))}`,
      info.validate,
    )
    expect(restored.notice).toBeNull()
    expect(restored.scenario.title).toBe('edited by a student')
  })
})
