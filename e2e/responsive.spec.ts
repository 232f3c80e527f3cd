/**
 * Text from outside the page is read off its thread: a hostile share link is refused while the
 * page keeps drawing — no gap between two animation frames longer than 200 ms.
 */
import { expect, test, type AbrLabPage } from './fixtures'

/** A share link's hash (`#lab=1.…`), made the way web/src/scenario/shareLink.ts makes one. */
async function shareHash(payload: string): Promise<string> {
  const json = new TextEncoder().encode(payload)
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'))
  const compressed = Buffer.from(await new Response(stream).arrayBuffer())
  return `#lab=1.${compressed.toString('base64url')}`
}

/** Starts recording the gaps between animation frames. */
async function watchFrames(lab: AbrLabPage): Promise<void> {
  await lab.page.evaluate(() => {
    const w = window as unknown as { __gaps: number[]; __rafStop: boolean }
    w.__gaps = []
    w.__rafStop = false
    let last = performance.now()
    const step = (t: number) => {
      w.__gaps.push(t - last)
      last = t
      if (!w.__rafStop) requestAnimationFrame(step)
    }
    requestAnimationFrame(step)
  })
}

/** Stops recording; the longest gap, ms. */
async function worstGap(lab: AbrLabPage): Promise<number> {
  const gaps = await lab.page.evaluate(() => {
    const w = window as unknown as { __gaps: number[]; __rafStop: boolean }
    w.__rafStop = true
    return w.__gaps
  })
  expect(gaps.length).toBeGreaterThan(3)
  return Math.max(...gaps)
}

test('a hostile 5 kB share link is refused, the page drawing all along', async ({ lab, page }) => {
  await lab.open()
  await lab.waitUntilLoaded()

  // A long key over a long array: costly for a reader that builds a path per element.
  const hostile = await shareHash(`{"${'k'.repeat(400_000)}":[${'0,'.repeat(400_000)}0]}`)
  expect(hostile.length).toBeLessThan(5_000)
  await watchFrames(lab)
  await page.evaluate((h) => {
    window.location.hash = h
  }, hostile)
  await expect(lab.errorPanel).toContainText('The scenario you had is still open.', {
    timeout: 30_000,
  })
  const linkGap = await worstGap(lab)
  console.log(`hostile link: worst frame gap ${linkGap.toFixed(0)} ms`)
  expect(linkGap).toBeLessThan(200)
  await expect(page.locator('h1')).toContainText('Two-source WAN transient')
})
