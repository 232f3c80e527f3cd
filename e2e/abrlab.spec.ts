import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from './fixtures'

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url))
const docsScreenshot = fileURLToPath(new URL('../docs/screenshot.png', import.meta.url))
const defaultScenario = readFileSync(
  fileURLToPath(new URL('../scenarios/two-source-wan.json', import.meta.url)),
  'utf8',
)

/** Same encoding as web/src/scenario/library.ts encodeScenarioParam (base64url, no padding). */
function scenarioHash(json: string): string {
  return `#scenario-json=${Buffer.from(json, 'utf8').toString('base64url')}`
}

test('plays the default scenario: ACR settles at ERICA’s target and both charts fill', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await expect(page.locator('h1')).toContainText(/\S/)
  await expect(lab.topology.locator('[data-node]')).not.toHaveCount(0)
  expect(await lab.sampleCount()).toBe(0)

  await page.keyboard.press('Space')
  await expect(lab.playButton).toHaveText(/Pause/)

  // Both charts get data from the engine.
  await expect.poll(() => lab.sampleCount(), { message: 'samples arrive' }).toBeGreaterThan(20)
  await expect
    .poll(async () => (await lab.linePath(lab.acrChart, 'vc.vc1.acr'))?.length ?? 0)
    .toBeGreaterThan(50)
  await expect(lab.queueChart.locator('path[data-series^="port."]')).not.toHaveCount(0)

  // S1's ACR settles near 0.9 × 155.52 ≈ 140 Mbit/s before 100 ms of simulated time.
  await expect
    .poll(
      async () => {
        const t = await lab.series('t_ms')
        return t.length > 0 ? t[t.length - 1] : 0
      },
      { message: 'simulation passes 100 ms', timeout: 60_000 },
    )
    .toBeGreaterThan(100)
  const t = await lab.series('t_ms')
  const acr = await lab.series('vc.vc1.acr')
  const before100 = acr.filter((_, i) => t[i] > 60 && t[i] < 100)
  expect(before100.length).toBeGreaterThan(10)
  for (const value of before100) expect(value).toBeGreaterThan(130)
  for (const value of before100) expect(value).toBeLessThan(150)

  // Run to the end so the screenshot shows the whole transient (S2 on from 100 to 200 ms).
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('finished')
  const rows = await lab.sampleCount()
  const columns = await lab.columns()
  expect(columns[0]).toBe('t_ms')
  expect(rows).toBeGreaterThanOrEqual(590)

  mkdirSync(artifacts, { recursive: true })
  const shot = `${artifacts}main.png`
  await page.screenshot({ path: shot })
  // The README's picture, refreshed only when asked (`UPDATE_SCREENSHOT=1 npm test`): a plain
  // test run, in CI or in a fresh clone, never edits tracked files.
  if (process.env.UPDATE_SCREENSHOT) copyFileSync(shot, docsScreenshot)
})

test('pause stops the run and reset starts it again from zero', async ({ lab, page }) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await lab.playButton.click()
  // Pause during S2's active period, when the bottleneck queue is at its height.
  await expect
    .poll(() => lab.page.evaluate(() => window.__abrlab?.nowMs() ?? 0), { timeout: 60_000 })
    .toBeGreaterThan(130)
  await lab.playButton.click() // Pause
  await expect.poll(() => lab.status()).toBe('paused')
  const held = await lab.sampleCount()
  mkdirSync(artifacts, { recursive: true })
  await page.screenshot({ path: `${artifacts}paused.png` })
  await page.waitForTimeout(400)
  expect(await lab.sampleCount()).toBe(held)

  await page.keyboard.press('r')
  await expect.poll(() => lab.sampleCount()).toBe(0)
  await expect.poll(() => lab.status()).toBe('paused')
  await expect(page.getByTestId('sim-time')).toContainText('t = 0.0')

  await lab.chooseSpeed('as fast as possible')
  await lab.playButton.click()
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('finished')
})

test('shows the engine’s errors, with paths, for a scenario it rejects, and opens the default instead', async ({
  lab,
  page,
}) => {
  const scenario = JSON.parse(defaultScenario) as Record<string, unknown>
  scenario.no_such_key = 1
  await lab.open(scenarioHash(JSON.stringify(scenario)))
  await expect(lab.errorPanel).toBeVisible()
  await expect(lab.errorPanel).toContainText('The engine rejected this scenario')
  await expect(lab.errorPanel).toContainText('no_such_key')
  await expect(lab.errorPanel).toContainText('The default scenario is open instead')
  expect(await lab.errorText()).toContain('no_such_key')
  // Never a blank page: the default scenario runs beside the explanation.
  await lab.waitUntilLoaded()
  await expect(lab.acrChart).toBeVisible()
  mkdirSync(artifacts, { recursive: true })
  await page.screenshot({ path: `${artifacts}rejected-scenario.png` })

  await lab.errorPanel.getByRole('button', { name: 'Dismiss' }).click()
  await expect(lab.errorPanel).toHaveCount(0)
})

test('explains a link that is not a scenario at all', async ({ lab }) => {
  await lab.open(scenarioHash('{"this is": not json'))
  await expect(lab.errorPanel).toContainText('The engine rejected this scenario')
  await expect(lab.errorPanel).toContainText(/JSON/)

  await lab.open('#scenario=no-such-scenario')
  await expect(lab.errorPanel).toContainText('Could not open the scenario')
  await expect(lab.errorPanel).toContainText('no-such-scenario')
})
