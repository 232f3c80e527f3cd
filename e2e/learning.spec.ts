/**
 * Learning by doing without losing work: run-replacing actions validated and undoable,
 * edited runs labelled, the timeline, one-click things to try, honest heatmaps, shortcuts,
 * validation words, topics, the opening port and paper citations — in Chromium against the
 * production build. Each test names the numbered defect of the issue it covers.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { heatmapCell, heatmapColours, heatmapValues } from './heatmaps'
import { expect, test, type AbrLabPage } from './fixtures'

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url))
mkdirSync(artifacts, { recursive: true })

async function runToEnd(lab: AbrLabPage): Promise<void> {
  await lab.chooseSpeed('as fast as possible')
  await lab.playButton.click()
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('finished')
}

const title = (lab: AbrLabPage) => lab.page.locator('header h1')
const TWO_SOURCE = 'Two-source WAN transient (ERICA, Nrm 32, RIF 1/16)'

test('1: a refused change & run again loses nothing; an accepted one is one undo step back to the run and pin', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await runToEnd(lab)
  const before = await lab.series('vc.vc1.acr')
  await page.getByRole('button', { name: 'Pin this run' }).click()
  await expect(page.getByTestId('pinned-label')).toContainText('Pinned: Two-source WAN transient')

  await page.getByText('Change & run again').click()
  await page.getByLabel('Parameter path').fill('vcs.*.rif')
  await page.getByLabel('New value').fill('banana')
  await page.getByRole('button', { name: 'Run again with this change' }).click()
  // Refused beside the input, in the engine's words, and everything is still there.
  await expect(page.getByTestId('compare-problem')).toContainText('Not run')
  await expect(page.getByTestId('compare-problem')).toContainText('rif')
  await expect(page.getByLabel('New value')).toHaveValue('banana')
  await expect(title(lab)).toHaveText(TWO_SOURCE)
  expect(await lab.status()).toBe('finished')
  expect(await lab.series('vc.vc1.acr')).toEqual(before)
  await expect(page.getByTestId('pinned-label')).toBeVisible()
  await page.screenshot({ path: `${artifacts}refused-run-again.png` })

  await page.getByLabel('New value').fill('1')
  await page.getByRole('button', { name: 'Run again with this change' }).click()
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('finished')
  await expect(title(lab)).toHaveText(`${TWO_SOURCE} (edited)`)
  expect(await lab.series('vc.vc1.acr')).not.toEqual(before)
  await page.getByRole('button', { name: 'Unpin' }).click()

  // One undo step: the previous scenario, its run rebuilt to the same time, and the pin.
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(title(lab)).toHaveText(TWO_SOURCE)
  await expect.poll(() => lab.nowMs(), { timeout: 60_000 }).toBeGreaterThanOrEqual(300)
  expect(await lab.series('vc.vc1.acr')).toEqual(before)
  await expect(page.getByTestId('pinned-label')).toContainText('Pinned: Two-source WAN transient')
  const doc = await lab.scenario()
  expect(doc.vcs.map((v) => v.rif)).toEqual([undefined, undefined])
})

test('1: opening a library file is one undo step too', async ({ lab, page }) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await page.getByRole('button', { name: 'Library' }).click()
  await page.locator('[data-scenario="fahmy-rif"] button.library-open').click()
  await expect(title(lab)).toHaveText('RIF 1/16 against RIF 1 at Nrm 256 (two-source WAN)')
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(title(lab)).toHaveText(TWO_SOURCE)
})

test('2: an edited run says so in its title, its About panel and its share link', async ({
  lab,
  page,
  context,
}) => {
  await lab.open('#scenario=fahmy-rif')
  await lab.waitUntilLoaded()
  await expect(title(lab)).toHaveText('RIF 1/16 against RIF 1 at Nrm 256 (two-source WAN)')
  await page.getByRole('tab', { name: 'About this scenario' }).click()
  await expect(page.getByTestId('edited-changes')).toHaveCount(0)
  await page
    .getByRole('group', { name: 'Variants of this scenario' })
    .getByRole('button', { name: 'RIF = 1', exact: true })
    .click()
  await expect(title(lab)).toHaveText('RIF 1/16 against RIF 1 at Nrm 256 (two-source WAN) (edited)')
  const changes = page.getByTestId('edited-changes')
  await expect(changes).toContainText('not the library file fahmy-rif.json')
  await expect(changes).toContainText('defaults.vc.rif: 0.0625 → 1')
  await page.screenshot({ path: `${artifacts}edited-about.png` })

  // The page's URL is the share link of the edited scenario: opened elsewhere, it is labelled too.
  await expect.poll(() => page.url()).toContain('#lab=')
  const other = await context.newPage()
  await other.goto(page.url())
  await expect(other.locator('header h1')).toHaveText(
    'RIF 1/16 against RIF 1 at Nrm 256 (two-source WAN) (edited)',
  )
  await other.close()
})

test('3: heatmaps use a fixed labelled scale by default, a relative one on request, values in a table', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await page.getByRole('tab', { name: 'Sweep' }).click()
  await page
    .getByLabel('First parameter', { exact: true })
    .selectOption({ label: 'every VC · RIF' })
  await page.getByLabel('First parameter values').fill('1/64, 1/8, 1')
  await page.getByLabel('Second parameter', { exact: true }).selectOption('')
  await page.getByRole('button', { name: 'Run 3 points' }).click()
  await expect(page.getByTestId('sweep-status')).toHaveAttribute('data-state', 'done', {
    timeout: 90_000,
  })

  const fairness = page.getByTestId('sweep-heatmap-fairness')
  await expect(fairness.getByTestId('heatmap-scale')).toContainText(
    'fixed scale: dark 0.000 → light 1.000',
  )
  const values = await heatmapValues(page, 'fairness')
  const spread = Math.max(...values) - Math.min(...values)
  expect(spread).toBeLessThan(0.1)
  // On the fixed scale, fairness values this close are (nearly) one colour: every cell's
  // luminance within a few per cent of the others.
  const lum = ([r, g, b]: number[]) => (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
  const fills = await heatmapColours(page, 'fairness')
  expect(fills).toHaveLength(3)
  expect(Math.max(...fills.map(lum)) - Math.min(...fills.map(lum))).toBeLessThan(0.15)
  const utilisation = page.getByTestId('sweep-heatmap-utilization')
  await expect(utilisation.getByTestId('heatmap-scale')).toContainText(
    'fixed scale: dark 0.000 → light 1.000',
  )
  await expect(
    page.getByTestId('sweep-heatmap-max_queue').getByTestId('heatmap-scale'),
  ).toContainText('fixed scale: dark 0 →')
  await expect(
    page.getByTestId('sweep-heatmap-cells_lost').getByTestId('heatmap-scale'),
  ).toContainText('fixed scale: dark 0 →')
  await page.locator('.heatmaps').scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${artifacts}heatmap-fixed.png` })

  // Relative: the sweep's own lowest to highest, written out.
  await page.getByLabel(/relative colour scale/).check()
  await expect(fairness.getByTestId('heatmap-scale')).toContainText('relative scale')
  if (spread > 0) {
    const relFills = await heatmapColours(page, 'fairness')
    expect(Math.max(...relFills.map(lum)) - Math.min(...relFills.map(lum))).toBeGreaterThan(0.3)
  }
  await page.screenshot({ path: `${artifacts}heatmap-relative.png` })

  // The values, readable on hover, by keyboard and in a table (read above).
  const cell = await heatmapCell(page, 'fairness', 1, 0)
  await cell.grid.hover({ position: cell.position })
  const written = await page.getByTestId('sweep-table-fairness').locator('td').nth(1).textContent()
  await expect(fairness.getByTestId('heatmap-tip')).toContainText(
    `every VC · RIF = 1/8: Fairness index ${written}`,
  )
  await page.mouse.move(0, 0)
  await cell.grid.focus()
  await expect(fairness.getByTestId('heatmap-tip')).toContainText('every VC · RIF = 1/64: Fairness')
  await cell.grid.press('ArrowRight')
  await cell.grid.press('ArrowRight')
  await expect(fairness.getByTestId('heatmap-tip')).toContainText('every VC · RIF = 1: Fairness')
  // Enter opens the focused cell's run on the page.
  await cell.grid.press('Enter')
  await expect(page.getByRole('tab', { name: 'Charts' })).toHaveAttribute('aria-selected', 'true')
  await expect.poll(async () => (await lab.scenario()).vcs.map((v) => v.rif)).toEqual([1, 1])
})

test('4 and the timeline: hovering or scrubbing shows one time everywhere — charts, queue bars and labels', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await runToEnd(lab)
  const t = await lab.series('t_ms')
  const acr = await lab.series('vc.vc1.acr')
  const port = 'l3'
  const queue = await lab.series(`port.${port}.queue`)
  const at = (time: number) => {
    let i = 0
    while (i + 1 < t.length && t[i + 1] <= time) i++
    return i
  }
  const label = page.locator('svg.topology-values text.acr-label').first()
  const live = page.locator('svg.topology-values g.live')

  // Hover the ACR chart in the middle of S2's stay: the drawing's label reads the hovered time.
  const chart = page.locator('svg#acr-chart')
  const box = await chart.boundingBox()
  if (!box) throw new Error('no chart')
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5)
  await expect(live).toHaveAttribute('data-held', 'true')
  const hovered = Number(await live.getAttribute('data-time'))
  await expect(label).toHaveText(`vc1 ${acr[at(hovered)].toFixed(1)} Mbit/s`)
  const cursorTime = Number(await chart.locator('g.cursor').getAttribute('data-time'))
  expect(at(cursorTime)).toBe(at(hovered))
  await page.mouse.move(0, 0)

  // Scrub the timeline to an earlier time (and one arrow step): everything is held there.
  const timeline = page.getByRole('slider', { name: 'Time in the run' })
  await timeline.fill('150.5')
  await timeline.press('ArrowLeft')
  const held = 150
  await expect(page.getByTestId('timeline-readout')).toContainText('held at t = 150.0 ms')
  await expect(chart.locator('g.cursor')).toHaveAttribute('data-time', String(held))
  await expect(page.locator('svg#queue-chart g.cursor')).toHaveAttribute('data-time', String(held))
  await expect(live).toHaveAttribute('data-time', String(t[at(held)]))
  await expect(label).toHaveText(`vc1 ${acr[at(held)].toFixed(1)} Mbit/s`)
  const canvas = page.getByTestId('animation-layer')
  await expect(canvas).toHaveAttribute('data-hover-time', String(held))
  await expect(canvas).toHaveAttribute(
    'data-queues',
    new RegExp(`(^| )${port}:${Math.round(queue[at(held)])}( |$)`),
  )
  // At 150 ms S2 is on: vc1 holds about half the link, not the 140 Mbit/s it ends at.
  expect(acr[at(held)]).toBeLessThan(100)
  expect(acr[acr.length - 1]).toBeGreaterThan(120)
  await page.screenshot({ path: `${artifacts}timeline-held.png` })

  // Dragging works as well as the arrows: to the far left is t = 0.
  const track = await timeline.boundingBox()
  if (!track) throw new Error('no timeline')
  await page.mouse.click(track.x + 2, track.y + track.height / 2)
  await expect(page.getByTestId('timeline-readout')).toContainText('held at t = 0.000 ms')
  // Back to live.
  await page.getByRole('button', { name: 'back to live' }).click()
  await expect(page.getByTestId('timeline-readout')).toHaveText('live')
  await expect(live).not.toHaveAttribute('data-held', 'true')
})

test('timeline: a live parameter change leaves a marker that says what changed; Play resumes from the live end', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  // Slowly (10 ms per second), so the change lands well inside the 300 ms run.
  await lab.chooseSpeed('10 ms per second')
  await lab.selectVc('vc1')
  await lab.playButton.click()
  await expect.poll(() => lab.nowMs(), { timeout: 30_000 }).toBeGreaterThan(20)
  const slider = lab.param('rif').getByRole('slider')
  await slider.focus()
  await slider.press('End')
  await expect(lab.announcement).toContainText('applied live')
  const mark = page.getByTestId('timeline-mark')
  await expect(mark).toHaveCount(1)
  await expect(mark).toHaveAttribute('title', /RIF of vc1 = 1/)
  // Pause, hold an earlier time, then Play: the timeline returns to live and the run goes on.
  await page.keyboard.press('Space')
  await expect.poll(() => lab.status()).toBe('paused')
  const timeline = page.getByRole('slider', { name: 'Time in the run' })
  await timeline.focus()
  await timeline.press('Home')
  await expect(page.getByTestId('timeline-readout')).toContainText('held at t = 0.000 ms')
  const pausedAt = await lab.nowMs()
  await page.keyboard.press('Space')
  await expect(page.getByTestId('timeline-readout')).toHaveText('live')
  await expect.poll(() => lab.nowMs()).toBeGreaterThan(pausedAt)
  await page.screenshot({ path: `${artifacts}timeline-mark.png` })
})

test('things to try: one click pins the current run and plays the suggested change, overlaid', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=fahmy-rif')
  await lab.waitUntilLoaded()
  await runToEnd(lab)
  await page.getByRole('tab', { name: 'About this scenario' }).click()
  const item = page.locator('.things-to-try li').filter({ hasText: 'Try RIF = 1/512' })
  await expect(item).toContainText('Try RIF = 1/512: each BRM raises the ACR by only 0.3 Mbit/s')
  await item.getByRole('button', { name: 'Try it' }).click()
  await expect(page.getByTestId('pinned-label')).toContainText('Pinned: RIF 1/16 against RIF 1')
  await expect(title(lab)).toContainText('(edited)')
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('finished')
  const doc = (await lab.scenario()) as unknown as { defaults: { vc: { rif: number } } }
  expect(doc.defaults.vc.rif).toBe(1 / 512)
  const acr = page.locator('svg#acr-chart')
  await expect(acr.locator('path[data-series="pinned:vc.vc1.acr"]')).toHaveCount(1)
  const pinned = await acr.locator('path[data-series="pinned:vc.vc1.acr"]').getAttribute('d')
  expect(pinned).not.toBe(await acr.locator('path[data-series="vc.vc1.acr"]').getAttribute('d'))
  await page.screenshot({ path: `${artifacts}things-to-try-overlay.png` })
})

test('5: shortcuts still work after touching a slider, except the arrows the slider needs', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  const speed = lab.speedSlider
  await speed.focus()
  const before = await speed.getAttribute('aria-valuetext')
  await speed.press('ArrowLeft')
  expect(await speed.getAttribute('aria-valuetext')).not.toBe(before)
  await page.keyboard.press('Space')
  await expect.poll(() => lab.status()).toBe('running')
  await page.keyboard.press('Space')
  await expect.poll(() => lab.status()).toBe('paused')
  await expect(speed).toBeFocused()
  await page.keyboard.press('r')
  await expect.poll(() => lab.nowMs()).toBe(0)
})

test('6: a value out of range names what was typed and the power-of-two rule, without paths', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await lab.selectVc('vc1')
  const field = lab.param('rif').getByRole('textbox')
  await field.fill('5')
  await field.press('Enter')
  const message = lab.param('rif').locator('.param-message')
  await expect(message).toContainText('5 is out of range: RIF is a power of two from 1/32768 to 1')
  await expect(message).not.toContainText('vcs.')
  await expect(message).not.toContainText('4 is')
  await expect(field).toHaveValue('5')
  await message.scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${artifacts}rif-out-of-range.png` })
})

test('7: the library groups by the topics the files are tagged with, not by their keys', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await page.getByRole('button', { name: 'Library' }).click()
  await page.getByRole('radio', { name: 'topic' }).check()
  const headings = await page.locator('.library-group > h3').allTextContents()
  for (const key of ['d', 'enabled', 'r_ref', 'f_min_mbps', 'Other'])
    expect(headings).not.toContain(key)
  for (const topic of ['ERICA', 'RIF', 'Satellite links', 'CLCC']) expect(headings).toContain(topic)
})

test('8: the queue chart opens on the bottleneck the topology implies, before Play and after Reset', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  const legend = page.getByRole('list', { name: /queue.*legend/i })
  await expect(legend).toContainText('port l3)')
  await expect(legend).not.toContainText(':rev')
  await lab.playButton.click()
  await expect.poll(() => lab.nowMs()).toBeGreaterThan(10)
  await lab.resetButton.click()
  await expect.poll(() => lab.sampleCount()).toBe(0)
  await expect(legend).toContainText('port l3)')
})

test('9: papers are cited by authors and title, never as seeds', async ({ lab, page }) => {
  await lab.open('#scenario=ohsaki-lan-fast-decrease')
  await lab.waitUntilLoaded()
  await page.getByRole('tab', { name: 'About this scenario' }).click()
  await expect(page.locator('.about .paper')).toContainText(
    'Ohsaki, Murata & Miyahara, “Performance of Rate-Based Congestion Control Algorithm with Binary-Mode Switch in ATM Networks”',
  )
  await expect(page.locator('.about .paper')).toContainText('doi:10.1109/CDC.1996.573562')
  await page.getByRole('button', { name: 'Library' }).click()
  await expect(page.locator('body')).not.toContainText(/seed 00\d/i)
  await page.getByRole('button', { name: 'Close the library' }).click()
  await page.getByRole('tab', { name: 'Parameter guide' }).click()
  await expect(page.locator('body')).not.toContainText(/seed 00\d/i)
})

test('10: npm start takes its port from PORT and refuses one that is not a port', () => {
  const root = fileURLToPath(new URL('../', import.meta.url))
  const result = spawnSync('bash', ['scripts/start.sh'], {
    cwd: root,
    env: { ...process.env, PORT: 'eighty' },
    encoding: 'utf8',
    timeout: 20_000,
  })
  expect(result.status).toBe(2)
  expect(result.stderr).toContain("PORT must be a port number from 1 to 65535, not 'eighty'")
})
