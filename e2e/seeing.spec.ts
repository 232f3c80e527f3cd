/**
 * Seeing it at every scale: single cells on a chosen link, drawings that stay readable
 * from 2 to 500 VCs, presentation mode, the embed, the phone layout and accessibility.
 * Screenshots go to e2e/artifacts (not committed).
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { drawingBoxes, overlaps } from './drawing'
import { expect, test } from './fixtures'
import type { Page } from '@playwright/test'

/** Every scenario of the library, by file name. */
const LIBRARY = readdirSync(fileURLToPath(new URL('../scenarios/', import.meta.url)))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort()

for (const id of LIBRARY) {
  test(`drawing of ${id}: no two nodes or labels overlap`, async ({ lab, page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await lab.open(`#scenario=${id}`)
    await lab.waitUntilLoaded()
    // A little way in, so that the live labels (ACR at the sources, queues at the ports) are drawn too.
    await lab.chooseSpeed('100 ms per second')
    await lab.playButton.click()
    await expect.poll(() => lab.nowMs(), { timeout: 60_000 }).toBeGreaterThan(20)
    // Playing on or finished: the labels' places do not move with their values.
    if (!id.startsWith('pletka'))
      await expect(page.locator('svg.topology-values text.acr-label').first()).toBeVisible()
    await page.screenshot({ path: `e2e/artifacts/${id}-1280.png` })
    expect(overlaps(await drawingBoxes(page))).toEqual([])
  })
}

/** Kinds (data-kind) of the cells the magnifier draws. */
async function magnifiedKinds(page: Page): Promise<number[]> {
  return page
    .getByTestId('magnifier-view')
    .locator('g.mag-cell')
    .evaluateAll((els) => [...new Set(els.map((e) => Number(e.getAttribute('data-kind'))))].sort())
}

/**
 * Steps the paused run one sample interval at a time (the S key) until the magnifier has shown
 * every kind wanted; each step leaves a snapshot of the port's cells, every one drawn on its own.
 * A step takes a few tens of milliseconds, so the budget can cover the longest dry spell of a rare
 * kind (see MAGNIFIED).
 */
async function stepForKinds(page: Page, wanted: number[], steps = 400): Promise<number[]> {
  // The S key is the page's, not a focused select's type-ahead.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  const seen = new Set<number>(await magnifiedKinds(page))
  for (let i = 0; i < steps && !wanted.every((k) => seen.has(k)); i++) {
    const before = await page.evaluate(() => window.__abrlab?.nowMs() ?? 0)
    await page.keyboard.press('s')
    await expect
      .poll(() => page.evaluate(() => window.__abrlab?.nowMs() ?? 0), { intervals: [10] })
      .toBeGreaterThan(before)
    await page.waitForTimeout(30)
    for (const k of await magnifiedKinds(page)) seen.add(k)
  }
  return [...seen].sort()
}

// Cell kinds: 0 data, 1 FRM, 2 BRM, 3 CBR/VBR; packets 4 TCP segment, 5 ACK, 6 UDP.
//
// Why not simply play at 20 µs per second and wait: the links between these scenarios' switches
// are 0.5 to 10 m long (one to four cell slots on the wire), so the magnifier shows the cell being
// sent and the queue. Early in a run the chosen links were nearly idle — at 60 ms ma-500-vcs has
// two VCs sending 500 cells/s, one cell every 2 ms, which at 20 µs per second is one every 100 s
// of wall time, and an FRM one in 32 of those — so the test waited for cells that came minutes
// apart, however fast the worker stepped. Now each case runs quickly to a time when the chosen
// link is busy with every kind (the bottleneck, with a queue), slows down with the magnifier's
// own button, and steps one sample interval at a time, reading each snapshot. A backward RM cell
// is on a 1-slot trunk for one cell time in about thirty, and the snapshots come at a fixed
// interval that can alias with the VCs' RM periods: on ma-gfc's SW4→SW3, a BRM shows in 3 % of
// 2 ms snapshots after 800 ms, and the longest run of snapshots without one is 142 (1,114 to
// 1,398 ms). Hence a budget of 400 steps, each as quick as the page allows.
const MAGNIFIED: {
  id: string
  /** Simulated ms to run to first (at `seek`): the chosen link then carries every kind. */
  from: number
  seek: string
  forward: string
  back: string
  forwardKinds: number[]
  backKinds: number[]
}[] = [
  {
    id: 'two-source-wan',
    from: 20,
    seek: '10 ms per second',
    forward: 'SW1→SW2',
    back: 'SW2→SW1',
    forwardKinds: [0, 1],
    backKinds: [2],
  },
  {
    // SW4→SW5 is the parking lot's bottleneck: all four VCs, and the binary switch's queue.
    id: 'ohsaki-lan-fast-decrease',
    from: 100,
    seek: '20 ms per second',
    forward: 'SW4→SW5',
    back: 'SW5→SW4',
    forwardKinds: [0, 1],
    backKinds: [2],
  },
  {
    // SW3→SW4 (50 Mbit/s) carries VCs 1–5 and 7, all started by 700 ms.
    id: 'ma-gfc',
    from: 800,
    seek: '200 ms per second',
    forward: 'SW3→SW4',
    back: 'SW4→SW3',
    forwardKinds: [0, 1],
    backKinds: [2],
  },
  {
    // By 3 s some 140 long VCs share the trunk.
    id: 'ma-500-vcs',
    from: 3000,
    seek: 'as fast as possible',
    forward: 'SW1→SW2',
    back: 'SW2→SW1',
    forwardKinds: [0, 1],
    backKinds: [2],
  },
  {
    // The CBR VC's first on period (2,000–2,500 ms) over the four ABR VCs: reached slowly enough
    // that the pause lands inside it, with room for 150 steps of 2 ms.
    id: 'ma-cbr-onoff',
    from: 2020,
    seek: '200 ms per second',
    forward: 'SW1→SW2',
    back: 'SW2→SW1',
    forwardKinds: [0, 1, 3],
    backKinds: [2],
  },
  {
    id: 'pletka-bat-tcp-udp',
    from: 1000,
    seek: '500 ms per second',
    forward: 'R1→R2',
    back: 'R2→R1',
    forwardKinds: [4, 6],
    backKinds: [5],
  },
]

for (const m of MAGNIFIED) {
  test(`magnifier on ${m.id}: single cells of each kind on a chosen link`, async ({
    lab,
    page,
  }) => {
    test.setTimeout(120_000)
    await page.setViewportSize({ width: 1280, height: 800 })
    await lab.open(`#scenario=${m.id}`)
    await lab.waitUntilLoaded()
    // Into the run (a few seconds of wall time), then hold there.
    await lab.chooseSpeed(m.seek)
    await lab.playButton.click()
    await expect
      .poll(() => lab.nowMs(), { timeout: 60_000, intervals: [100] })
      .toBeGreaterThan(m.from)
    // Pause by its key: on a loaded machine a busy page can keep a click's checks waiting.
    await page.keyboard.press(' ')
    await expect.poll(() => lab.status()).toBe('paused')
    const pick = page.getByTestId('magnifier-port')
    await pick.selectOption({ label: m.forward })
    // The magnifier's own advice: one press slows to a pace at which a cell crosses a slot in at
    // least a quarter of a second.
    await page.getByTestId('magnifier-slow').click()
    await expect(page.getByTestId('magnifier-slow')).toHaveCount(0)
    await expect(page.getByTestId('magnifier-summary')).toContainText(
      /One (cell|packet) time lasts (\d+ ms|\d+\.\d s)/,
    )
    expect(await stepForKinds(page, m.forwardKinds)).toEqual(expect.arrayContaining(m.forwardKinds))
    await expect(page.getByTestId('magnifier-summary')).toContainText('On the wire')
    // Playing at that pace the magnifier keeps drawing the port's cells.
    await lab.playButton.click()
    await expect.poll(() => lab.status()).toBe('running')
    await expect
      .poll(async () => (await magnifiedKinds(page)).length, { timeout: 10_000 })
      .toBeGreaterThan(0)
    await lab.playButton.click()
    await expect.poll(() => lab.status()).toBe('paused')
    await page
      .getByTestId('magnifier')
      .screenshot({ path: `e2e/artifacts/magnifier-${m.id}-forward.png` })
    await pick.selectOption({ label: m.back })
    expect(await stepForKinds(page, m.backKinds)).toEqual(expect.arrayContaining(m.backKinds))
    if (m.backKinds.includes(2)) {
      // An RM cell tells its fields on focus.
      const rm = page.getByTestId('magnifier-view').locator('g.mag-cell[data-kind="2"]')
      for (let i = 0; i < 40 && (await rm.count()) === 0; i++) {
        await page.keyboard.press('s')
        await page.waitForTimeout(150)
      }
      await rm.first().focus()
      await expect(page.getByTestId('magnifier-readout')).toHaveText(
        /^BRM of \S+ · ER \d+\.\d Mbit\/s · CI [01] · CCR \d+\.\d Mbit\/s · /,
      )
    }
    await page
      .getByTestId('magnifier')
      .screenshot({ path: `e2e/artifacts/magnifier-${m.id}-back.png` })
  })
}

test('the legend’s advice is a button: one press slows to a pace that shows every cell', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=ma-500-vcs')
  await lab.waitUntilLoaded()
  // At the default pace the long links show cells, the 1 km access links their flow rate.
  await expect(page.getByTestId('animation-legend')).toContainText(
    'Cells on the long links; the short ones show their flow rate.',
  )
  await page.getByTestId('slow-to-cells').click()
  await expect(lab.speedSlider).toHaveAttribute('aria-valuetext', /µs per second \(slow motion\)/)
  await expect(page.getByTestId('animation-legend')).toContainText(
    'Cells moving at the simulated pace',
  )
})

/** Whether an element's box lies inside the viewport (nothing to scroll to see it). */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel)
    if (!el) return false
    const r = el.getBoundingClientRect()
    return (
      r.width > 20 &&
      r.height > 20 &&
      r.top >= 0 &&
      r.left >= 0 &&
      r.bottom <= window.innerHeight + 0.5 &&
      r.right <= window.innerWidth + 0.5
    )
  }, selector)
}

for (const [w, h] of [
  [640, 400],
  [480, 360],
  [420, 420],
] as const) {
  for (const id of ['two-source-wan', 'ma-500-vcs']) {
    test(`embed at ${w}×${h} (${id}): drawing, ACR chart and transport without scrolling`, async ({
      lab,
      page,
    }) => {
      await page.setViewportSize({ width: w, height: h })
      await page.goto(`/?embed#scenario=${id}`)
      await page.waitForFunction(() => window.__abrlab !== undefined)
      await lab.waitUntilLoaded()
      await expect(page.locator('svg#acr-chart')).toBeVisible()
      expect(await inView(page, 'svg.topology')).toBe(true)
      expect(await inView(page, 'svg#acr-chart')).toBe(true)
      expect(await inView(page, '.transport')).toBe(true)
      expect(
        await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1),
      ).toBe(true)
      await page.screenshot({ path: `e2e/artifacts/embed-${id}-${w}x${h}.png` })
    })
  }
}

test('the example course page shows the network in every frame', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1600 })
  await page.goto('/embed-example.html')
  const frames = page.locator('iframe')
  await expect(frames).toHaveCount(3)
  for (let i = 0; i < 3; i++) {
    await frames.nth(i).scrollIntoViewIfNeeded()
    const frame = page.frameLocator('iframe').nth(i)
    await expect(frame.locator('svg.topology')).toBeVisible({ timeout: 60_000 })
    await expect(frame.locator('svg#acr-chart')).toBeVisible({ timeout: 60_000 })
  }
  await page.screenshot({ path: 'e2e/artifacts/embed-example-page.png', fullPage: true })
})

for (const id of [
  'two-source-wan',
  'erica-parking-lot',
  'ma-gfc',
  'ma-500-vcs',
  'pletka-bat-tcp-udp',
]) {
  test(`presentation mode on ${id} at 1920×1080: chart text ≥ 18 px, drawing labels ≥ 24 px and clear of each other, survives reload`, async ({
    lab,
    page,
  }) => {
    await page.setViewportSize({ width: 1920, height: 1080 })
    await lab.open(`#scenario=${id}`)
    await lab.waitUntilLoaded()
    await page.keyboard.press('p')
    await expect(page.locator('.app.present')).toHaveCount(1)
    await expect(page.locator('.charts-grid > .chart-panel')).toHaveCount(2)
    // A little way in, so that the live labels (ACR at the sources, queues) are drawn too.
    await lab.chooseSpeed('100 ms per second')
    await lab.playButton.click()
    await expect.poll(() => lab.nowMs(), { timeout: 60_000 }).toBeGreaterThan(20)
    await lab.playButton.click()
    await expect.poll(() => lab.status()).toBe('paused')
    const sizes = async () =>
      page.evaluate(() => {
        const chart = [...document.querySelectorAll('.charts-grid svg text')].map((t) =>
          parseFloat(getComputedStyle(t).fontSize),
        )
        const svg = document.querySelector('svg.topology') as SVGSVGElement
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width
        const drawing = [...svg.querySelectorAll('text')].map(
          (t) => parseFloat(getComputedStyle(t).fontSize) * scale,
        )
        return { chart: Math.min(...chart), drawing: Math.min(...drawing) }
      })
    const s = await sizes()
    expect(s.chart).toBeGreaterThanOrEqual(18)
    expect(s.drawing).toBeGreaterThanOrEqual(24)
    expect(overlaps(await drawingBoxes(page))).toEqual([])
    await page.screenshot({ path: `e2e/artifacts/present-${id}-1920.png` })
    await page.reload()
    await page.waitForFunction(() => window.__abrlab !== undefined)
    await lab.waitUntilLoaded()
    await expect(page.locator('.app.present')).toHaveCount(1)
    await page.getByTestId('present').click()
    await expect(page.locator('.app.present')).toHaveCount(0)
  })
}

/**
 * Visible interactive elements smaller than 44×44 px: every button, link, field, select, slider,
 * tab, disclosure and focusable element (the drawing's node and link hit areas among them), each
 * measured by its bounding box; a checkbox or radio button counts with its label. A link inside a
 * sentence of prose, or a glossary term in a line of text, is left out, as WCAG 2.5.8's inline exception allows ("the target is in a
 * sentence or its size is otherwise constrained by the line-height of non-target text").
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    const selector = [
      'a[href]',
      'button',
      'input:not([type="hidden"])',
      'select',
      'textarea',
      'summary',
      '[role="button"]',
      '[role="tab"]',
      '[role="slider"]',
      '[role="link"]',
      '[role="checkbox"]',
      '[tabindex]:not([tabindex="-1"])',
    ].join(', ')
    for (const el of document.querySelectorAll<HTMLElement | SVGElement>(selector)) {
      const style = getComputedStyle(el)
      if (style.visibility === 'hidden' || el.closest('[hidden], dialog:not([open])')) continue
      const type = el.getAttribute('type')
      const target = ((type === 'checkbox' || type === 'radio') && el.closest('label')) || el
      const r = target.getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      // A glossary term explains a word where it stands in a line of text: inline, like a link.
      if (el.classList.contains('term')) continue
      if (el.tagName === 'A' && style.display === 'inline') {
        const own = (el.textContent ?? '').trim().length
        const around = (el.parentElement?.textContent ?? '').trim().length
        if (around > own + 20) continue // inline in a sentence of prose (WCAG 2.5.8 exception)
      }
      if (r.width < 44 - 0.5 || r.height < 44 - 0.5)
        out.push(
          `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} "${(el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30)}" ${r.width.toFixed(0)}×${r.height.toFixed(0)}`,
        )
    }
    return out
  })
}

for (const id of [
  'two-source-wan',
  'ohsaki-lan-fast-decrease',
  'ma-gfc',
  'ma-500-vcs',
  'pletka-bat-tcp-udp',
]) {
  test(`phone 390×844 (${id}): compact header, panes, no target under 44 px, nothing cut off`, async ({
    lab,
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await lab.open(`#scenario=${id}`)
    await lab.waitUntilLoaded()
    const header = await page.locator('header.topbar').boundingBox()
    expect(header?.height ?? 999).toBeLessThan(844 / 4)
    await expect(page.locator('svg.topology')).toBeVisible()
    // The page never scrolls sideways (a drawing too dense for 44 px targets pans in its own pane).
    const noSideways = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
    expect(await smallTargets(page)).toEqual([])
    expect(await noSideways()).toBe(true)
    await page.screenshot({ path: `e2e/artifacts/phone-${id}-network.png` })
    // The scenario tools, folded behind the menu button.
    const menu = page.getByRole('button', { name: 'Menu', exact: true })
    await menu.click()
    await expect(page.getByRole('button', { name: 'Library' })).toBeVisible()
    expect(await smallTargets(page)).toEqual([])
    expect(await noSideways()).toBe(true)
    await menu.click()
    await expect(page.getByRole('button', { name: 'Library' })).toBeHidden()
    for (const tab of ['Parameters', 'About this scenario']) {
      await page.getByRole('tab', { name: tab }).click()
      expect(await smallTargets(page), tab).toEqual([])
      expect(await noSideways()).toBe(true)
    }
    await page.getByRole('button', { name: 'Charts', exact: true }).click()
    // The first chart (ACR; in the packet model, throughput) in view under the pane buttons.
    await expect(page.locator('.charts-grid .chart-panel svg').first()).toBeInViewport()
    await expect(page.locator('svg.topology')).toBeHidden()
    expect(await smallTargets(page)).toEqual([])
    expect(await noSideways()).toBe(true)
    // Menus drawn as buttons (Export, Record, Show…, Change & run again) keep their words in the
    // middle of the taller target, as the buttons beside them do.
    expect(await wordsOffCentre(page)).toEqual([])
    await page.screenshot({ path: `e2e/artifacts/phone-${id}-charts.png` })
  })
}

/** Button-like summaries whose words sit more than 3 px off their box's vertical middle. */
async function wordsOffCentre(page: Page): Promise<string[]> {
  return page
    .locator(
      ':is(details.export-menu, details.series-picker, details.compare-change) > summary:visible',
    )
    .evaluateAll((summaries) =>
      summaries.flatMap((summary) => {
        const box = summary.getBoundingClientRect()
        const range = document.createRange()
        range.selectNodeContents(summary)
        const words = range.getBoundingClientRect()
        const off = words.top + words.height / 2 - (box.top + box.height / 2)
        return Math.abs(off) > 3 ? [`${summary.textContent}: ${off.toFixed(1)} px`] : []
      }),
    )
}

/** Presses Tab until every element matching `selector` has had the focus; the ids reached, in order. */
async function tabThrough(page: Page, selector: string, attr: string, presses = 120) {
  const want = await page.locator(selector).count()
  const reached: string[] = []
  for (let i = 0; i < presses && reached.length < want; i++) {
    await page.keyboard.press('Tab')
    const id = await page.evaluate(
      ([sel, a]) => {
        const el = document.activeElement
        return el?.matches(sel) ? el.getAttribute(a) : null
      },
      [selector, attr] as const,
    )
    if (id !== null && !reached.includes(id)) reached.push(id)
  }
  return { want, reached }
}

/** The stroke colour of the focused node's shape (the orange focus ring is #e69f00). */
const FOCUS_STROKE = 'rgb(230, 159, 0)'

for (const id of ['two-source-wan', 'ma-gfc', 'pletka-bat-tcp-udp']) {
  test(`keyboard in the embed (${id}): Tab reaches every node, arrows go node to node, Enter tells its details`, async ({
    lab,
    page,
  }) => {
    await page.setViewportSize({ width: 640, height: 400 })
    await page.goto(`/?embed#scenario=${id}`)
    await page.waitForFunction(() => window.__abrlab !== undefined)
    await lab.waitUntilLoaded()
    const nodes = page.locator('svg.topology g.node[tabindex="0"]')
    const names = await page
      .locator('svg.topology g.node')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-node')))
    expect(await nodes.count()).toBe(names.length)
    const { want, reached } = await tabThrough(page, 'svg.topology g.node', 'data-node')
    expect(reached.sort()).toEqual([...names].sort())
    expect(want).toBe(names.length)
    // The focus is visible: the focused node's outline turns orange.
    const focused = page.locator('svg.topology g.node:focus')
    await expect(focused).toHaveCount(1)
    expect(
      await focused.evaluate(
        (g) => getComputedStyle(g.querySelector('rect, circle') as Element).stroke,
      ),
    ).toBe(FOCUS_STROKE)
    // The arrow keys move the focus to the next node and back.
    const first = names[0] as string
    await page.locator(`svg.topology g.node[data-node="${first}"]`).focus()
    await page.keyboard.press('ArrowRight')
    await expect(page.locator('svg.topology g.node:focus')).toHaveAttribute(
      'data-node',
      names[1] as string,
    )
    await page.keyboard.press('ArrowLeft')
    await expect(page.locator('svg.topology g.node:focus')).toHaveAttribute('data-node', first)
    // Enter tells the node's details; Enter again closes them.
    const sw = (await page
      .locator('svg.topology g.node.switch')
      .first()
      .getAttribute('data-node')) as string
    const host = (await page
      .locator('svg.topology g.node.host')
      .first()
      .getAttribute('data-node')) as string
    await page.locator(`svg.topology g.node[data-node="${sw}"]`).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('node-details')).toHaveText(
      new RegExp(`^(Switch|Router) ${sw}: queues: \\S+→\\S+ \\S+ (cells|packets)`),
    )
    await expect(page.locator(`svg.topology g.node[data-node="${sw}"]`)).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    await page.locator(`svg.topology g.node[data-node="${host}"]`).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('node-details')).toHaveText(
      new RegExp(`^Host ${host}: (sends|receives) `),
    )
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('node-details')).toHaveText('')
  })
}

test('keyboard on the main page: Tab reaches every node of the drawing, Enter opens its parameters', async ({
  lab,
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await lab.open('#scenario=ma-gfc')
  await lab.waitUntilLoaded()
  const names = await page
    .locator('[data-edit-node]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-edit-node')))
  expect(names.length).toBe(23)
  const { reached } = await tabThrough(page, '[data-edit-node]', 'data-edit-node', 200)
  expect(reached.sort()).toEqual([...names].sort())
  // The focus is visible: the node's ring is drawn in the focus colour.
  const ring = page.locator('[data-edit-node]:focus .ring')
  await expect(ring).toHaveCount(1)
  expect(await ring.evaluate((r) => getComputedStyle(r).stroke)).toBe(FOCUS_STROKE)
  // Enter on a switch selects it and opens its parameters.
  await page.locator('[data-edit-node="SW3"]').focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('[data-edit-node="SW3"]')).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByRole('tab', { name: 'Parameters' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(page.locator('.params-panel')).toContainText('SW3')
})
