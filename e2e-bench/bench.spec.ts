/**
 * The browser half of the benchmark, run by scripts/bench.mjs through
 * playwright.bench.config.ts — never by `npm test`. It measures and records; it asserts nothing
 * about speed (only that each measurement actually happened).
 *
 *   throughput  the wasm engine in Chromium: bare in a worker (rawWorker.ts), and through the app's
 *               own worker and protocol (worker.ts, EngineClient) flat out — every workload, each
 *               timed on its second run in a fresh worker (the first one's time recorded beside)
 *   frames      requestAnimationFrame intervals of the app playing the 500-VC scenario, animation
 *               and charts on: flat out, at the default pace and in slow motion
 *   slider      how soon a parameter slider moved while the engine runs flat out is shown, and
 *               acknowledged by the engine ("applied live")
 *   start       how soon after the click on Play the default scenario, at the default pace, shows
 *               cells moving on its links (the first view a visitor gets)
 *   memory      the page's memory after playing each workload to its end, flat out
 *
 * Environment: BENCH_CASES (a JSON file from scripts/bench-cases.mjs; built here when absent),
 * BENCH_ONLY (workloads, comma-separated), BENCH_PARTS (comma-separated, default all), BENCH_OUT_DIR (one JSON
 * file per part), BENCH_FRAME_MS (length of a frame-time window, default 10000).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from '@playwright/test'
import { AbrLabPage, expect, test } from '../e2e/fixtures'

const root = fileURLToPath(new URL('..', import.meta.url))

interface BenchCase {
  name: string
  library: boolean
  scenarioJson: string
}

const allCases: BenchCase[] = JSON.parse(
  process.env.BENCH_CASES
    ? readFileSync(process.env.BENCH_CASES, 'utf8')
    : execFileSync('node', [`${root}scripts/bench-cases.mjs`], {
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      }),
)
const only = process.env.BENCH_ONLY?.split(',').map((n) => n.trim())
const cases = allCases.filter((c) => !only || only.includes(c.name))
const parts = new Set(
  (process.env.BENCH_PARTS ?? 'throughput,frames,slider,start,memory')
    .split(',')
    .map((p) => p.trim()),
)
const outDir = process.env.BENCH_OUT_DIR ?? `${root}test-results/bench-out`
const FRAME_WINDOW_MS = Number(process.env.BENCH_FRAME_MS ?? 10_000)
/**
 * The flat-out window of the frames test: the long 500-VC run (below) lasts about 3 s flat out, and
 * must still be going when the window ends and the pace changes (90 frames at 60 per second).
 */
const FLAT_OUT_FRAME_MS = Math.min(FRAME_WINDOW_MS, 1_500)
/** Events per run_until call of the bare engine: as scripts/bench.mjs runs it under Node. */
const RAW_EVENTS_PER_CALL = 100_000
const FIVE_HUNDRED = 'ma-500-vcs'

function save(part: string, data: unknown): void {
  mkdirSync(outDir, { recursive: true })
  writeFileSync(`${outDir}/${part}.json`, `${JSON.stringify(data, null, 2)}\n`)
}

function scenarioHash(json: string): string {
  return `#scenario-json=${Buffer.from(json, 'utf8').toString('base64url')}`
}

/**
 * The 500-VC library scenario, run as long as the engine's limits allow (39 s: its event estimate
 * grows about 3.8e6 per simulated second against limits.max_events = 1.5e8), which the app,
 * drawing, plays at about 9× real time: about 3 s once every VC has started.
 */
const LONG_UNTIL_MS = 39_000
function fiveHundredLong(): string {
  const c = allCases.find((x) => x.name === FIVE_HUNDRED)
  if (!c) throw new Error(`no ${FIVE_HUNDRED} workload`)
  const s = JSON.parse(c.scenarioJson) as { run: { until_ms: number } }
  s.run.until_ms = LONG_UNTIL_MS
  return JSON.stringify(s)
}

/** Opens the long 500-VC run and waits until it is built (the page did not fall back to its default). */
async function openLong(lab: AbrLabPage): Promise<void> {
  await lab.open(scenarioHash(fiveHundredLong()))
  await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('paused')
  expect(await lab.page.evaluate(() => window.__abrlab?.layout()?.until_ms)).toBe(LONG_UNTIL_MS)
}

// ---- statistics ----------------------------------------------------------------------------

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN
  // Nearest rank.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}

interface FrameStats {
  frames: number
  seconds: number
  median_ms: number
  p95_ms: number
  max_ms: number
  mean_ms: number
  /** Frames drawn per second over the window. */
  fps: number
  fps_at_median: number
  fps_at_p95: number
  /** Intervals over 50 ms (a visible stutter). */
  long_frames: number
}

function frameStats(gaps: number[]): FrameStats {
  const sorted = [...gaps].sort((a, b) => a - b)
  const total = gaps.reduce((a, b) => a + b, 0)
  const median = quantile(sorted, 0.5)
  const p95 = quantile(sorted, 0.95)
  return {
    frames: gaps.length,
    seconds: total / 1000,
    median_ms: median,
    p95_ms: p95,
    max_ms: sorted[sorted.length - 1] ?? Number.NaN,
    mean_ms: total / gaps.length,
    fps: gaps.length / (total / 1000),
    fps_at_median: 1000 / median,
    fps_at_p95: 1000 / p95,
    long_frames: gaps.filter((g) => g > 50).length,
  }
}

/** requestAnimationFrame intervals over `ms` of wall time, in the page. */
function recordFrames(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(
    (windowMs) =>
      new Promise<number[]>((resolve) => {
        const stamps: number[] = []
        const step = (t: number) => {
          stamps.push(t)
          if (t - stamps[0] < windowMs) requestAnimationFrame(step)
          else resolve(stamps.slice(1).map((s, i) => s - stamps[i]))
        }
        requestAnimationFrame(step)
      }),
    ms,
  )
}

// ---- memory --------------------------------------------------------------------------------

/** Bytes of the app engine worker's wasm memory (worker.ts's read-only hook), or null. */
async function engineWasmBytes(page: Page): Promise<number | null> {
  for (const worker of page.workers()) {
    if (!/\/worker[-.]/.test(worker.url())) continue
    const bytes = await worker
      .evaluate(
        () =>
          (self as unknown as { __abrlabWasmBytes?: () => number }).__abrlabWasmBytes?.() ?? null,
      )
      .catch(() => null)
    if (bytes !== null) return bytes
  }
  return null
}

interface ProcessMemory {
  pid: number
  /** Resident memory, and its peak (VmHWM): mostly Chromium's own code, mapped from its files. */
  rss_mb: number
  peak_rss_mb: number
  /** The private part (RssAnon): heaps, wasm memory, DOM — what the page itself costs. */
  private_mb: number
}

function procMemory(pid: number): ProcessMemory | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (key: string) =>
      (Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024) /
      1e6
    return { pid, rss_mb: kb('VmRSS'), peak_rss_mb: kb('VmHWM'), private_mb: kb('RssAnon') }
  } catch {
    return null
  }
}

/** Chromium's renderer processes (SystemInfo.getProcessInfo) with their memory from /proc (Linux). */
async function renderers(browser: Browser): Promise<ProcessMemory[]> {
  const cdp = await browser.newBrowserCDPSession()
  try {
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[]
    }
    return info.processInfo
      .filter((p) => p.type === 'renderer')
      .map((p) => procMemory(p.id))
      .filter((m): m is ProcessMemory => m !== null)
  } finally {
    await cdp.detach()
  }
}

const mb = (bytes: number | null) => (bytes === null ? null : bytes / 1e6)

// ---- the parts -----------------------------------------------------------------------------

test.use({ trace: 'off', screenshot: 'off' })

test('throughput: the wasm engine in a Chromium worker, bare and through the app protocol', async ({
  page,
}) => {
  test.skip(!parts.has('throughput'), 'BENCH_PARTS leaves it out')
  await page.goto('/bench.html')
  await page.waitForFunction(() => window.__abrbench !== undefined)
  const results: unknown[] = []
  for (const c of cases) {
    // Each timed run is the second of its scenario in a fresh worker: natively the code is
    // compiled ahead of the run, while V8 compiles wasm lazily (a baseline compiler first, the
    // hot functions optimised later), which took most of a short run's time. The first run's
    // figure is recorded beside, as what a page's first play of a scenario meets.
    const raw = await page.evaluate(([json, n]) => window.__abrbench!.rawRun(json, n, true), [
      c.scenarioJson,
      RAW_EVENTS_PER_CALL,
    ] as const)
    const app = await page.evaluate(
      (json) => window.__abrbench!.workerRun(json, true),
      c.scenarioJson,
    )
    const wasmBytes = await engineWasmBytes(page)
    await page.evaluate(() => window.__abrbench!.disposeWorker())
    const entry = {
      scenario: c.name,
      raw: {
        until_ms: raw.untilMs,
        events: raw.events,
        source_cells: raw.sourceCells,
        wall_ms: raw.wallMs,
        source_cells_per_s: raw.sourceCells / (raw.wallMs / 1000),
        realtime_factor: raw.untilMs / raw.wallMs,
        first_run_wall_ms: raw.coldWallMs,
        first_run_source_cells_per_s:
          raw.coldWallMs === null ? null : raw.sourceCells / (raw.coldWallMs / 1000),
        wasm_memory_mb: mb(raw.wasmBytes),
      },
      worker: {
        until_ms: app.untilMs,
        events: app.events,
        // The run is deterministic: the same scenario emits the same source cells in either worker
        // (the protocol does not carry the count); `same_run` checks the event counts agree.
        source_cells: raw.sourceCells,
        same_run: app.events === raw.events && app.nowMs === raw.nowMs,
        wall_ms: app.wallMs,
        source_cells_per_s: raw.sourceCells / (app.wallMs / 1000),
        realtime_factor: app.untilMs / app.wallMs,
        first_run_wall_ms: app.coldWallMs,
        first_run_source_cells_per_s:
          app.coldWallMs === null ? null : raw.sourceCells / (app.coldWallMs / 1000),
        messages: app.messages,
        sample_rows: app.rows,
        wasm_memory_mb: mb(wasmBytes),
      },
    }
    results.push(entry)
    console.log(
      `${c.name.padEnd(30)} bare ${(entry.raw.source_cells_per_s / 1e6).toFixed(2).padStart(6)} M/s ×${entry.raw.realtime_factor.toFixed(1).padStart(7)}` +
        `  app worker ${(entry.worker.source_cells_per_s / 1e6).toFixed(2).padStart(6)} M/s ×${entry.worker.realtime_factor.toFixed(1).padStart(7)}` +
        `  (first run: bare ${((entry.raw.first_run_source_cells_per_s ?? Number.NaN) / 1e6).toFixed(2)}, app ${((entry.worker.first_run_source_cells_per_s ?? Number.NaN) / 1e6).toFixed(2)} M/s)${entry.worker.same_run ? '' : '  (runs differ!)'}`,
    )
  }
  expect(results.length).toBe(cases.length)
  save('throughput', results)
})

test('frames: the app playing 500 VCs, animation and charts on', async ({ lab, page }) => {
  test.skip(!parts.has('frames'), 'BENCH_PARTS leaves it out')
  test.skip(!!only && !only.includes(FIVE_HUNDRED), 'BENCH_ONLY leaves it out')
  await openLong(lab)
  const phases: unknown[] = []
  const measure = async (phase: string, settleMs = 1500, windowMs = FRAME_WINDOW_MS) => {
    await page.waitForTimeout(settleMs)
    const layer = page.getByTestId('animation-layer')
    const before = { wall: Date.now(), sim: await lab.nowMs() }
    const gaps = await recordFrames(page, windowMs)
    const after = { wall: Date.now(), sim: await lab.nowMs() }
    const stats = frameStats(gaps)
    const entry = {
      phase,
      sim_from_ms: before.sim,
      sim_to_ms: after.sim,
      realtime_factor: (after.sim - before.sim) / (after.wall - before.wall),
      animation_mode: await layer.getAttribute('data-mode'),
      cells_drawn: Number(await layer.getAttribute('data-cells')) || 0,
      status: await lab.status(),
      ...stats,
    }
    // Frames of a finished run would measure an idle page.
    expect(entry.status, `${phase}: the run must still be playing`).toBe('running')
    phases.push(entry)
    console.log(
      `500 VCs, ${phase}: median ${stats.median_ms.toFixed(1)} ms, p95 ${stats.p95_ms.toFixed(1)} ms, ${stats.fps.toFixed(1)} fps, ` +
        `${stats.long_frames} frames over 50 ms; t ${before.sim.toFixed(0)}→${after.sim.toFixed(0)} ms (${entry.animation_mode})`,
    )
  }
  // Flat out from the start: the engine and the charts compete for the two cores. The app plays
  // the 500 VCs at about 13× real time and the engine's cost limit ends the run at 39 s, so this
  // window is shorter, and ends with the run still going (a 2.5 s window ended at 38 s).
  await lab.chooseSpeed('as fast as possible')
  await lab.playButton.click()
  await measure('as fast as possible', 500, FLAT_OUT_FRAME_MS)
  // The other paces with every VC running (the last short VC starts at 9,980 ms). Polled often
  // and the pace changed at once: flat out the 28 simulated seconds left pass in about 3 s, and a
  // poll's default back-off (up to a second between looks) let the run end first.
  await expect
    .poll(() => lab.nowMs(), { timeout: 120_000, intervals: [50] })
    .toBeGreaterThan(10_500)
  await lab.chooseSpeed('50 ms per second')
  await measure('50 ms per second (default pace)')
  await lab.chooseSpeed('1 ms per second')
  await measure('1 ms per second (cells animated)')
  expect(phases.length).toBe(3)
  save('frames', phases)
})

test('slider: a live parameter change while the engine runs 500 VCs flat out', async ({
  lab,
  page,
}) => {
  test.skip(!parts.has('slider'), 'BENCH_PARTS leaves it out')
  test.skip(!!only && !only.includes(FIVE_HUNDRED), 'BENCH_ONLY leaves it out')
  const scenario = fiveHundredLong()
  const vc = (JSON.parse(scenario) as { vcs: { id: string }[] }).vcs[0].id
  await openLong(lab)
  // The VC's panel is opened before the run starts, and the moves follow each other closely:
  // the app now plays the 500 VCs at about 9× real time, so the 28 simulated seconds left once
  // every VC has started last about 3 s, which the moves must fall within for each to be taken
  // live (a move after the end is taken otherwise, and more slowly).
  await lab.selectVc(vc)
  const slider = lab.param('rif').getByRole('slider')
  await expect(slider).toBeVisible()
  await lab.chooseSpeed('as fast as possible')
  await lab.playButton.click()
  await expect
    .poll(() => lab.nowMs(), { timeout: 120_000, intervals: [50] })
    .toBeGreaterThan(10_500)
  // In the page: when each key reached it (the event's own time stamp, so time spent queued
  // behind a busy main thread counts), when the slider showed the new value, when the engine's
  // answer was announced, and the frame after each of those.
  await page.evaluate(() => {
    interface Move {
      input: number
      shown?: number
      shownPainted?: number
      ack?: number
      ackPainted?: number
      text?: string
    }
    const moves: Move[] = []
    ;(window as unknown as { __sliderBench: Move[] }).__sliderBench = moves
    const last = () => moves[moves.length - 1]
    window.addEventListener(
      'keydown',
      (e) => moves.push({ input: Math.min(e.timeStamp, performance.now()) }),
      { capture: true },
    )
    const panel = document.querySelector('.params-panel')
    const announcement = document.querySelector('[data-testid="announcement"]')
    if (!panel || !announcement?.parentElement)
      throw new Error('no parameters panel or announcement on the page')
    new MutationObserver(() => {
      const m = last()
      if (!m || m.shown !== undefined) return
      const shown = performance.now()
      m.shown = shown
      requestAnimationFrame(() => (m.shownPainted = performance.now()))
    }).observe(panel, { subtree: true, attributes: true, attributeFilter: ['aria-valuetext'] })
    let lastText = announcement.textContent ?? ''
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="announcement"]')?.textContent ?? ''
      if (text === lastText) return
      lastText = text
      const m = last()
      if (!m || m.ack !== undefined) return
      m.ack = performance.now()
      m.text = text
      requestAnimationFrame(() => (m.ackPainted = performance.now()))
    }).observe(announcement.parentElement, { subtree: true, childList: true, characterData: true })
  })
  const MOVES = 10
  for (let i = 0; i < MOVES; i++) {
    await slider.press(i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft')
    await page.waitForFunction(
      (n) => {
        const moves = (window as unknown as { __sliderBench: { ackPainted?: number }[] })
          .__sliderBench
        return moves.length >= n && moves[n - 1].ackPainted !== undefined
      },
      i + 1,
      { timeout: 15_000 },
    )
    await page.waitForTimeout(100 + 20 * (i % 5))
  }
  const moves = await page.evaluate(
    () =>
      (
        window as unknown as {
          __sliderBench: {
            input: number
            shown: number
            shownPainted: number
            ack: number
            ackPainted: number
            text: string
          }[]
        }
      ).__sliderBench,
  )
  const status = await lab.status()
  const rows = moves.map((m) => ({
    shown_ms: m.shown - m.input,
    shown_painted_ms: m.shownPainted - m.input,
    ack_ms: m.ack - m.input,
    ack_painted_ms: m.ackPainted - m.input,
    live: /applied live/.test(m.text),
    text: m.text,
  }))
  const summary = (key: 'shown_painted_ms' | 'ack_painted_ms') => {
    const xs = rows.map((r) => r[key]).sort((a, b) => a - b)
    return { median: quantile(xs, 0.5), max: xs[xs.length - 1] }
  }
  const result = {
    scenario: `${FIVE_HUNDRED} (run to ${LONG_UNTIL_MS / 1000} s), flat out, after every VC has started`,
    slider: `rif of ${vc}`,
    moves: rows.length,
    all_live: rows.every((r) => r.live),
    still_running: status === 'running',
    shown: summary('shown_painted_ms'),
    acknowledged: summary('ack_painted_ms'),
    rows,
  }
  console.log(
    `slider (rif of ${vc}), 500 VCs flat out: value shown in ${result.shown.median.toFixed(1)} ms median / ${result.shown.max.toFixed(1)} max; ` +
      `"applied live" shown in ${result.acknowledged.median.toFixed(1)} / ${result.acknowledged.max.toFixed(1)} ms`,
  )
  expect(rows.length).toBe(MOVES)
  save('slider', result)
})

test('start: from the click on Play to cells on the links, default scenario and pace', async ({
  lab,
  page,
}) => {
  test.skip(!parts.has('start'), 'BENCH_PARTS leaves it out')
  const LOADS = 7
  const rows: { cells_ms: number; painted_ms: number; cells: number }[] = []
  for (let i = 0; i < LOADS; i++) {
    await lab.open()
    await lab.waitUntilLoaded()
    await expect(lab.speedSlider).toHaveAttribute('aria-valuetext', '50 ms per second')
    // In the page: the click's own time stamp (time spent queued behind a busy main thread
    // counts), the moment the animation layer first says it draws cells, and the frame after.
    await page.evaluate(() => {
      interface Start {
        click?: number
        cells?: number
        painted?: number
        count?: number
      }
      const start: Start = {}
      ;(window as unknown as { __startBench: Start }).__startBench = start
      const play = document.querySelector('button.action-togglePlay')
      const layer = document.querySelector('[data-testid="animation-layer"]')
      if (!play || !layer) throw new Error('no Play button or animation layer on the page')
      play.addEventListener(
        'click',
        (e) => {
          start.click ??= Math.min(e.timeStamp, performance.now())
        },
        { capture: true },
      )
      const look = () => {
        if (start.click === undefined || start.cells !== undefined) return
        const count = Number(layer.getAttribute('data-cells')) || 0
        if (layer.getAttribute('data-mode') !== 'cells' || count === 0) return
        start.cells = performance.now()
        start.count = count
        requestAnimationFrame(() => {
          start.painted = performance.now()
        })
      }
      new MutationObserver(look).observe(layer, {
        attributes: true,
        attributeFilter: ['data-mode', 'data-cells'],
      })
    })
    await lab.playButton.click()
    const start = await page.waitForFunction(
      () => {
        const s = (window as unknown as { __startBench: { painted?: number } }).__startBench
        return s.painted === undefined ? null : s
      },
      undefined,
      { timeout: 60_000 },
    )
    const s = (await start.jsonValue()) as {
      click: number
      cells: number
      painted: number
      count: number
    }
    rows.push({ cells_ms: s.cells - s.click, painted_ms: s.painted - s.click, cells: s.count })
  }
  const painted = rows.map((r) => r.painted_ms).sort((a, b) => a - b)
  const result = {
    scenario: 'two-source-wan (the page opened with no scenario named), 50 ms per second',
    loads: rows.length,
    painted: { median: quantile(painted, 0.5), max: painted[painted.length - 1] },
    rows,
  }
  console.log(
    `start, default scenario at the default pace: cells on the links ${result.painted.median.toFixed(0)} ms median / ` +
      `${result.painted.max.toFixed(0)} ms slowest after the click on Play (${rows.length} page loads)`,
  )
  expect(rows.length).toBe(LOADS)
  save('start', result)
})

test('memory: the page after playing each workload to its end, flat out', async ({ browser }) => {
  test.skip(!parts.has('memory'), 'BENCH_PARTS leaves it out')
  const baseURL = test.info().project.use.baseURL
  const capMs = Number(process.env.BENCH_MEMORY_CAP_S ?? 300) * 1000
  const results: unknown[] = []
  for (const c of cases) {
    const before = new Set((await renderers(browser)).map((r) => r.pid))
    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 720 } })
    const problems: string[] = []
    try {
      const page = await context.newPage()
      page.on('pageerror', (error) => problems.push(error.message))
      const lab = new AbrLabPage(page)
      await lab.open(c.library ? `#scenario=${c.name}` : scenarioHash(c.scenarioJson))
      await expect.poll(() => lab.status(), { timeout: 60_000 }).toBe('paused')
      await lab.chooseSpeed('as fast as possible')
      // This page's renderer: the one that appeared with it (the largest, should there be a spare).
      const pid =
        (await renderers(browser))
          .filter((r) => !before.has(r.pid))
          .sort((a, b) => b.rss_mb - a.rss_mb)[0]?.pid ?? null
      let peakPrivate = 0
      const sampleRenderer = () => {
        const m = pid === null ? null : procMemory(pid)
        if (m) peakPrivate = Math.max(peakPrivate, m.private_mb)
        return m
      }
      const cdp = await context.newCDPSession(page)
      await cdp.send('Performance.enable')
      const heapUsed = async () =>
        (
          (await cdp.send('Performance.getMetrics')) as {
            metrics: { name: string; value: number }[]
          }
        ).metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN
      // In the page: the wall time from the click on Play to `finished`, and the frame intervals meanwhile.
      const run = page.evaluate(
        (cap) =>
          new Promise<{ wallMs: number; gaps: number[]; finished: boolean }>((resolve) => {
            const button = document.querySelector('button.action-togglePlay')
            let start = Number.NaN
            const stamps: number[] = []
            let done = false
            const frame = (t: number) => {
              stamps.push(t)
              if (!done) requestAnimationFrame(frame)
            }
            button?.addEventListener(
              'click',
              () => {
                start = performance.now()
                requestAnimationFrame(frame)
              },
              { once: true, capture: true },
            )
            const timer = setInterval(() => {
              const finished = window.__abrlab?.status() === 'finished'
              if (finished || (Number.isFinite(start) && performance.now() - start > cap)) {
                done = true
                clearInterval(timer)
                resolve({
                  wallMs: performance.now() - start,
                  gaps: stamps.slice(1).map((s, i) => s - stamps[i]),
                  finished,
                })
              }
            }, 25)
          }),
        capMs,
      )
      await lab.playButton.click()
      let peakHeap = 0
      let settled = false
      void run.finally(() => (settled = true))
      while (!settled) {
        peakHeap = Math.max(peakHeap, await heapUsed())
        sampleRenderer()
        await page.waitForTimeout(250)
      }
      const { wallMs, gaps, finished } = await run
      const untilMs = (await page.evaluate(
        () => window.__abrlab?.layout()?.until_ms ?? Number.NaN,
      )) as number
      const nowMs = await lab.nowMs()
      const heapEnd = await heapUsed()
      await cdp.send('HeapProfiler.collectGarbage')
      const heapAfterGc = await heapUsed()
      const wasmBytes = await engineWasmBytes(page)
      const renderer = sampleRenderer()
      const samples = await lab.sampleCount()
      const stats = gaps.length > 1 ? frameStats(gaps) : null
      const entry = {
        scenario: c.name,
        finished,
        until_ms: untilMs,
        sim_ms: nowMs,
        wall_ms: wallMs,
        realtime_factor: nowMs / wallMs,
        sample_rows_held: samples,
        js_heap_peak_mb: mb(Math.max(peakHeap, heapEnd)),
        js_heap_end_mb: mb(heapEnd),
        js_heap_after_gc_mb: mb(heapAfterGc),
        wasm_memory_mb: mb(wasmBytes),
        renderer_private_end_mb: renderer?.private_mb ?? null,
        renderer_private_peak_mb: renderer ? peakPrivate : null,
        renderer_rss_end_mb: renderer?.rss_mb ?? null,
        renderer_rss_peak_mb: renderer?.peak_rss_mb ?? null,
        frames: stats,
        page_errors: problems,
      }
      results.push(entry)
      console.log(
        `${c.name.padEnd(30)} ${finished ? 'to the end' : `stopped at ${nowMs.toFixed(0)} ms`} ×${entry.realtime_factor.toFixed(1)}: ` +
          `JS heap peak ${entry.js_heap_peak_mb?.toFixed(1)} MB, wasm ${entry.wasm_memory_mb?.toFixed(1)} MB, renderer private ${entry.renderer_private_peak_mb?.toFixed(0)} MB (RSS ${entry.renderer_rss_peak_mb?.toFixed(0)} MB)` +
          (stats
            ? `; frames median ${stats.median_ms.toFixed(1)} / p95 ${stats.p95_ms.toFixed(1)} ms`
            : ''),
      )
    } finally {
      await context.close()
    }
  }
  expect(results.length).toBe(cases.length)
  save('memory', results)
})
