/**
 * The lab bench: editing the network on the canvas, live parameters, share links, embed
 * mode and keyboard operation, in Chromium against the production build.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url))
mkdirSync(artifacts, { recursive: true })

/** Centre of an element on the page. */
async function centre(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = await page.locator(selector).boundingBox()
  if (!box) throw new Error(`${selector} is not on the page`)
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

/** A topology node's position in the drawing (its translate), and a link's end points. */
async function nodeAt(page: Page, id: string): Promise<{ x: number; y: number }> {
  const transform =
    (await page.locator(`svg.topology [data-node="${id}"]`).getAttribute('transform')) ?? ''
  const m = /translate\(([-\d.e]+),([-\d.e]+)\)/.exec(transform)
  if (!m) throw new Error(`node ${id} has no position: ${transform}`)
  return { x: Number(m[1]), y: Number(m[2]) }
}

async function linkEnds(
  page: Page,
  id: string,
): Promise<{ x1: number; y1: number; x2: number; y2: number }> {
  const line = page.locator(`svg.topology [data-link="${id}"] line`)
  const read = async (name: string) => Number(await line.getAttribute(name))
  return { x1: await read('x1'), y1: await read('y1'), x2: await read('x2'), y2: await read('y2') }
}

test('drag a node: its links follow, the run goes on, and undo puts it back', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await lab.chooseSpeed('20 ms per second')
  await lab.playButton.click()
  await expect.poll(() => lab.nowMs()).toBeGreaterThan(5)

  const before = await linkEnds(page, 'l1') // S1–SW1
  const s1 = await nodeAt(page, 'S1')
  expect(before.x1).toBeCloseTo(s1.x, 3)
  expect(before.y1).toBeCloseTo(s1.y, 3)

  const from = await centre(page, '[data-edit-node="S1"]')
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(from.x + 40, from.y + 70, { steps: 8 })
  // Mid-drag: the node and the end of its link have moved together.
  const dragged = await nodeAt(page, 'S1')
  const during = await linkEnds(page, 'l1')
  expect(Math.hypot(dragged.x - s1.x, dragged.y - s1.y)).toBeGreaterThan(30)
  expect(during.x1).toBeCloseTo(dragged.x, 3)
  expect(during.y1).toBeCloseTo(dragged.y, 3)
  await page.screenshot({ path: `${artifacts}drag-node.png` })
  await page.mouse.up()

  // After the drop the drawing is refitted; the link still starts at the node.
  const dropped = await nodeAt(page, 'S1')
  const after = await linkEnds(page, 'l1')
  expect(after.x1).toBeCloseTo(dropped.x, 3)
  expect(after.y1).toBeCloseTo(dropped.y, 3)
  expect(after).not.toEqual(before)

  // The position is in the scenario, and the run was never restarted.
  const doc = await lab.scenario()
  expect(doc.nodes.find((n) => n.id === 'S1')?.y).toBeGreaterThan(90)
  expect(await lab.status()).toBe('running')
  const t1 = await lab.nowMs()
  await expect.poll(() => lab.nowMs()).toBeGreaterThan(t1)
  const times = await lab.series('t_ms')
  expect(times[0]).toBeCloseTo(0.5, 6) // one continuous run from 0 ms
  for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1])

  await page.keyboard.press('Control+z')
  await expect.poll(async () => (await lab.scenario()).nodes.find((n) => n.id === 'S1')?.y).toBe(90)
  expect(await lab.status()).toBe('running')
})

test('add a VC by picking its source and destination: it appears in the charts', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  const editor = page.getByRole('toolbar', { name: 'Edit the network' })

  // A VC cannot start at a switch: refused beside the switch, nothing changes.
  await editor.getByRole('button', { name: '+ VC' }).click()
  await lab.editNode('SW1').click()
  await expect(page.locator('.callout')).toContainText('a VC starts at a host')
  await lab.editNode('S1').click()
  await expect(page.locator('.editor-hint')).toContainText('New VC S1')
  // The destination is not adjacent: the shortest way through the switches is filled in.
  await lab.editNode('D2').click()
  await expect.poll(async () => (await lab.scenario()).vcs.map((v) => v.id)).toContain('vc3')
  const vc3 = (await lab.scenario()).vcs.find((v) => v.id === 'vc3')
  expect(vc3?.path).toEqual(['S1', 'SW1', 'SW2', 'D2'])

  // The engine rebuilt the run with it: the legend and the data have vc3.
  await expect(page.getByRole('list', { name: 'Allowed cell rate per VC legend' })).toContainText(
    'vc3',
  )
  await lab.playToEnd()
  await expect(lab.acrChart.locator('path[data-series="vc.vc3.acr"]')).toHaveCount(1)
  const acr = await lab.series('vc.vc3.acr')
  expect(Math.max(...acr)).toBeGreaterThan(10)
  await page.screenshot({ path: `${artifacts}add-vc.png` })

  // A zero-rate link is refused at the field, with the engine's reason.
  await page.locator('[data-edit-link="l3"]').click()
  const rate = lab.param('rate_mbps')
  await rate.getByRole('textbox').fill('0')
  await rate.getByRole('textbox').press('Enter')
  // The message names the typed value and the allowed range, not an internal path.
  await expect(rate.locator('.param-message')).toContainText('0 is out of range')
  expect((await lab.scenario()).links.find((l) => l.id === 'l3')?.rate_mbps).toBe(155.52)
})

test('moving the RIF slider mid-run changes the ACR curve from that moment on', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await lab.playToEnd()
  const baseT = await lab.series('t_ms')
  const baseAcr = await lab.series('vc.vc1.acr')

  await lab.resetButton.click()
  await expect.poll(() => lab.sampleCount()).toBe(0)
  // Slowly enough (20 ms per second) that the change certainly lands before S2 stops at 200 ms.
  await lab.chooseSpeed('20 ms per second')
  await lab.selectVc('vc1')
  await lab.playButton.click()
  await expect.poll(() => lab.nowMs(), { timeout: 30_000 }).toBeGreaterThan(100)
  expect(await lab.status()).toBe('running')

  // RIF 1/16 → 1: after S2 stops (200 ms) S1 regains its share in one BRM instead of eight.
  const slider = lab.param('rif').getByRole('slider')
  await slider.focus()
  await slider.press('End')
  await expect(lab.announcement).toContainText('applied live')
  // The engine says when the change took effect.
  const changedAt = Number(
    /applied live at t = ([\d.]+) ms/.exec((await lab.announcement.textContent()) ?? '')?.[1],
  )
  expect(changedAt).toBeGreaterThan(100)
  expect(changedAt).toBeLessThan(200)
  await expect(lab.param('rif').getByRole('textbox')).toHaveValue('1')
  expect(await lab.status()).toBe('running')

  await lab.playToEnd()
  const t = await lab.series('t_ms')
  const acr = await lab.series('vc.vc1.acr')
  expect(t).toEqual(baseT)
  // The same run up to the change…
  const untouched = t.filter((x) => x < changedAt - 1).length
  expect(untouched).toBeGreaterThan(200)
  expect(acr.slice(0, untouched)).toEqual(baseAcr.slice(0, untouched))
  // …and a different one after it: S1 is back near 140 Mbit/s within a round trip of S2 stopping.
  const gain = t.map((x, i) => (x > 200 && x < 240 ? acr[i] - baseAcr[i] : 0))
  expect(Math.max(...gain)).toBeGreaterThan(20)
  await page.screenshot({ path: `${artifacts}rif-live.png` })
})

test('a share link reproduces the scenario, its parameters, the view and the identical run', async ({
  lab,
  page,
  context,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  // Edits: a VC parameter, a switch knob on one port, a node moved with the keyboard.
  await lab.selectVc('vc2')
  const rif = lab.param('rif').getByRole('textbox')
  await rif.fill('0.3')
  await rif.press('Enter')
  await expect(lab.param('rif').locator('.param-message')).toContainText('snapped to 1/4')
  await page.locator('[data-edit-link="l3"]').click()
  const target = lab.param('target_utilization').getByRole('textbox')
  await target.fill('0.8')
  await target.press('Enter')
  await lab.editNode('D2').focus()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await lab.selectVc('vc1')
  await lab.playToEnd()
  const original = await lab.allSeries()
  const edited = await lab.scenario()
  expect(Object.keys(original).length).toBeGreaterThan(5)

  await page.getByRole('button', { name: 'Share' }).click()
  const linkField = page.getByTestId('share-link')
  await expect(linkField).toHaveValue(/#lab=1\./)
  const link = await linkField.inputValue()
  expect(link.length).toBeLessThan(4000)
  await expect(page.getByTestId('embed-snippet')).toHaveValue(
    /<iframe src="[^"]*\?embed&amp;autoplay#lab=1\./,
  )

  const other = await context.newPage()
  await other.goto(link)
  await other.waitForFunction(() => window.__abrlab?.status() === 'paused')
  expect(await other.evaluate(() => window.__abrlab?.scenario())).toEqual(edited)
  // The view came along: vc1 selected in the parameter panel, the speed at its maximum.
  await expect(
    other.getByRole('group', { name: 'Select a VC' }).getByRole('button', { name: /^vc1\b/ }),
  ).toHaveAttribute('aria-pressed', 'true')
  await expect(other.getByRole('slider', { name: 'Speed' })).toHaveAttribute(
    'aria-valuetext',
    'as fast as possible',
  )
  await other.locator('button.action-togglePlay').click()
  await other.waitForFunction(() => window.__abrlab?.status() === 'finished', undefined, {
    timeout: 60_000,
  })
  const reproduced = await other.evaluate(() => {
    const api = window.__abrlab
    return api ? Object.fromEntries(api.columns().map((c) => [c, api.series(c)])) : {}
  })
  expect(reproduced).toEqual(original)
  await other.screenshot({ path: `${artifacts}share-link-opened.png` })
  await other.close()
})

test('a damaged link opens the default scenario with a clear message, never a blank page', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await page.getByRole('button', { name: 'Share' }).click()
  const link = await page.getByTestId('share-link').inputValue()
  const hash = link.slice(link.indexOf('#'))

  const cases: [string, RegExp][] = [
    [hash.slice(0, hash.length - 30), /could not be opened[\s\S]*incomplete/],
    [hash.replace('#lab=1.', '#lab=7.'), /newer ABR Lab/],
    ['#lab=1.this-is-not-a-scenario', /could not be opened/],
    ['#lab=banana', /format version/],
  ]
  for (const [broken, message] of cases) {
    await page.goto(`about:blank`)
    await lab.open(broken)
    await expect(lab.errorPanel).toContainText(message)
    await expect(lab.errorPanel).toContainText('The default scenario is open instead')
    await lab.waitUntilLoaded()
    await expect(page.locator('h1')).toContainText('Two-source WAN transient')
    await expect(lab.acrChart).toBeVisible()
  }
  await page.screenshot({ path: `${artifacts}broken-link.png` })
  // It runs, and the message can be put away.
  await page.keyboard.press('Space')
  await expect.poll(() => lab.status()).toBe('running')
  await lab.errorPanel.getByRole('button', { name: 'Dismiss' }).click()
  await expect(lab.errorPanel).toHaveCount(0)
})

test('embed mode: minimal chrome, fits its frame, autoplay; the example page embeds its scenarios', async ({
  lab,
  page,
}) => {
  await page.setViewportSize({ width: 720, height: 420 })
  await page.goto('/?embed&autoplay#scenario=fahmy-rif')
  await page.waitForFunction(() => window.__abrlab !== undefined)
  // Autoplay: running without a press.
  await expect.poll(() => lab.sampleCount(), { timeout: 30_000 }).toBeGreaterThan(10)
  await expect(page.locator('h1')).toContainText('RIF 1/16 against RIF 1')
  await expect(page.getByRole('button', { name: 'Library' })).toHaveCount(0)
  await expect(page.getByRole('toolbar', { name: 'Edit the network' })).toHaveCount(0)
  // The embed keeps the network and the ACR chart (the other charts give way in a small frame).
  await expect(lab.acrChart).toBeVisible()
  await expect(page.locator('svg.topology').first()).toBeVisible()
  const overflow = await page.evaluate(() => ({
    x: document.documentElement.scrollWidth - window.innerWidth,
    y: document.documentElement.scrollHeight - window.innerHeight,
  }))
  expect(overflow).toEqual({ x: 0, y: 0 })
  await expect(page.getByRole('link', { name: /ABR Lab/ })).toHaveAttribute(
    'href',
    /#scenario=fahmy-rif$/,
  )
  await page.screenshot({ path: `${artifacts}embed.png` })

  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto('/embed-example.html')
  const frames = page.locator('iframe')
  // Two scenarios at full width and a narrow 420 px frame (e2e/seeing.spec.ts checks that one).
  await expect(frames).toHaveCount(3)
  const first = page.frameLocator('iframe >> nth=0')
  const second = page.frameLocator('iframe >> nth=1')
  await expect(first.locator('h1')).toContainText('Two-source WAN transient')
  await expect(second.locator('h1')).toContainText('RIF 1/16 against RIF 1')
  await expect(first.locator('svg#acr-chart')).toBeVisible()
  // The second frame autoplays; the first waits for its reader.
  const frame = (i: number) =>
    page
      .frames()
      .find(
        (f) => f !== page.mainFrame() && f.url().includes(i === 0 ? 'two-source-wan' : 'fahmy-rif'),
      )
  await expect
    .poll(async () => frame(1)?.evaluate(() => window.__abrlab?.sampleCount() ?? 0), {
      timeout: 30_000,
    })
    .toBeGreaterThan(10)
  expect(await frame(0)?.evaluate(() => window.__abrlab?.status())).toBe('paused')
  await page.screenshot({ path: `${artifacts}embed-example.png` })
})

test('keyboard only: play, pause and single step, with visible focus', async ({ lab, page }) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await page.keyboard.press('Space')
  await expect.poll(() => lab.status()).toBe('running')
  await page.keyboard.press('Space')
  await expect.poll(() => lab.status()).toBe('paused')

  // S steps one sample interval (0.5 ms here) and stays paused.
  const t0 = await lab.nowMs()
  await page.keyboard.press('s')
  await expect.poll(() => lab.nowMs()).toBeCloseTo(t0 + 0.5, 6)
  expect(await lab.status()).toBe('paused')

  // Tab to the Step button and press it; the focus ring shows where the keyboard is.
  await page.locator('body').focus()
  let onStep = false
  for (let i = 0; i < 10 && !onStep; i++) {
    await page.keyboard.press('Tab')
    onStep = await page.evaluate(
      () => document.activeElement?.classList.contains('action-step') ?? false,
    )
  }
  expect(onStep).toBe(true)
  const outline = await page.evaluate(
    () => getComputedStyle(document.activeElement as Element).outlineStyle,
  )
  expect(outline).not.toBe('none')
  await page.keyboard.press('Enter')
  await expect.poll(() => lab.nowMs()).toBeCloseTo(t0 + 1, 6)
  await page.screenshot({ path: `${artifacts}keyboard-focus.png` })

  // Shift+Tab back to Play: Space there plays, and Space pauses again.
  await page.keyboard.press('Shift+Tab')
  await expect(lab.playButton).toBeFocused()
  await page.keyboard.press('Space')
  await expect.poll(() => lab.status()).toBe('running')
  await page.keyboard.press('Space')
  await expect.poll(() => lab.status()).toBe('paused')
  // Speed by keyboard: + and − move through the stops.
  const speed = await lab.speedSlider.getAttribute('aria-valuetext')
  await page.locator('body').focus()
  await page.keyboard.press('+')
  await expect(lab.speedSlider).not.toHaveAttribute('aria-valuetext', speed ?? '')
  await page.keyboard.press('-')
  await expect(lab.speedSlider).toHaveAttribute('aria-valuetext', speed ?? '')
})

test('the library lists every scenario by paper and topic, opens one in a click, and explains a bad file', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await page.getByRole('button', { name: 'Library' }).click()
  const dialog = page.getByRole('dialog', { name: 'Scenario library' })
  await expect(dialog).toBeVisible()
  const ids = await page.evaluate(() =>
    [...document.querySelectorAll('.library-entry')].map((e) => e.getAttribute('data-scenario')),
  )
  expect(new Set(ids).size).toBeGreaterThanOrEqual(6)
  await expect(
    dialog.getByRole('region', { name: /ABR Engineering: Roles and Guidelines/ }),
  ).toBeVisible()
  await dialog.getByText('topic', { exact: true }).click()
  await expect(dialog.getByRole('region', { name: 'RIF' })).toBeVisible()
  await page.screenshot({ path: `${artifacts}library.png` })

  // A file the engine rejects: every problem with its path, and the open scenario stays.
  await dialog.getByLabel('Load a scenario file…').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({
        format: 'abr-lab/scenario',
        version: 1,
        nodes: [],
        links: 'none',
        vcs: [],
        colour: 'red',
      }),
    ),
  })
  const problems = dialog.getByRole('alert', { name: 'The file was not loaded' })
  await expect(problems).toContainText('broken.json was not loaded')
  await expect(problems).toContainText('links: expected an array')
  await expect(problems).toContainText('colour')

  // One click opens a scenario with a variant applied.
  await dialog.getByText('paper', { exact: true }).click()
  await dialog
    .locator('[data-scenario="fahmy-nrm"]')
    .getByRole('button', { name: 'Nrm = 8' })
    .click()
  await expect(dialog).toBeHidden()
  await lab.waitUntilLoaded()
  await expect(page.locator('h1')).toContainText('Nrm 8, 32, 256')
  expect((await lab.scenario()).defaults).toMatchObject({ vc: { nrm: 8 } })
})
