/**
 * Text from outside the page is read off its thread: a hostile share link is refused while the
 * page keeps drawing — no gap between two animation frames longer than 200 ms.
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
  await page.evaluate((h) => {
    window.location.hash = h
  }, hostile)
  await expect(lab.errorPanel).toContainText('The scenario you had is still open.', {
    timeout: 30_000,
  })
  const gaps = await lab.frameGaps()
  expect(gaps.length).toBeGreaterThan(3)
  const linkGap = Math.max(...gaps)
  console.log(`hostile link: worst frame gap ${linkGap.toFixed(0)} ms`)
  expect(linkGap).toBeLessThan(200)
  await expect(page.locator('h1')).toContainText('Two-source WAN transient')
})
