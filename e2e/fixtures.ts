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

  /** Opens the page (optionally with a URL hash) and waits until the test API is installed. */
  async open(hash = ''): Promise<void> {
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

  async chooseSpeed(label: string): Promise<void> {
    await this.page.getByLabel('Speed').selectOption({ label })
  }
}

export const test = base.extend<{ lab: AbrLabPage }>({
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
