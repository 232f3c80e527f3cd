/**
 * Improvising on a finished run (the lab bench's one path for every change that replaces a run):
 * an edit after the end keeps the finished run pinned and one undo away, and the status line
 * speaks of the scenario on the page only.
 */
import { expect, test } from './fixtures'

const title = (lab: { page: import('@playwright/test').Page }) => lab.page.locator('header h1')
const TWO_SOURCE = 'Two-source WAN transient (ERICA, Nrm 32, RIF 1/16)'

test('an edit after the end pins the finished run, says so, and one undo brings that run back', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await lab.playToEnd()
  const endMs = await lab.nowMs()
  const before = await lab.series('vc.vc1.acr')
  await expect(page.getByTestId('pinned-label')).toHaveCount(0)

  await lab.selectVc('vc1')
  const slider = lab.param('rif').getByRole('slider')
  await slider.focus()
  await slider.press('End')
  await expect(lab.announcement).toContainText('restarted — the previous run is pinned')
  // The finished run is the overlay, named as it was; the new run starts from 0 ms.
  await expect(page.getByTestId('pinned-label')).toContainText(`Pinned: ${TWO_SOURCE}`)
  await expect(title(lab)).toHaveText(`${TWO_SOURCE} (edited)`)
  await expect.poll(() => lab.nowMs()).toBeLessThan(endMs)
  expect((await lab.scenario()).vcs.find((v) => v.id === 'vc1')?.rif).toBe(1)

  // One undo: the scenario as it was and its finished run, rebuilt to the same time, no pin.
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(title(lab)).toHaveText(TWO_SOURCE)
  await expect.poll(() => lab.nowMs(), { timeout: 60_000 }).toBeGreaterThanOrEqual(endMs)
  expect(await lab.series('vc.vc1.acr')).toEqual(before)
  await expect(page.getByTestId('pinned-label')).toHaveCount(0)
  expect((await lab.scenario()).vcs.find((v) => v.id === 'vc1')?.rif).toBeUndefined()
  await expect(lab.announcement).toContainText('the previous run is back')
})

test('the status line is cleared when another scenario opens', async ({ lab, page }) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await lab.selectVc('vc1')
  const slider = lab.param('rif').getByRole('slider')
  await slider.focus()
  await slider.press('End')
  await expect(lab.announcement).toContainText('RIF')

  await page.evaluate(() => {
    window.location.hash = '#scenario=fahmy-rif'
  })
  await expect(title(lab)).toHaveText('RIF 1/16 against RIF 1 at Nrm 256 (two-source WAN)')
  await lab.waitUntilLoaded()
  await expect(lab.announcement).toHaveText('')
})
