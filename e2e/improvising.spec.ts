/**
 * Trust when improvising: what a lecturer meets when trying things on the page — hover never
 * shows a time not yet simulated, a switch's bottleneck port comes first, a knob that does nothing
 * says so, many VCs never bury the parameters, an overlay's legend is said once, a link from a
 * newer ABR Lab says so. Screenshots go to e2e/artifacts (not committed).
 */
import { fileURLToPath } from 'node:url'
import { expect, test } from './fixtures'

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url))

test('hover past the live end shows the live end, never a time not yet simulated', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await lab.chooseSpeed('10 ms per second')
  await lab.playButton.click()
  await expect.poll(() => lab.nowMs(), { timeout: 30_000 }).toBeGreaterThan(25)
  await lab.playButton.click()
  await expect.poll(() => lab.status()).toBe('paused')
  const now = await lab.nowMs()
  expect(now).toBeLessThan(150)

  // The x axis spans the whole run (300 ms): hover about 220 ms, far past the live end.
  const box = await lab.acrChart.boundingBox()
  if (!box) throw new Error('no ACR chart')
  await page.mouse.move(box.x + 60 + (box.width - 76) * 0.73, box.y + box.height * 0.5)
  const hover = page.getByTestId('hover-time')
  await expect(hover).toContainText('Values at t =')
  const shown = Number(await lab.acrChart.locator('g.cursor').getAttribute('data-time'))
  expect(shown).toBeLessThanOrEqual(now)
  expect(shown).toBeGreaterThan(now - 1)
  const shownText = await hover.textContent()
  expect(Number(/t = ([\d.]+) ms/.exec(shownText ?? '')?.[1])).toBeLessThanOrEqual(now + 0.05)
  // Every chart and the drawing agree on that time.
  await expect(page.locator('svg#queue-chart g.cursor')).toHaveAttribute('data-time', String(shown))
  await page.screenshot({ path: `${artifacts}hover-live-end.png` })

  // The timeline ends at the live end too.
  const timeline = page.getByRole('slider', { name: 'Time in the run' })
  expect(Number(await timeline.getAttribute('max'))).toBeLessThanOrEqual(now + 0.5)
})

test('a switch lists its bottleneck port first, each port named "SW1 → SW2 (l3)"', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await lab.editNode('SW1').click()
  await page.getByRole('tab', { name: 'Parameters' }).click()
  const headings = page.locator('.params-panel .param-section h3')
  await expect(headings).toHaveText([
    'Port SW1 → SW2 (l3)',
    'Port SW1 → S1 (l1)',
    'Port SW1 → S2 (l2)',
  ])
  await expect(page.getByRole('heading', { name: 'Parameters of SW1' })).toBeVisible()
  // The first "Target utilisation" is the bottleneck's: changing it changes SW1 → SW2.
  const target = lab.param('target_utilization')
  await target.getByRole('textbox').fill('0.8')
  await target.getByRole('textbox').press('Enter')
  await expect
    .poll(async () => {
      const doc = (await lab.scenario()) as unknown as {
        links: { id: string; a_to_b?: { algorithm?: { target_utilization?: number } } }[]
      }
      return doc.links.find((l) => l.id === 'l3')?.a_to_b?.algorithm?.target_utilization
    })
    .toBe(0.8)
  await expect(lab.announcement).toContainText('SW1 → SW2 (l3)')
})

test('a knob with no effect says so beside it: Ma set-point with queue management off', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=ma-two-switch')
  await lab.waitUntilLoaded()
  await lab.editNode('SW1').click()
  await page.getByRole('tab', { name: 'Parameters' }).click()
  await expect(page.locator('.params-panel .param-section h3').first()).toHaveText(
    'Port SW1 → SW2 (trunk)',
  )
  const setPoint = lab.param('set_point_cells')
  await expect(setPoint).toContainText('No effect while Queue management is off.')
  await expect(lab.param('capacity_interval_ms')).not.toContainText('No effect')
  await page.screenshot({ path: `${artifacts}no-effect-note.png` })
  await lab.param('queue_management').getByRole('switch').check()
  await expect(setPoint).not.toContainText('No effect')
})

test('with 500 VCs the Parameters tab shows the selection and a VC filter, not 500 buttons', async ({
  lab,
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await lab.open('#scenario=ma-500-vcs')
  await lab.waitUntilLoaded()
  await page.getByRole('tab', { name: 'Parameters' }).click()
  const picker = page.getByRole('group', { name: 'Select a VC' })
  const chips = picker.locator('button.vc-chip:not(.plain)')
  expect(await chips.count()).toBeLessThanOrEqual(16)
  const filter = picker.getByRole('searchbox', { name: /Filter the 500 VCs/ })
  await filter.fill('S117')
  await expect(chips).toHaveCount(1)
  await chips.first().click()
  const heading = page.getByRole('heading', { name: 'Parameters of S117', exact: true })
  await expect(heading).toBeInViewport()
  // The VC's own parameters follow the filter's few chips, not hundreds of buttons.
  const top = await heading.boundingBox()
  const abr = await page.getByRole('heading', { name: 'ABR parameters of S117' }).boundingBox()
  expect((abr?.y ?? 1e9) - (top?.y ?? 0)).toBeLessThan(200)
  // The selected VC keeps its chip whatever the filter says.
  await filter.fill('')
  await expect(picker.getByRole('button', { name: /^S117\b/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await page.screenshot({ path: `${artifacts}params-500-vcs.png` })
})

test('an overlay’s legend is one shared line above the charts, not repeated in each', async ({
  lab,
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await lab.open()
  await lab.waitUntilLoaded()
  await lab.playToEnd()
  await page.getByRole('button', { name: 'Pin this run' }).click()
  await lab.resetButton.click()
  await expect.poll(() => lab.nowMs()).toBe(0)
  const shared = page.getByRole('list', { name: 'Runs overlaid on every chart' })
  await expect(shared).toHaveCount(1)
  await expect(shared).toContainText('faint band: pinned')
  await expect(page.locator('.chart-panel .legend', { hasText: 'faint band' })).toHaveCount(0)
  const plot = await lab.acrChart.boundingBox()
  expect(plot?.height ?? 0).toBeGreaterThan(120)
  await page.screenshot({ path: `${artifacts}overlay-legend.png` })
})

test('a link from a newer ABR Lab says it was made by a newer ABR Lab, not that it is damaged', async ({
  lab,
  page,
}) => {
  await lab.open('#lab=7.AAAA')
  await expect(lab.errorPanel).toContainText('made by a newer ABR Lab')
  await expect(lab.errorPanel).not.toContainText('damaged')
  await expect(lab.errorPanel).toContainText('The default scenario is open instead')
  await lab.waitUntilLoaded()
  await expect(page.locator('h1')).toContainText('Two-source WAN transient')
})

test('touch-drag moves a node on a phone', async ({ browser }) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    baseURL: test.info().project.use.baseURL,
  })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto('/#scenario=two-source-wan')
  await page.waitForFunction(() => window.__abrlab?.status() === 'paused')
  const node = page.locator('[data-edit-node="SW2"]')
  await node.scrollIntoViewIfNeeded()
  const box = await node.boundingBox()
  if (!box) throw new Error('no SW2 target')
  const nodeY = () =>
    page.evaluate(() => {
      const doc = window.__abrlab?.scenario() as { nodes: { id: string; y: number }[] } | undefined
      return doc?.nodes.find((n) => n.id === 'SW2')?.y ?? Number.NaN
    })
  const before = await nodeY()
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  // A finger on the node, moved 40 px down in steps, then lifted.
  const cdp = await context.newCDPSession(page)
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', px: number, py: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: px, y: py, id: 1 }],
    })
  await touch('touchStart', x, y)
  for (let i = 1; i <= 8; i++) await touch('touchMove', x, y + i * 5)
  await touch('touchEnd', x, y + 40)
  await expect.poll(nodeY).toBeGreaterThan(before + 5)
  await page.screenshot({ path: `${artifacts}touch-drag-390.png` })
  expect(problems).toEqual([])
  await context.close()
})

/** Axis titles whose drawn box leaves their chart's <svg> (clipped), with how far. */
async function clippedAxisTitles(page: import('@playwright/test').Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    for (const svg of document.querySelectorAll('.chart-panel svg[id]')) {
      // The plot's box clips what leaves it, as the <svg> itself does.
      const own = svg.getBoundingClientRect()
      const box = svg.closest('.chart-box')?.getBoundingClientRect() ?? own
      const frame = {
        left: Math.max(own.left, box.left),
        top: Math.max(own.top, box.top),
        right: Math.min(own.right, box.right),
        bottom: Math.min(own.bottom, box.bottom),
        height: Math.min(own.bottom, box.bottom) - Math.max(own.top, box.top),
      }
      if (own.width === 0 || frame.height <= 0) continue
      for (const text of svg.querySelectorAll('g.x-label text, g.y-label text')) {
        const r = text.getBoundingClientRect()
        if (
          r.left < frame.left - 0.5 ||
          r.top < frame.top - 0.5 ||
          r.right > frame.right + 0.5 ||
          r.bottom > frame.bottom + 0.5
        )
          out.push(
            `${svg.id}: "${text.textContent}" (${Math.round(r.height)} px tall in ${Math.round(frame.height)})`,
          )
      }
    }
    return out
  })
}

for (const [width, height, present] of [
  [1280, 800, false],
  [1920, 1080, true],
  [390, 844, false],
] as const) {
  test(`axis titles are never clipped at ${width}×${height}${present ? ' in presentation mode' : ''}`, async ({
    lab,
    page,
  }) => {
    await page.setViewportSize({ width, height })
    for (const id of ['two-source-wan', 'ma-500-vcs', 'pletka-bat-tcp-udp']) {
      await lab.open(`#scenario=${id}`)
      await lab.waitUntilLoaded()
      if (present) {
        await page.getByTestId('present').click()
        await expect(page.locator('.app.present')).toHaveCount(1)
      } else if (width < 600) {
        await page.getByRole('button', { name: 'Charts', exact: true }).click()
      }
      await expect(page.locator('.chart-panel svg g.y-label text').first()).toBeAttached()
      // The charts size themselves once their legends have wrapped (a resize observer): poll
      // until the layout has settled rather than reading it after a fixed pause.
      await expect.poll(() => clippedAxisTitles(page), { message: id }).toEqual([])
      if (id === 'two-source-wan')
        await page.screenshot({ path: `${artifacts}axis-titles-${width}.png`, fullPage: true })
      if (present) await page.getByTestId('present').click()
    }
  })
}
