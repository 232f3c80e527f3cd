/**
 * The animation for slides: a finished run recorded as a GIF and as a video, each with the frame
 * count its size and speed call for, parsed back from the file (the GIF's blocks by hand, the
 * WebM by Mediabunny's demuxer).
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { ALL_FORMATS, BufferSource, Input } from 'mediabunny'
import { expect, test, type AbrLabPage } from './fixtures'

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url))
mkdirSync(artifacts, { recursive: true })

const FPS = 25

/** Width, height, frame count and per-frame delays (ms) of a GIF, read from its blocks. */
function parseGif(bytes: Buffer): {
  width: number
  height: number
  frames: number
  delays: number[]
} {
  expect(bytes.subarray(0, 6).toString('latin1')).toMatch(/^GIF8[79]a$/)
  const width = bytes.readUInt16LE(6)
  const height = bytes.readUInt16LE(8)
  let p = 13
  if (bytes[10] & 0x80) p += 3 * 2 ** ((bytes[10] & 7) + 1)
  const skipSubBlocks = () => {
    while (bytes[p] !== 0) p += bytes[p] + 1
    p += 1
  }
  let frames = 0
  const delays: number[] = []
  for (;;) {
    const block = bytes[p]
    if (block === 0x3b) break
    if (block === 0x21) {
      if (bytes[p + 1] === 0xf9) delays.push(bytes.readUInt16LE(p + 4) * 10)
      p += 2
      skipSubBlocks()
    } else if (block === 0x2c) {
      frames += 1
      const packed = bytes[p + 9]
      p += 10
      if (packed & 0x80) p += 3 * 2 ** ((packed & 7) + 1)
      p += 1 // LZW minimum code size
      skipSubBlocks()
    } else {
      throw new Error(`unexpected GIF block 0x${block.toString(16)} at byte ${p}`)
    }
    if (p >= bytes.length) throw new Error('the GIF ends without its trailer')
  }
  return { width, height, frames, delays }
}

async function recordRun(lab: AbrLabPage, page: Page, kind: 'Video' | 'GIF', speed = 200) {
  const menu = page.locator('details.record-menu')
  if (!(await menu.evaluate((d) => (d as HTMLDetailsElement).open)))
    await menu.locator('summary').click()
  await menu.getByLabel('Size').selectOption({ label: '640 × 360' })
  await menu.getByLabel('Speed').selectOption(String(speed))
  const nowMs = await lab.nowMs()
  // One frame every speed/25 ms of the run (8 ms at 200 ms per second), and one at its end.
  const expected = Math.ceil(nowMs / (speed / FPS) - 1e-9) + 1
  await expect(page.getByTestId('record-plan')).toHaveAttribute('data-frames', String(expected))
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    menu.getByRole('button', { name: kind, exact: true }).click(),
  ])
  const path = await download.path()
  copyFileSync(path, `${artifacts}${download.suggestedFilename()}`)
  await expect(page.getByTestId('record-message')).toContainText(`${expected} frames`)
  return { expected, name: download.suggestedFilename(), body: readFileSync(path) }
}

test('a finished run recorded as a GIF and a WebM video, with the planned frames and size', async ({
  lab,
  page,
}) => {
  test.setTimeout(240_000)
  await lab.open()
  await lab.waitUntilLoaded()
  await lab.playToEnd()
  const untilMs = (await page.evaluate(() => window.__abrlab?.layout()?.until_ms)) ?? 0
  expect(await lab.nowMs()).toBeCloseTo(untilMs, 6)

  const gif = await recordRun(lab, page, 'GIF')
  expect(gif.name).toMatch(/-640x360\.gif$/)
  const parsed = parseGif(gif.body)
  expect({ width: parsed.width, height: parsed.height, frames: parsed.frames }).toEqual({
    width: 640,
    height: 360,
    frames: gif.expected,
  })
  expect(new Set(parsed.delays)).toEqual(new Set([1000 / FPS]))
  // The timeline is released after recording: the views are back at the live end.
  await expect(page.getByTestId('animation-layer')).toHaveAttribute('data-hover-time', '')

  const video = await recordRun(lab, page, 'Video')
  expect(video.name).toMatch(/-640x360\.(webm|mp4)$/)
  const input = new Input({ source: new BufferSource(video.body), formats: ALL_FORMATS })
  const track = await input.getPrimaryVideoTrack()
  if (!track) throw new Error('the video has no video track')
  expect([track.displayWidth, track.displayHeight]).toEqual([640, 360])
  const stats = await track.computePacketStats()
  expect(stats.packetCount).toBe(video.expected)
  expect(await input.computeDuration()).toBeCloseTo(video.expected / FPS, 2)
})

for (const [w, h] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`the Record menu at ${w}×${h} opens inside the window`, async ({ lab, page }) => {
    await page.setViewportSize({ width: w, height: h })
    await lab.open()
    await lab.waitUntilLoaded()
    if (w < 600) await page.getByRole('button', { name: 'Charts', exact: true }).click()
    const menu = page.locator('details.record-menu')
    await menu.locator('summary').click()
    const box = await menu.locator('.record-choices').boundingBox()
    if (!box) throw new Error('the Record menu did not open')
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(w + 0.5)
    await expect(page.getByTestId('record-plan')).toContainText('Play the run first')
    await expect(menu.getByRole('button', { name: 'GIF', exact: true })).toBeDisabled()
    await page.screenshot({ path: `${artifacts}record-menu-${w}x${h}.png` })
  })
}

test('before / after: a pinned run drawn above the current one, in one GIF', async ({
  lab,
  page,
}) => {
  test.setTimeout(240_000)
  await lab.open('#scenario=fahmy-rif')
  await lab.waitUntilLoaded()
  await lab.playToEnd()
  await page.getByRole('tab', { name: 'About this scenario' }).click()
  const item = page.locator('.things-to-try li').filter({ hasText: 'Try RIF = 1/512' })
  await item.getByRole('button', { name: 'Try it' }).click()
  await expect(page.getByTestId('pinned-label')).toContainText('Pinned:')
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('finished')
  const menu = page.locator('details.record-menu')
  await menu.locator('summary').click()
  await menu.getByLabel(/Before \/ after/).check()
  const untilMs = await lab.nowMs()
  const speed = untilMs <= 500 ? 200 : untilMs <= 2000 ? 1000 : 5000
  const gif = await recordRun(lab, page, 'GIF', speed)
  expect(gif.name).toMatch(/-before-after-640x360\.gif$/)
  const parsed = parseGif(gif.body)
  expect([parsed.width, parsed.height, parsed.frames]).toEqual([640, 360, gif.expected])
})
