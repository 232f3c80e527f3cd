/**
 * The ABR Lab page as a page object, given to each test as the `lab` fixture. It reads the run
 * through the page's test API (`window.__abrlab`), which reports what the engine actually sent.
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test'

export class AbrLabPage {
  readonly playButton: Locator
  readonly resetButton: Locator
  readonly acrChart: Locator
  readonly queueChart: Locator
  readonly topology: Locator
  readonly errorPanel: Locator

  constructor(readonly page: Page) {
    this.playButton = page.locator('button.action-togglePlay')
    this.resetButton = page.locator('button.action-reset')
    this.acrChart = page.locator('svg#acr-chart')
    this.queueChart = page.locator('svg#queue-chart')
    this.topology = page.locator('svg.topology')
    this.errorPanel = page.getByRole('alert')
  }

  /**
   * Opens the page (optionally with a URL hash) and waits until the test API is installed. Playing
   * pauses at a scenario's narrated stops only with `stops` (the reader's preference, off here so
   * that a test plays through unless it is about the stops).
   */
  async open(hash = '', { stops = false }: { stops?: boolean } = {}): Promise<void> {
    await this.page.context().addInitScript((on) => {
      try {
        window.localStorage.setItem('abrlab.pauseAtStops', on ? 'on' : 'off')
      } catch {
        // about:blank and other opaque origins have no storage: nothing to set there.
      }
    }, stops)
    await this.page.goto(`/${hash}`)
    await this.page.waitForFunction(() => window.__abrlab !== undefined)
  }

  /** Waits until the engine has built the scenario and the page is ready to play. */
  async waitUntilLoaded(): Promise<void> {
    await expect.poll(() => this.status(), { message: 'scenario loaded' }).toBe('paused')
  }

  status(): Promise<string> {
    return this.page.evaluate(() => window.__abrlab?.status() ?? 'no api')
  }

  sampleCount(): Promise<number> {
    return this.page.evaluate(() => window.__abrlab?.sampleCount() ?? 0)
  }

  series(name: string): Promise<number[]> {
    return this.page.evaluate((n) => window.__abrlab?.series(n) ?? [], name)
  }

  columns(): Promise<string[]> {
    return this.page.evaluate(() => window.__abrlab?.columns() ?? [])
  }

  errorText(): Promise<string | null> {
    return this.page.evaluate(() => window.__abrlab?.error() ?? null)
  }

  /** The `d` attribute of a chart line, by its sample column. */
  linePath(chart: Locator, columnName: string): Promise<string | null> {
    return chart.locator(`path[data-series="${columnName}"]`).getAttribute('d')
  }

  /** The speed slider. */
  get speedSlider(): Locator {
    return this.page.getByRole('slider', { name: 'Speed' })
  }

  /** Moves the speed slider (by keyboard) to the stop with this text, e.g. "as fast as possible". */
  async chooseSpeed(label: string): Promise<void> {
    const slider = this.speedSlider
    await slider.focus()
    await slider.press('Home')
    for (let i = 0; i < 20; i++) {
      if ((await slider.getAttribute('aria-valuetext')) === label) break
      await slider.press('ArrowRight')
    }
    await expect(slider).toHaveAttribute('aria-valuetext', label)
    await slider.blur()
  }

  nowMs(): Promise<number> {
    return this.page.evaluate(() => window.__abrlab?.nowMs() ?? 0)
  }

  /** The scenario document as the page has it (edited). */
  scenario(): Promise<ScenarioDoc> {
    return this.page.evaluate(() => window.__abrlab?.scenario() as ScenarioDoc)
  }

  /** Every sample column, by name: what the charts draw. */
  async allSeries(): Promise<Record<string, number[]>> {
    return this.page.evaluate(() => {
      const api = window.__abrlab
      if (!api) return {}
      return Object.fromEntries(api.columns().map((c) => [c, api.series(c)]))
    })
  }

  /** The editor's hit target of a node (drag it, click it, focus it). */
  editNode(id: string): Locator {
    return this.page.locator(`[data-edit-node="${id}"]`)
  }

  /** The status line that says what the last change did to the run. */
  get announcement(): Locator {
    return this.page.getByTestId('announcement')
  }

  /** Opens the Parameters tab and selects a VC. */
  async selectVc(id: string): Promise<void> {
    await this.page.getByRole('tab', { name: 'Parameters' }).click()
    const chip = this.page
      .getByRole('group', { name: 'Select a VC' })
      .getByRole('button', { name: new RegExp(`^${id}\\b`) })
    if ((await chip.getAttribute('aria-pressed')) !== 'true') await chip.click()
    await expect(chip).toHaveAttribute('aria-pressed', 'true')
  }

  /** One parameter's block in the panel, by registry key (`rif`, `target_utilization`). */
  param(key: string): Locator {
    return this.page.locator(`.params-panel [data-param="${key}"]`).first()
  }

  /** Starts recording the gaps between animation frames (ms), until `frameGaps` is called. */
  async recordFrameGaps(): Promise<void> {
    await this.page.evaluate(() => {
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

  /** Stops recording; the gaps between animation frames since `recordFrameGaps`, ms. */
  frameGaps(): Promise<number[]> {
    return this.page.evaluate(() => {
      const w = window as unknown as { __gaps: number[]; __rafStop: boolean }
      w.__rafStop = true
      return w.__gaps
    })
  }

  async playToEnd(): Promise<void> {
    await this.chooseSpeed('as fast as possible')
    if ((await this.status()) !== 'finished') await this.playButton.click()
    await expect.poll(() => this.status(), { timeout: 60_000 }).toBe('finished')
  }
}

export interface ScenarioDoc {
  nodes: { id: string; kind: string; x: number; y: number }[]
  links: { id: string; a: string; b: string; rate_mbps?: number }[]
  vcs: { id: string; path: string[]; rif?: number }[]
  [key: string]: unknown
}

export const test = base.extend<{ lab: AbrLabPage }>({
  // Every page starts with narrated stops off (a reader's first visit pauses at them), so that a
  // test plays through unless it is about the stops: `lab.open(hash, { stops: true })` turns them on.
  page: async ({ page }, use) => {
    await page.addInitScript(() => {
      try {
        if (window.localStorage.getItem('abrlab.pauseAtStops') === null)
          window.localStorage.setItem('abrlab.pauseAtStops', 'off')
      } catch {
        // about:blank and other opaque origins have no storage: nothing to set there.
      }
    })
    await use(page)
  },
  lab: async ({ page }, use) => {
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`)
    })
    await use(new AbrLabPage(page))
    // A test that expects errors reads them from the page; nothing should reach the console.
    expect(problems, 'uncaught errors in the page').toEqual([])
  },
})

export { expect }
