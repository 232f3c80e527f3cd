/**
 * Bounded cost in the browser: scenario text longer than the engine's
 * limits.max_input_bytes — a huge file, a link too long to hold any scenario, a share link that
 * unpacks to megabytes or to a scenario too costly to run — is refused before anything is parsed or
 * built, with a message naming the limit; the scenario that was open stays open and the tab stays
 * responsive.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test, type AbrLabPage } from './fixtures'
import { scenarioHash, shareHashOfText } from './scenarios'

const scenariosDir = fileURLToPath(new URL('../scenarios/', import.meta.url))

/** A share link's hash (`#lab=1.…`), made the way web/src/scenario/shareLink.ts makes one. */
function shareHash(payload: unknown): Promise<string> {
  return shareHashOfText(JSON.stringify(payload))
}

/** Follows a link while the page is open (hashchange), as a reader pasting it would. */
async function follow(lab: AbrLabPage, hash: string): Promise<void> {
  await lab.page.evaluate((h) => {
    window.location.hash = h
  }, hash)
}

/** The open scenario is still fahmy-rif, and the page still resets and plays it. */
async function stillOpenAndResponsive(lab: AbrLabPage): Promise<void> {
  await expect(lab.page.locator('h1')).toContainText('RIF 1/16 against RIF 1')
  const doc = await lab.scenario()
  expect(doc.id).toBe('fahmy-rif')
  await lab.resetButton.click()
  await expect.poll(() => lab.status()).toBe('paused')
  await lab.playButton.click()
  await expect.poll(() => lab.nowMs()).toBeGreaterThan(0)
}

test('a hostile link followed later is refused with the limit, and the open scenario stays', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=fahmy-rif')
  await lab.waitUntilLoaded()
  await expect(page.locator('h1')).toContainText('RIF 1/16 against RIF 1')

  // 1. A link far too long to hold any scenario within the input limit: refused from its length.
  await follow(lab, `#scenario-json=${'A'.repeat(6_000_000)}`)
  await expect(lab.errorPanel).toContainText('This link could not be opened')
  await expect(lab.errorPanel).toContainText('limits.max_input_bytes')
  await expect(lab.errorPanel).toContainText('The scenario you had is still open.')
  await stillOpenAndResponsive(lab)
  await lab.errorPanel.getByRole('button', { name: 'Dismiss' }).click()

  // 2. A share link of a few kB that unpacks to megabytes (a compression bomb).
  const base = JSON.parse(readFileSync(`${scenariosDir}two-source-wan.json`, 'utf8'))
  const bomb = await shareHash({ scenario: { ...base, padding: ' '.repeat(6_000_000) } })
  expect(bomb.length).toBeLessThan(100_000)
  await follow(lab, bomb)
  await expect(lab.errorPanel).toContainText('limits.max_input_bytes')
  await expect(lab.errorPanel).toContainText('The scenario you had is still open.')
  await stillOpenAndResponsive(lab)
  await lab.errorPanel.getByRole('button', { name: 'Dismiss' }).click()

  // 3. A small share link whose scenario is legal text but far too costly to run: 600 s sampled
  //    every 0.01 ms. The engine's cost model refuses it before the worker builds anything.
  const costly = await shareHash({
    scenario: { ...base, run: { ...base.run, until_ms: 600_000, sample_interval_ms: 0.01 } },
    view: {},
  })
  await follow(lab, costly)
  await expect(lab.errorPanel).toContainText('The engine rejected this scenario')
  await expect(lab.errorPanel).toContainText(/limits\.max_(memory_mb|events)/)
  await expect(lab.errorPanel).toContainText('The scenario you had is still open.')
  await stillOpenAndResponsive(lab)
  await lab.errorPanel.getByRole('button', { name: 'Dismiss' }).click()

  // 4. Whole scenario text in the link, over the limit once decoded (but not from its length:
  //    4,000,100 bytes of text).
  const text = JSON.stringify({ ...base, padding: '' })
  const big = scenarioHash(
    JSON.stringify({ ...base, padding: 'x'.repeat(4_000_100 - text.length) }),
  )
  await follow(lab, big)
  await expect(lab.errorPanel).toContainText('limits.max_input_bytes')
  await expect(lab.errorPanel).toContainText('The scenario you had is still open.')
  await stillOpenAndResponsive(lab)
})

test('a huge scenario file is refused from its size before it is read, and the open scenario stays', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=fahmy-rif')
  await lab.waitUntilLoaded()
  await page.getByRole('button', { name: 'Library' }).click()
  const dialog = page.getByRole('dialog', { name: 'Scenario library' })
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('Load a scenario file…').setInputFiles({
    name: 'huge.json',
    mimeType: 'application/json',
    buffer: Buffer.alloc(50_000_000, ' '),
  })
  const problems = dialog.getByRole('alert', { name: 'The file was not loaded' })
  await expect(problems).toContainText('huge.json was not loaded')
  await expect(problems).toContainText('50,000,000 bytes')
  await expect(problems).toContainText('limits.max_input_bytes')
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await stillOpenAndResponsive(lab)
})

test('a broken link followed after an edit puts the edited scenario back in the address bar', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=fahmy-rif')
  await lab.waitUntilLoaded()
  await page.getByRole('tab', { name: 'Parameters' }).click()
  await lab.selectVc('vc1')
  // Edit RIF: once the page has a moment, the address carries the edited scenario.
  const rif = lab.param('rif').getByRole('slider')
  await rif.focus()
  await rif.press('End')
  await expect(lab.param('rif').getByRole('textbox')).toHaveValue('1')
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#lab=1\./)
  const edited = new URL(page.url()).hash

  await follow(lab, '#lab=1.this-is-not-a-scenario')
  await expect(lab.errorPanel).toContainText('The scenario you had is still open.')
  // The broken link is gone from the address bar: a reload reopens the edit, not the default.
  await expect.poll(() => new URL(page.url()).hash).toBe(edited)
  await page.reload()
  await lab.waitUntilLoaded()
  await page.getByRole('tab', { name: 'Parameters' }).click()
  await lab.selectVc('vc1')
  await expect(lab.param('rif').getByRole('textbox')).toHaveValue('1')
  expect((await lab.scenario()).id).toBe('fahmy-rif')
})

test('a decimal comma typed into a parameter is read as a decimal point', async ({ lab, page }) => {
  await lab.open('#scenario=fahmy-rif')
  await lab.waitUntilLoaded()
  await page.getByRole('tab', { name: 'Parameters' }).click()
  await lab.selectVc('vc1')
  const pcr = lab.param('pcr_mbps').getByRole('textbox')
  await pcr.fill('1,5')
  await pcr.press('Enter')
  await expect(pcr).toHaveValue('1.5')
  // "1,000" could be a thousand or one: refused, saying both, and the value stays.
  await pcr.fill('1,000')
  await pcr.press('Enter')
  await expect(lab.param('pcr_mbps')).toContainText('could be 1000 or 1')
})
