/**
 * Under load: 500 VCs with cells moving in slow motion must keep the page near 60 frames
 * a second, and a run long enough to wait for shows its progress.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { fiveHundredVcs, scenarioHash } from './scenarios'

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url))
mkdirSync(artifacts, { recursive: true })

// The frame rate is measured without the trace recorder, whose screencast competes for the CPU.
test.use({ trace: 'off' })

/** Mean and median interval (ms) of the next 180 animation frames. */
function frameIntervals(page: Page): Promise<{ mean: number; median: number }> {
  return page.evaluate(
    () =>
      new Promise<{ mean: number; median: number }>((resolve) => {
        const stamps: number[] = []
        const step = (t: number) => {
          stamps.push(t)
          if (stamps.length <= 180) requestAnimationFrame(step)
          else {
            const gaps = stamps
              .slice(1)
              .map((s, i) => s - stamps[i])
              .sort((a, b) => a - b)
            resolve({
              mean: (stamps[stamps.length - 1] - stamps[0]) / gaps.length,
              median: gaps[gaps.length >> 1],
            })
          }
        }
        requestAnimationFrame(step)
      }),
  )
}

test('500 VCs: cells keep moving smoothly in slow motion; a long run shows its progress', async ({
  lab,
  page,
}) => {
  await lab.open(scenarioHash(fiveHundredVcs(8000)))
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('paused')
  await expect(page.locator('h1')).toHaveText('500 VCs through one bottleneck')
  await lab.chooseSpeed('1 ms per second')
  await lab.playButton.click()
  await expect(page.getByTestId('animation-layer')).toHaveAttribute('data-mode', 'cells')
  await page.waitForTimeout(1500)
  await expect
    .poll(async () => Number(await page.getByTestId('animation-layer').getAttribute('data-cells')))
    .toBeGreaterThan(1000)
  const frames = await frameIntervals(page)
  test.info().annotations.push({
    type: 'frame interval (ms), 500 VCs, cells in slow motion',
    description: `mean ${frames.mean.toFixed(1)}, median ${frames.median.toFixed(1)}`,
  })
  console.log(
    `500 VCs in slow motion: mean frame ${frames.mean.toFixed(1)} ms, median ${frames.median.toFixed(1)} ms`,
  )
  // 60 fps is 16.7 ms a frame; headless Chromium on two cores without a GPU must still keep most
  // frames on time and average above 40 fps, with the engine running beside it.
  expect(frames.median).toBeLessThan(20)
  expect(frames.mean).toBeLessThan(25)
  // The animation kept drawing cells: it did not need to fall back to flow rates.
  await expect(page.getByTestId('animation-layer')).toHaveAttribute('data-mode', 'cells')
  await page.screenshot({ path: `${artifacts}five-hundred-vcs.png` })

  // Flat out, 8 s of 500 VCs takes seconds: the progress indicator says so.
  await lab.chooseSpeed('as fast as possible')
  const indicator = page.getByTestId('progress-indicator')
  await expect(indicator).toContainText('Running as fast as the engine goes', { timeout: 10_000 })
  await expect(indicator.locator('progress')).toHaveAttribute('value', /0\.\d+/)
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('finished')
  await expect(indicator).toHaveCount(0)
})

test('500 VCs from the library (Ma & Ramakrishnan): the page keeps its frame rate in slow motion', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=ma-500-vcs')
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('paused')
  await lab.chooseSpeed('1 ms per second')
  await lab.playButton.click()
  // The 8 ms link shows single cells; the 0.8 µs ones are far too short at any pace: flow rates.
  await expect(page.getByTestId('animation-layer')).toHaveAttribute('data-mode', 'mixed')
  await page.waitForTimeout(1500)
  const frames = await frameIntervals(page)
  console.log(
    `ma-500-vcs in slow motion: mean frame ${frames.mean.toFixed(1)} ms, median ${frames.median.toFixed(1)} ms`,
  )
  expect(frames.median).toBeLessThan(20)
  expect(frames.mean).toBeLessThan(25)
  await page.screenshot({ path: `${artifacts}ma-500-vcs.png` })
})
