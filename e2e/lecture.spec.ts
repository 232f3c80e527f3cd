/**
 * A lecture in a link: playing pauses exactly at each narrated stop and shows its note; Next plays
 * on; stops added on the page are undoable and travel in the share link; in student mode the run
 * stops for a question, takes the answer, plays, and says how close it came.
 */
import { expect, test } from './fixtures'

test('a stop pauses the run at its time, Next plays on, and an added stop survives a share link', async ({
  lab,
  page,
  context,
}) => {
  await lab.open('#scenario=two-source-wan', { stops: true })
  await lab.waitUntilLoaded()
  await expect(page.getByTestId('stop-mark')).toHaveCount(3)
  await lab.chooseSpeed('as fast as possible')
  await lab.playButton.click()
  // The engine stops at 20 ms exactly: the last sample is at 20 ms and the clock reads 20.
  await expect.poll(() => lab.status()).toBe('paused')
  expect(await lab.nowMs()).toBe(20)
  const t = await lab.series('t_ms')
  expect(t[t.length - 1]).toBe(20)
  const note = page.getByTestId('stop-note')
  await expect(note).toContainText('S1 alone')
  await expect(note).toContainText('§4.2.1')
  // With another view in front, the next stop brings its own forward: the queue chart, SW1's port.
  await page.getByRole('tab', { name: 'Glossary' }).click()
  await page.getByTestId('stop-next').click()
  await expect(note).toContainText('S2 joins')
  expect(await lab.nowMs()).toBe(100)
  await expect(page.getByRole('tab', { name: 'Charts' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.locator('#queue-chart')).toBeInViewport()
  const l3 = await page.evaluate(() =>
    window.__abrlab?.layout()?.ports.findIndex((port) => port.id === 'l3'),
  )
  await expect(page.getByTestId('magnifier-port')).toHaveValue(String(l3))
  await page.screenshot({ path: 'e2e/artifacts/lecture-stop-1280x720.png' })

  // A stop of the lecturer's own at 100.5 ms: one undo step, and it travels in the link.
  await page.locator('button.action-step').click()
  await expect.poll(() => lab.nowMs()).toBe(100.5)
  await page.getByTestId('stop-add').click()
  await page.getByTestId('stop-title').fill('Watch the queue')
  await page.getByTestId('stop-text').fill('The queue at SW1 grows for one round trip.')
  await page.getByTestId('stop-save').click()
  await expect(page.getByTestId('stop-mark')).toHaveCount(4)
  await page.getByRole('button', { name: 'Undo', exact: true }).click()
  await expect(page.getByTestId('stop-mark')).toHaveCount(3)
  await page.getByRole('button', { name: 'Redo', exact: true }).click()
  await expect(page.getByTestId('stop-mark')).toHaveCount(4)
  // The stops never touch the run: it is still paused at 100.5 ms.
  expect(await lab.nowMs()).toBe(100.5)

  await page.getByRole('button', { name: 'Share' }).click()
  const link = await page.getByTestId('share-link').inputValue()
  const other = await context.newPage()
  await other.goto(link)
  await other.waitForFunction(() => window.__abrlab?.status() === 'paused')
  await expect(other.getByTestId('stop-mark')).toHaveCount(4)
  const otherPlay = other.locator('button.action-togglePlay')
  for (const [at, title] of [
    [20, 'S1 alone'],
    [100, 'S2 joins'],
    [100.5, 'Watch the queue'],
  ] as const) {
    await (at === 20 ? otherPlay : other.getByTestId('stop-next')).click()
    await expect(other.getByTestId('stop-note')).toContainText(title)
    expect(await other.evaluate(() => window.__abrlab?.nowMs())).toBe(at)
  }
  await other.close()
})

test('with pausing off the panel names the stop ahead and offers no play to it', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=two-source-wan')
  await lab.waitUntilLoaded()
  const next = page.getByTestId('lecture-next')
  await expect(next).toHaveText('Next stop: S1 alone at 20 ms (playing through it: pausing is off)')
  await expect(page.getByTestId('stop-next')).toHaveCount(0)
  await page.getByTestId('pause-at-stops').check()
  await expect(next).toHaveText('Next stop: S1 alone at 20 ms')
  await expect(page.getByTestId('stop-next')).toHaveText('Play to next stop')
})

test('student mode: the run stops for a question, plays on the answer, and says how close it was', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=two-source-wan', { stops: true })
  await lab.waitUntilLoaded()
  await page.getByTestId('student-mode').check()
  await lab.chooseSpeed('as fast as possible')
  await lab.playButton.click()
  await expect(page.getByTestId('stop-note')).toContainText('S1 alone')
  await page.getByTestId('stop-next').click()
  // Asked at the stop where S2 joins, before the window (150–195 ms) the answer is read over.
  const card = page.getByTestId('question-card')
  await expect(card).toContainText('What rate (Mbit/s) will S1')
  expect(await lab.nowMs()).toBe(100)
  await page.getByTestId('question-answer').fill('90')
  await page.getByTestId('question-submit').click()
  const result = page.getByTestId('question-result')
  await expect(result).toBeVisible({ timeout: 60_000 })
  // The run's figure: S1's mean ACR over 150–195 ms, as the claims evaluator computes it.
  const t = await lab.series('t_ms')
  const acr = await lab.series('vc.vc1.acr_mean')
  const inWindow = acr.filter((_, i) => t[i] > 150 && t[i] <= 195)
  const mean = inWindow.reduce((a, b) => a + b, 0) / inWindow.length
  expect(Math.abs(mean - 70)).toBeLessThan(2.1)
  await expect(result).toContainText('Off: you said 90 Mbit/s')
  const gave = Number((await result.textContent())?.match(/the run gave ([\d.]+)/)?.[1])
  expect(Math.abs(gave - mean)).toBeLessThan(0.1)
  await expect(result).toContainText('The paper: 70 Mbit/s')
  await expect(result).toContainText('Why: ERICA shares')
  await page.screenshot({ path: 'e2e/artifacts/lecture-question-1280x720.png' })
})

for (const [w, h] of [
  [1920, 1080],
  [1280, 800],
  [390, 844],
] as const) {
  test(`a stop's note at ${w}×${h}: in view, large enough to read`, async ({ lab, page }) => {
    await page.setViewportSize({ width: w, height: h })
    await lab.open('#scenario=two-source-wan', { stops: true })
    await lab.waitUntilLoaded()
    await lab.chooseSpeed('as fast as possible')
    await lab.playButton.click()
    const note = page.getByTestId('stop-note')
    await expect(note).toContainText('S1 alone')
    await expect(note).toBeInViewport()
    const size = await note
      .locator('.stop-text')
      .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize))
    expect(size).toBeGreaterThanOrEqual(18)
    await page.screenshot({ path: `e2e/artifacts/lecture-stop-${w}x${h}.png` })
  })
}

test('the first view shows cells: at the default pace cells move on the links from the start of a run', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await expect(lab.speedSlider).toHaveAttribute('aria-valuetext', '50 ms per second')
  await lab.playButton.click()
  const layer = page.getByTestId('animation-layer')
  await expect(layer).toHaveAttribute('data-mode', 'cells')
  await expect.poll(async () => Number(await layer.getAttribute('data-cells'))).toBeGreaterThan(0)
  // How soon after the click they appear (within 2 s is the target) is a figure of the benchmark,
  // its start part, not a test.
})
