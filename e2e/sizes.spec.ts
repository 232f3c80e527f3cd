/**
 * Text sizes where a class sees the page: presentation mode on a 1920×1080 projector (the clock,
 * chart titles, key numbers and the drawing's labels at 24 px or more, the labels clear of each
 * other, every other text at 16 px or more, read-outs inside their boxes), every node's name inside
 * its node in presentation at 1920×1080 and 1280×800, every source's ACR label at one size when
 * room is short, a stop's narration and the whole drawing in a course page's frame, every node
 * named in that frame, a phone's drawing labels at 10 px or more, and small embeds (640×400 shows the queue chart under the ACR chart; no
 * label under 11 px at 640×400 and 480×360). Sizes are rendered sizes: an SVG's font size times
 * its scale.
 */
import type { Page } from '@playwright/test'
import { drawingBoxes, overlaps } from './drawing'
import { type AbrLabPage, expect, test } from './fixtures'

/** Rendered font size (px) of every visible text in `root`, labelled by where it is. */
async function textSizes(page: Page, root: string) {
  return page.evaluate((rootSel) => {
    const out: { what: string; px: number; text: string }[] = []
    const rootEl = document.querySelector(rootSel)
    if (!rootEl) return out
    const walker = document.createTreeWalker(rootEl, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').trim()
      const el = n.parentElement
      if (!text || !el) continue
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      if (el.closest('[hidden], dialog:not([open]), details:not([open]) > :not(summary)')) continue
      const style = getComputedStyle(el)
      if (style.visibility === 'hidden' || style.opacity === '0') continue
      // A visually hidden text for screen readers (1 px, clipped) is not shown.
      if (el.closest('.chart-readout:not(:focus-within)') && r.width <= 1) continue
      let px = parseFloat(style.fontSize)
      const svg = el instanceof SVGElement ? el.ownerSVGElement : null
      if (svg?.viewBox.baseVal && svg.viewBox.baseVal.width > 0)
        px *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width
      const what =
        el.closest('[class]')?.getAttribute('class')?.split(' ')[0] ?? el.tagName.toLowerCase()
      out.push({ what, px: Math.round(px * 10) / 10, text: text.slice(0, 30) })
    }
    return out
  }, root)
}

/** Opens a library scenario at a projector's size and switches to presentation mode (P). */
async function openPresenting(
  lab: AbrLabPage,
  page: Page,
  width: number,
  height: number,
  id: string,
) {
  await page.setViewportSize({ width, height })
  await lab.open(`#scenario=${id}`)
  await lab.waitUntilLoaded()
  await page.keyboard.press('p')
  await expect(page.locator('.app.present')).toHaveCount(1)
}

test('presentation at 1920×1080: clock, chart titles and key numbers ≥ 24 px, hints ≥ 16 px, read-outs fit', async ({
  lab,
  page,
}) => {
  await openPresenting(lab, page, 1920, 1080, 'two-source-wan')
  await lab.playToEnd()
  await page.locator('svg#acr-chart').hover({ position: { x: 200, y: 120 } })
  await expect(page.locator('svg#acr-chart g.readout text').first()).toBeVisible()
  await page.screenshot({ path: 'e2e/artifacts/present-record-1920.png' })
  const sizes = await textSizes(page, '.app.present')
  const px = (what: string) => sizes.filter((s) => s.what === what).map((s) => s.px)
  const clock = await page
    .getByTestId('sim-time')
    .evaluate((el) => parseFloat(getComputedStyle(el).fontSize))
  expect(clock).toBeGreaterThanOrEqual(24)
  expect(px('chart-header').length).toBeGreaterThanOrEqual(2)
  expect(Math.min(...px('chart-header'))).toBeGreaterThanOrEqual(24)
  expect(px('readout').length).toBeGreaterThanOrEqual(3)
  expect(Math.min(...px('readout'))).toBeGreaterThanOrEqual(24)
  // Every other text, hints and keys among them, at 16 px or more.
  expect(sizes.filter((s) => s.px < 16)).toEqual([])
  // The drawing's labels (node names, link captions, ACR and queue values) at 24 px or more, and
  // none over another, a node or a gauge.
  await expect(page.locator('.app.present svg.topology-values text.acr-label')).toHaveText([
    /^vc1 /,
    /^vc2 /,
  ])
  const drawing = [
    ...(await textSizes(page, '.app.present svg.topology')),
    ...(await textSizes(page, '.app.present svg.topology-values')),
  ]
  expect(drawing.filter((s) => s.px < 24)).toEqual([])
  expect(overlaps(await drawingBoxes(page))).toEqual([])
  // While S2 sends the bottleneck queues: its queue label too.
  const acrChart = page.locator('svg#acr-chart')
  const chartBox = await acrChart.boundingBox()
  await acrChart.hover({ position: { x: (chartBox?.width ?? 0) * 0.55, y: 120 } })
  await expect(page.locator('.app.present svg.topology-values text.queue-label')).toHaveCount(1)
  const queued = await textSizes(page, '.app.present svg.topology-values')
  expect(queued.filter((s) => s.px < 24)).toEqual([])
  expect(overlaps(await drawingBoxes(page))).toEqual([])
  await page.screenshot({ path: 'e2e/artifacts/present-queue-1920.png' })
  const selects = await page
    .locator('.app.present select:visible')
    .evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)))
  expect(Math.min(...selects)).toBeGreaterThanOrEqual(16)
  // The read-out's text lies inside its box, and the box inside the chart.
  const outside = await page.locator('svg#acr-chart g.readout').evaluate((g) => {
    const box = (g.querySelector('rect') as SVGRectElement).getBoundingClientRect()
    const svg = ((g as SVGGElement).ownerSVGElement as SVGSVGElement).getBoundingClientRect()
    const bad: string[] = []
    if (box.left < svg.left - 0.5 || box.right > svg.right + 0.5) bad.push('box outside chart')
    for (const t of g.querySelectorAll('text')) {
      const r = t.getBoundingClientRect()
      if (
        r.left < box.left - 0.5 ||
        r.right > box.right + 0.5 ||
        r.top < box.top - 0.5 ||
        r.bottom > box.bottom + 0.5
      )
        bad.push(`"${t.textContent}" outside its box`)
    }
    return bad
  })
  expect(outside).toEqual([])
})

/** Node names that overrun their node's shape (a switch's white name would vanish off its box). */
async function namesOutsideTheirNodes(page: Page): Promise<string[]> {
  return page.locator('svg.topology g.node').evaluateAll((nodes) =>
    nodes.flatMap((g) => {
      const name = g.querySelector('text')?.getBoundingClientRect()
      const shape = g.querySelector('rect, circle')?.getBoundingClientRect()
      if (!name || !shape) return []
      const inside = name.left >= shape.left - 0.5 && name.right <= shape.right + 0.5
      return inside ? [] : [`${g.getAttribute('data-node')}: ${name.width} px in ${shape.width}`]
    }),
  )
}

for (const [w, h, id] of [
  [1920, 1080, 'ohsaki-lan-slow-decrease'],
  [1280, 800, 'ohsaki-lan-slow-decrease'],
  [1280, 800, 'two-source-wan'],
] as const) {
  test(`presentation at ${w}×${h}: every node of ${id} holds its name`, async ({ lab, page }) => {
    await openPresenting(lab, page, w, h, id)
    // Names grow to the presentation's size as far as their nodes hold them.
    await expect.poll(() => namesOutsideTheirNodes(page)).toEqual([])
  })
}

test('presentation at 1280×800: ma-cbr-onoff keeps every ACR label, all one size, and its caption', async ({
  lab,
  page,
}) => {
  await openPresenting(lab, page, 1280, 800, 'ma-cbr-onoff')
  await page.locator('button.action-step').click()
  // S3 sits level with SW1: at the full presentation size its label finds no room, so the four
  // step down together rather than lose vc3's.
  const labels = page.locator('.app.present svg.topology-values text.acr-label')
  await expect(labels).toHaveText([/^vc1 /, /^vc2 /, /^vc3 /, /^vc4 /])
  const sizes = (await textSizes(page, '.app.present svg.topology-values'))
    .filter((s) => s.what === 'acr-label')
    .map((s) => s.px)
  expect(new Set(sizes).size).toBe(1)
  expect(sizes[0]).toBeGreaterThanOrEqual(16)
  // The links' caption, wider than the drawing at 24 px, steps down rather than vanish.
  await expect(page.locator('.app.present svg.topology text.links-caption')).toHaveText(
    'links unless marked: 155.52 Mbit/s · 0.8 µs',
  )
  expect(overlaps(await drawingBoxes(page))).toEqual([])
  await page.screenshot({ path: 'e2e/artifacts/present-ma-cbr-onoff-1280.png' })
})

for (const [w, h] of [
  [828, 420],
  [420, 560],
] as const) {
  test(`embed at ${w}×${h} at a stop: the narration from its first line, the drawing whole`, async ({
    lab,
    page,
  }) => {
    await page.setViewportSize({ width: w, height: h })
    // ma-500-vcs narrates from t = 0: its first stop shows as the frame opens (a reader who
    // pauses at stops, as a new reader does).
    await lab.open('?embed#scenario=ma-500-vcs', { stops: true })
    await lab.waitUntilLoaded()
    const note = page.getByTestId('stop-note')
    await expect(note.locator('h2')).toBeVisible()
    const box = async (selector: string) => {
      const b = await page.locator(selector).first().boundingBox()
      if (!b) throw new Error(`${selector} is not shown`)
      return b
    }
    const side = await box('aside.side')
    const title = await box('[data-testid="stop-note"] .stop-when')
    const drawing = await box('svg.topology')
    // The card starts at its first line, inside the column; the drawing below it, all of it.
    expect(title.y).toBeGreaterThanOrEqual(side.y)
    expect(drawing.y).toBeGreaterThan(title.y)
    expect(drawing.height).toBeGreaterThan(20)
    expect(drawing.y + drawing.height).toBeLessThanOrEqual(side.y + side.height + 0.5)
    await page.screenshot({ path: `e2e/artifacts/embed-stop-${w}x${h}.png` })
  })
}

test('phone 390×844: the drawing’s labels at 10 px or more, clear of each other', async ({
  lab,
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await lab.open('#scenario=two-source-wan')
  await lab.waitUntilLoaded()
  await page.locator('button.action-step').click()
  await expect(page.locator('svg.topology-values text.acr-label')).toHaveText([/^vc1 /, /^vc2 /])
  const drawing = [
    ...(await textSizes(page, 'svg.topology')),
    ...(await textSizes(page, 'svg.topology-values')),
  ]
  expect(drawing.length).toBeGreaterThanOrEqual(9)
  expect(drawing.filter((s) => s.what !== 'node-name' && s.px < 10)).toEqual([])
  // The hosts' names at 11 px; a switch's name is as large as its box holds (about 10 px here).
  const hosts = drawing.filter((s) => s.what === 'node-name' && /^[SD]\d$/.test(s.text))
  expect(hosts.map((s) => s.text).sort()).toEqual(['D1', 'D2', 'S1', 'S2'])
  expect(hosts.filter((s) => s.px < 11)).toEqual([])
  expect(overlaps(await drawingBoxes(page))).toEqual([])
})

test('embed at 860×420, the example course page’s frame: every node named, at 11 px or more', async ({
  lab,
  page,
}) => {
  await page.setViewportSize({ width: 860, height: 420 })
  await page.goto('/?embed#scenario=two-source-wan')
  await page.waitForFunction(() => window.__abrlab !== undefined)
  await lab.waitUntilLoaded()
  const names = (await textSizes(page, '.app.embed svg.topology')).filter(
    (s) => s.what === 'node-name',
  )
  expect(names.map((s) => s.text).sort()).toEqual(['D1', 'D2', 'S1', 'S2', 'SW1', 'SW2'])
  expect(Math.min(...names.map((s) => s.px))).toBeGreaterThanOrEqual(11)
  expect(await namesOutsideTheirNodes(page)).toEqual([])
})

for (const [w, h] of [
  [640, 400],
  [480, 360],
] as const) {
  test(`embed at ${w}×${h}: the charts it shows, no label under 11 px`, async ({ lab, page }) => {
    await page.setViewportSize({ width: w, height: h })
    await page.goto('/?embed#scenario=two-source-wan')
    await page.waitForFunction(() => window.__abrlab !== undefined)
    await lab.waitUntilLoaded()
    await lab.playToEnd()
    await expect(page.locator('svg#acr-chart')).toBeVisible()
    if (w >= 640) await expect(page.locator('svg#queue-chart')).toBeVisible()
    await page.screenshot({ path: `e2e/artifacts/embed-sizes-${w}x${h}.png` })
    const sizes = await textSizes(page, '.app.embed')
    console.log(JSON.stringify(sizes.filter((s) => s.px < 12)))
    expect(sizes.filter((s) => s.px < 11)).toEqual([])
  })
}
