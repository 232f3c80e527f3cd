/**
 * "Watching and learning" in a real browser: the cell animation in slow motion, the
 * linked hover read-out and brush, a compare overlay, a 3×3 sweep with its heatmaps, and every
 * export. The frame rate with 500 VCs and the progress indicator are in load.spec.ts.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Download, Locator, Page } from '@playwright/test'
import { expect, test, type AbrLabPage } from './fixtures'
import { heatmapCell, heatmapValues } from './heatmaps'

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url))
mkdirSync(artifacts, { recursive: true })

const animation = (page: Page) => page.getByTestId('animation-layer')

async function runToEnd(lab: AbrLabPage): Promise<void> {
  await lab.chooseSpeed('as fast as possible')
  await lab.playButton.click()
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('finished')
}

async function downloadText(download: Download): Promise<Buffer> {
  const path = await download.path()
  return readFileSync(path)
}

/** Clicks an export choice in a menu and returns the file it downloads. */
async function exportFrom(
  page: Page,
  menu: Locator,
  choice: string,
): Promise<{ name: string; body: Buffer }> {
  await menu.locator('summary').click()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    menu.getByRole('button', { name: choice, exact: true }).click(),
  ])
  const body = await downloadText(download)
  await menu.locator('summary').click()
  return { name: download.suggestedFilename(), body }
}

function expectCsv(text: string, firstColumn: string, minRows: number): string[][] {
  const lines = text.trim().split('\n')
  const rows = lines.map((l) => l.split(','))
  expect(rows[0][0]).toBe(firstColumn)
  expect(rows.length - 1).toBeGreaterThanOrEqual(minRows)
  // One expectation for the whole table (each expect is a traced step).
  const bad = rows
    .slice(1)
    .flatMap((row, r) =>
      row.length !== rows[0].length
        ? [`row ${r + 1} has ${row.length} cells`]
        : row
            .filter((c) => c !== '' && !Number.isFinite(Number(c)))
            .map((c) => `row ${r + 1}: "${c}"`),
    )
  expect(bad.slice(0, 5)).toEqual([])
  return rows
}

test('animation: cells cross the links in slow motion, RM cells tell their ER and CI, fast play shows flow rates', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  // Into S2's active period, when both VCs send and the bottleneck queue is up.
  await lab.chooseSpeed('50 ms per second')
  await lab.playButton.click()
  await expect
    .poll(() => page.evaluate(() => window.__abrlab?.nowMs() ?? 0), {
      timeout: 60_000,
      intervals: [50],
    })
    .toBeGreaterThan(110)
  await lab.chooseSpeed('1 ms per second')
  await expect(animation(page)).toHaveAttribute('data-mode', 'cells')
  await expect
    .poll(async () => Number(await animation(page).getAttribute('data-cells')))
    .toBeGreaterThan(500)

  // Slow motion: one simulated millisecond per second of wall time, read on the page's own clock
  // (a stall of the test process between two looks does not count).
  const read = () =>
    page.evaluate(() => ({ sim: window.__abrlab?.nowMs() ?? 0, wall: performance.now() }))
  const a = await read()
  await page.waitForTimeout(1500)
  const b = await read()
  const pace = (b.sim - a.sim) / ((b.wall - a.wall) / 1000)
  expect(pace).toBeGreaterThan(0.5)
  expect(pace).toBeLessThan(2)
  await expect(page.getByTestId('animation-legend')).toContainText(
    'Cells moving at the simulated pace',
  )
  await page.screenshot({ path: `${artifacts}animation-slow-motion.png` })
  // The layer fills the drawing it sits on (the editor's canvas).
  await animation(page)
    .locator('..')
    .screenshot({ path: `${artifacts}animation-topology.png` })

  // Paused, the cells hold still: point at an RM cell and read its ER and CI.
  await lab.playButton.click()
  await expect.poll(() => lab.status()).toBe('paused')
  const box = await animation(page).locator('..').boundingBox()
  const at = await animation(page).getAttribute('data-rm-at')
  expect(at).toMatch(/^[\d.]+,[\d.]+$/)
  const [x, y] = (at ?? '0,0').split(',').map(Number)
  await page.mouse.move((box?.x ?? 0) + x, (box?.y ?? 0) + y)
  const tip = page.getByTestId('animation-tip')
  await expect(tip).toHaveText(
    /^(FRM|BRM) of vc[12] on \S+ · ER \d+\.\d Mbit\/s · CI [01] · CCR \d+\.\d Mbit\/s$/,
  )
  await page.screenshot({ path: `${artifacts}animation-rm-tooltip.png` })

  // As fast as the engine goes, single cells would be a blur: the links show their flow rate.
  await lab.chooseSpeed('as fast as possible')
  await expect(animation(page)).toHaveAttribute('data-mode', 'flow')
  await expect(page.getByTestId('animation-legend')).toContainText('Flow rates')
})

test('hover reads every chart and the topology at one time; a brush zooms all charts', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await runToEnd(lab)
  const charts = [
    'acr-chart',
    'queue-chart',
    'util-chart',
    'received-chart',
    'lost-chart',
    'fairness-chart',
  ]
  for (const id of charts)
    await expect(page.locator(`svg#${id} path[data-series]`)).not.toHaveCount(0)

  const acr = page.locator('svg#acr-chart')
  const box = await acr.boundingBox()
  if (!box) throw new Error('no ACR chart')
  // About 150 ms: the plot spans the width between the margins (60 px left, 16 right).
  await page.mouse.move(box.x + 60 + (box.width - 76) * 0.5, box.y + box.height * 0.5)
  const time = await acr.locator('g.cursor').getAttribute('data-time')
  expect(Number(time)).toBeGreaterThan(140)
  expect(Number(time)).toBeLessThan(160)
  for (const id of charts)
    await expect(page.locator(`svg#${id} g.cursor`)).toHaveAttribute('data-time', time ?? '')
  await expect(acr.locator('g.readout')).toContainText(/vc1 ACR: \d+\.\d+ Mbit\/s/)
  await expect(acr.locator('g.readout')).toContainText(/vc2 max-min share: \d+\.\d+ Mbit\/s/)
  await expect(page.locator('svg#queue-chart g.readout')).toContainText(
    /SW1→SW2 queue: [\d,]+ cells/,
  )
  // Both sources share the bottleneck at 70 Mbit/s then (Fahmy et al., Figure 4): an index of 1.
  await expect(page.locator('svg#fairness-chart g.readout')).toContainText(
    /Jain’s index: (0\.9\d\d|1\.000)/,
  )
  await expect(page.getByTestId('hover-time')).toContainText('Values at t =')
  await expect(animation(page)).toHaveAttribute('data-hover-time', time ?? '')
  await page.screenshot({ path: `${artifacts}hover-readout.png` })

  // Brush from about 100 to 200 ms on the queue chart: every chart zooms to that window.
  const queue = await page.locator('svg#queue-chart').boundingBox()
  if (!queue) throw new Error('no queue chart')
  const px = (ms: number) => queue.x + 60 + ((queue.width - 76) * ms) / 300
  await page.mouse.move(px(100), queue.y + queue.height * 0.4)
  await page.mouse.down()
  await page.mouse.move(px(150), queue.y + queue.height * 0.45, { steps: 4 })
  await page.mouse.move(px(200), queue.y + queue.height * 0.5, { steps: 4 })
  await page.mouse.up()
  await expect(page.getByText(/Zoomed to (9\d|1\d\d)\.\d ms – (19\d|20\d)\.\d ms/)).toBeVisible()
  const ticks = await page.locator('svg#acr-chart g.x-axis .tick text').allTextContents()
  expect(Number(ticks[0])).toBeGreaterThanOrEqual(100)
  expect(Number(ticks[ticks.length - 1])).toBeLessThanOrEqual(210)
  await page.getByRole('button', { name: 'Whole run' }).click()
  await expect(page.getByText(/Zoomed to/)).toHaveCount(0)
})

test('compare: pin a run, change RIF, run again — the charts overlay both with a legend', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await runToEnd(lab)
  await page.getByRole('button', { name: 'Pin this run' }).click()
  await expect(page.getByTestId('pinned-label')).toContainText('Pinned: Two-source WAN transient')

  await page.getByText('Change & run again').click()
  await page.getByLabel('Parameter path').fill('vcs.*.rif')
  await page.getByLabel('New value').fill('1')
  await page.getByRole('button', { name: 'Run again with this change' }).click()
  // The changed run loads and plays at the pace chosen before.
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('finished')
  const acr = page.locator('svg#acr-chart')
  await expect(acr.locator('path[data-series="pinned:vc.vc1.acr"]')).toHaveCount(1)
  await expect(acr.locator('path[data-series="vc.vc1.acr"]')).toHaveCount(1)
  const legend = page.getByRole('list', { name: 'Runs overlaid on every chart' })
  await expect(legend).toContainText('this run: every VC · RIF = 1')
  await expect(legend).toContainText('faint band: pinned Two-source WAN transient')
  // Every chart overlays the pinned run.
  for (const id of ['queue-chart', 'util-chart', 'received-chart', 'fairness-chart']) {
    await expect(page.locator(`svg#${id} path[data-series^="pinned:"]`)).not.toHaveCount(0)
  }
  // RIF 1 lets S1 back to 140 Mbit/s in one step after S2 stops: the two ACR lines differ.
  const pinnedPath = await acr.locator('path[data-series="pinned:vc.vc1.acr"]').getAttribute('d')
  const currentPath = await acr.locator('path[data-series="vc.vc1.acr"]').getAttribute('d')
  expect(pinnedPath).not.toBe(currentPath)
  await page.screenshot({ path: `${artifacts}compare-overlay.png` })

  await page.getByRole('button', { name: 'Unpin' }).click()
  await expect(acr.locator('path[data-series^="pinned:"]')).toHaveCount(0)
})

test('sweep: a 3×3 RIF × RDF grid runs in background workers and fills four heatmaps; a cell opens its run', async ({
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
  await page
    .getByLabel('Second parameter', { exact: true })
    .selectOption({ label: 'every VC · RDF' })
  await page.getByLabel('Second parameter values').fill('1/64, 1/8, 1')
  await page.getByRole('button', { name: 'Run 9 points' }).click()
  await expect(page.getByTestId('sweep-status')).toHaveAttribute('data-state', 'done', {
    timeout: 90_000,
  })
  await expect(page.getByTestId('sweep-status')).toContainText('All 9 runs done')

  for (const metric of ['max_queue', 'utilization', 'fairness', 'cells_lost']) {
    const values = await heatmapValues(page, metric)
    expect(values).toHaveLength(9)
    for (const v of values) expect(Number.isFinite(v)).toBe(true)
    if (metric === 'max_queue') for (const v of values) expect(v).toBeGreaterThan(0)
    if (metric === 'utilization' || metric === 'fairness')
      for (const v of values) expect(v).toBeGreaterThan(0.5)
  }
  const heatmap = page.getByTestId('sweep-heatmap-max_queue')
  await expect(heatmap.locator('text.col-label')).toHaveText(['1/64', '1/8', '1'])
  await expect(heatmap.locator('text.row-label')).toHaveText(['1/64', '1/8', '1'])
  await page.locator('.heatmaps').scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${artifacts}sweep-heatmaps.png` })

  // Hovering a cell names its point and value: RIF 1, RDF 1/8 is the last column, middle row.
  const cell = await heatmapCell(page, 'max_queue', 2, 1)
  await cell.grid.hover({ position: cell.position })
  await expect(heatmap.getByTestId('heatmap-tip')).toContainText(
    'every VC · RIF = 1, every VC · RDF = 1/8: Maximum queue',
  )
  await cell.grid.click({ position: cell.position })
  await expect(page.getByRole('tab', { name: 'Charts' })).toHaveAttribute('aria-selected', 'true')
  // The run opened is that grid point's scenario, and it plays.
  await expect.poll(() => lab.sampleCount(), { timeout: 60_000 }).toBeGreaterThan(10)
  const scenario = (await page.evaluate(() => window.__abrlab?.scenario())) as {
    vcs: { rif: number; rdf: number }[]
  }
  for (const vc of scenario.vcs) expect([vc.rif, vc.rdf]).toEqual([1, 0.125])
})

test('exports: chart series as CSV and JSON, charts as SVG and PNG, the scenario file and every sample', async ({
  lab,
  page,
}) => {
  await lab.open()
  await lab.waitUntilLoaded()
  await runToEnd(lab)
  const rows = await lab.sampleCount()
  const acrMenu = page.locator('[data-chart="acr-chart"] details.export-menu')

  const csv = await exportFrom(page, acrMenu, 'CSV')
  expect(csv.name).toBe('allowed-cell-rate-per-vc.csv')
  const table = expectCsv(csv.body.toString('utf8'), 't_ms', rows)
  expect(table[0]).toEqual(['t_ms', 'vc.vc1.acr', 'vc.vc1.maxmin', 'vc.vc2.acr', 'vc.vc2.maxmin'])

  const json = await exportFrom(page, acrMenu, 'JSON')
  expect(json.name).toBe('allowed-cell-rate-per-vc.json')
  const parsed = JSON.parse(json.body.toString('utf8')) as {
    unit: string
    series: { key: string; t_ms: number[]; values: (number | null)[] }[]
  }
  expect(parsed.unit).toBe('Mbit/s')
  expect(parsed.series.map((s) => s.key)).toEqual([
    'vc.vc1.acr',
    'vc.vc1.maxmin',
    'vc.vc2.acr',
    'vc.vc2.maxmin',
  ])
  expect(parsed.series[0].t_ms).toHaveLength(rows)
  expect(parsed.series[0].values.at(-1)).toBeGreaterThan(130)

  const svg = await exportFrom(page, acrMenu, 'SVG')
  expect(svg.name).toBe('allowed-cell-rate-per-vc.svg')
  const svgCheck = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml')
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: doc.documentElement.nodeName,
      lines: doc.querySelectorAll('path[data-series]').length,
      title: doc.querySelector('text')?.textContent,
    }
  }, svg.body.toString('utf8'))
  expect(svgCheck).toEqual({
    error: null,
    root: 'svg',
    lines: 4,
    title: 'Allowed cell rate per VC',
  })

  const png = await exportFrom(page, acrMenu, 'PNG')
  expect(png.name).toBe('allowed-cell-rate-per-vc.png')
  expect(png.body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
  expect(png.body.subarray(12, 16).toString('ascii')).toBe('IHDR')
  expect(png.body.readUInt32BE(16)).toBeGreaterThan(300)
  expect(png.body.readUInt32BE(20)).toBeGreaterThan(200)
  expect(png.body.length).toBeGreaterThan(5000)

  // Every other chart's series as CSV.
  for (const [id, column] of [
    ['queue-chart', 'port.l3.queue'],
    ['util-chart', 'port.l3.util'],
    ['received-chart', 'vc.vc1.received'],
    ['lost-chart', 'lost.total'],
    ['fairness-chart', 'fairness'],
  ] as const) {
    const file = await exportFrom(
      page,
      page.locator(`[data-chart="${id}"] details.export-menu`),
      'CSV',
    )
    expect(expectCsv(file.body.toString('utf8'), 't_ms', rows)[0]).toContain(column)
  }

  // The scenario file, as edited, is the bench's Save.
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save', exact: true }).click(),
  ])
  expect(saved.suggestedFilename()).toBe('two-source-wan.json')
  const scenario = JSON.parse((await downloadText(saved)).toString('utf8')) as {
    id: string
    vcs: unknown[]
  }
  expect(scenario.id).toBe('two-source-wan')
  expect(scenario.vcs).toHaveLength(2)
  const runMenu = page.locator('details.run-exports')
  const samples = await exportFrom(page, runMenu, 'All samples (CSV)')
  expect(samples.name).toBe('two-source-wan-samples.csv')
  const all = expectCsv(samples.body.toString('utf8'), 't_ms', rows)
  expect(all[0]).toEqual(await lab.columns())
})

test('parameter guide: Fahmy et al.’s figures for the satellite link, with a warning for CRM 32', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=fahmy-satellite-crm')
  await lab.waitUntilLoaded()
  await page.getByRole('tab', { name: 'Parameter guide' }).click()
  const guide = page.locator('.guide-group[data-vcs="vc1"]')
  await expect(guide).toContainText('FRTT 550 ms')
  const crm = guide.locator('tr[data-check="crm"]')
  await expect(crm).toHaveAttribute('data-verdict', 'warn')
  await expect(crm).toContainText(/CRM ≥ 550 ms × 366,792 cells\/s ÷ 32 = 6,30\d/)
  await expect(crm).toContainText('CRM = 32 (set directly)')
  await expect(guide.locator('tr[data-check="trm"]')).toHaveAttribute('data-verdict', 'ok')
  await expect(guide.locator('tr[data-check="adtf"]')).toHaveAttribute('data-verdict', 'warn')
  await expect(guide.locator('.guide-interrm td[aria-current="true"]')).toHaveText('87.2 µs')
  await page.screenshot({ path: `${artifacts}parameter-guide.png` })
})

test('packet level (Pletka et al.): class throughputs, the UDP/TCP ratio and D_UDP, router queues and the weighted index', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=pletka-clcc-tcp-udp')
  await lab.waitUntilLoaded()
  await runToEnd(lab)
  const classes = page.locator('svg#classes-chart')
  await expect(classes.locator('path[data-series="class.tcp.throughput_mbps"]')).toHaveCount(1)
  await expect(classes.locator('path[data-series="class.udp.throughput_mbps"]')).toHaveCount(1)
  await expect(classes.locator('path[data-series="aqm.udp.reference_mbps"]')).toHaveCount(1)
  await expect(page.locator('svg#ratio-chart path[data-series="ratio"]')).toHaveCount(1)
  await expect(page.locator('svg#ratio-chart path[data-series="d_udp"]')).toHaveCount(1)
  await expect(page.locator('svg#queue-chart path[data-series^="port."]')).not.toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Packets lost' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Fairness index legend' })).toContainText(
    'weighted fairness index',
  )
  await page.screenshot({ path: `${artifacts}packet-level-charts.png` })
  await page.getByRole('tab', { name: 'Parameter guide' }).click()
  await expect(page.locator('.guide-none')).toContainText('no ABR virtual circuits')
})
