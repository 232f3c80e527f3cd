/**
 * The page's thread is never held: a hostile share link is refused, and a 10,000-point sweep is
 * started and reported, while the page keeps drawing animation frames and answers a click. The
 * frame gaps are printed for reading; how smoothly the page draws under load is the benchmark's to
 * measure (`npm run bench`), not a test's.
 */
import { expect, test } from './fixtures'
import { shareHashOfText } from './scenarios'

test('a hostile 5 kB share link is refused, the page drawing all along', async ({ lab, page }) => {
  await lab.open()
  await lab.waitUntilLoaded()

  // A long key over a long array: costly for a reader that builds a path per element.
  const hostile = await shareHashOfText(`{"${'k'.repeat(400_000)}":[${'0,'.repeat(400_000)}0]}`)
  expect(hostile.length).toBeLessThan(5_000)
  await lab.recordFrameGaps()
  const started = await page.evaluate(() => performance.now())
  await page.evaluate((h) => {
    window.location.hash = h
  }, hostile)
  await expect(lab.errorPanel).toContainText('The scenario you had is still open.', {
    timeout: 30_000,
  })
  const took = (await page.evaluate(() => performance.now())) - started
  const gaps = await lab.frameGaps()
  expect(gaps.length).toBeGreaterThan(3)
  const linkGap = Math.max(...gaps)
  console.log(
    `hostile link: refused in ${took.toFixed(0)} ms, worst frame gap ${linkGap.toFixed(0)} ms`,
  )
  // Drawn all along: frames kept coming while the link was read and refused, and no single pause
  // between two of them lasted the whole time (the reading happens off the page's thread).
  expect(linkGap).toBeLessThan(took)
  await expect(page.locator('h1')).toContainText('Two-source WAN transient')
})

for (const id of ['two-source-wan', 'ma-500-vcs']) {
  test(`a 10,000-point sweep on ${id} starts, the page drawing and answering all along`, async ({
    lab,
    page,
  }) => {
    await lab.open(`#scenario=${id}`)
    await lab.waitUntilLoaded()
    await page.getByRole('tab', { name: 'Sweep' }).click()
    const values = (from: number, step: number, count = 100) =>
      Array.from({ length: count }, (_, i) => String(from + i * step)).join(', ')
    // The first link's rate across (50 to 149 Mbit/s), the switch ports' buffer down (1,000 to
    // 10,900 cells): every point is a run the engine takes.
    const first = page.getByLabel('First parameter', { exact: true })
    const options = await first.locator('option').allTextContents()
    await first.selectOption({ label: options.find((o) => /^link .* · Rate$/.test(o)) ?? 'none' })
    await page.getByLabel('First parameter values').fill(values(50, 1))
    await page
      .getByLabel('Second parameter', { exact: true })
      .selectOption({ label: 'switch ports · Buffer' })
    // One value more is over the limit: refused, naming it, before any point is made.
    await page.getByLabel('Second parameter values').fill(values(1_000, 100, 101))
    await page.getByRole('button', { name: 'Run 10100 points' }).click()
    await expect(page.getByRole('list', { name: 'Sweep problems' })).toContainText(
      'more than the limit of 10000 (limits.max_sweep_points)',
    )
    await page.getByLabel('Second parameter values').fill(values(1_000, 100))
    // While the gaps are recorded the test finds elements by CSS: finding them by role or label
    // walks the page's accessibility tree on its own thread, which is the test's cost, not the page's.
    const runButton = page.locator('.sweep-actions button.primary')
    await expect(runButton).toHaveText('Run 10000 points')

    await lab.recordFrameGaps()
    await runButton.click()
    const status = page.getByTestId('sweep-status')
    await expect(status).toHaveAttribute('data-state', 'running')
    await expect(status).toContainText('of 10000 runs done')
    // Let the workers report for a while: each finished point reaches the heatmaps.
    await page.waitForTimeout(4_000)
    // The page answers a click while the sweep runs.
    const relative = page.locator('.sweep-panel input[type="checkbox"]')
    await relative.check()
    await expect(relative).toBeChecked()
    await expect(
      page.getByTestId('sweep-heatmap-fairness').getByTestId('heatmap-scale'),
    ).toContainText('relative scale')
    // Answered while the sweep is still running, not when it ends.
    await expect(status).toHaveAttribute('data-state', 'running')
    await page.waitForTimeout(1_000)
    const gaps = await lab.frameGaps()
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect(status).toHaveAttribute('data-state', 'cancelled')
    // Frames kept coming while the workers ran.
    expect(gaps.length).toBeGreaterThan(3)
    const worst = Math.max(...gaps)
    console.log(
      `${id}, 10,000-point sweep: worst frame gap ${worst.toFixed(0)} ms over ${gaps.length} frames`,
    )
  })
}
