/**
 * Under load: 500 VCs with cells moving in slow motion keep being drawn, the library's 500-VC
 * scenario shows single cells on its long links and flow rates on its short ones, and a run long
 * enough to wait for shows its progress. How many frames a second the page keeps meanwhile is a
 * figure of the benchmark (`npm run bench`, its frames part), not a test.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from './fixtures'
import { fiveHundredVcs, scenarioHash } from './scenarios'

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url))
mkdirSync(artifacts, { recursive: true })

test('500 VCs: cells keep being drawn in slow motion; a long run shows its progress', async ({
  lab,
  page,
}) => {
  await lab.open(scenarioHash(fiveHundredVcs(8000)))
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('paused')
  await expect(page.locator('h1')).toHaveText('500 VCs through one bottleneck')
  await lab.chooseSpeed('1 ms per second')
  await lab.playButton.click()
  const layer = page.getByTestId('animation-layer')
  await expect(layer).toHaveAttribute('data-mode', 'cells')
  await expect
    .poll(async () => Number(await layer.getAttribute('data-cells')))
    .toBeGreaterThan(1000)
  // The run goes on and the layer still draws single cells: it did not fall back to flow rates.
  const t0 = await lab.nowMs()
  await expect.poll(() => lab.nowMs()).toBeGreaterThan(t0)
  await expect
    .poll(async () => Number(await layer.getAttribute('data-cells')))
    .toBeGreaterThan(1000)
  await expect(layer).toHaveAttribute('data-mode', 'cells')
  await page.screenshot({ path: `${artifacts}five-hundred-vcs.png` })

  // Flat out, 8 s of 500 VCs takes seconds: the progress indicator says so.
  await lab.chooseSpeed('as fast as possible')
  const indicator = page.getByTestId('progress-indicator')
  await expect(indicator).toContainText('Running as fast as the engine goes', { timeout: 10_000 })
  await expect(indicator.locator('progress')).toHaveAttribute('value', /0\.\d+/)
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('finished')
  await expect(indicator).toHaveCount(0)
})

test('500 VCs from the library (Ma & Ramakrishnan): single cells on the long links in slow motion', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=ma-500-vcs')
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('paused')
  await lab.chooseSpeed('1 ms per second')
  await lab.playButton.click()
  // The 8 ms link shows single cells; the 0.8 µs ones are far too short at any pace: flow rates.
  const layer = page.getByTestId('animation-layer')
  await expect(layer).toHaveAttribute('data-mode', 'mixed')
  await expect.poll(async () => Number(await layer.getAttribute('data-cells'))).toBeGreaterThan(0)
  const t0 = await lab.nowMs()
  await expect.poll(() => lab.nowMs()).toBeGreaterThan(t0)
  expect(await lab.status()).toBe('running')
  await page.screenshot({ path: `${artifacts}ma-500-vcs.png` })
})
