/**
 * Reading a sweep's heatmaps as a user does: its values from the table under it, its colours from
 * the canvas's pixels, and a cell clicked where it is drawn.
 */
import type { Locator, Page } from '@playwright/test'

/** The heatmap figure of one sweep figure (`max_queue`, `utilization`, `fairness`, `cells_lost`). */
export function heatmap(page: Page, metric: string): Locator {
  return page.getByTestId(`sweep-heatmap-${metric}`)
}

/** The values of a heatmap, row by row, read from its "Values as a table" (opened if closed). */
export async function heatmapValues(page: Page, metric: string): Promise<number[]> {
  const figure = heatmap(page, metric)
  const details = figure.locator('details.heatmap-table')
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open)))
    await figure.getByText('Values as a table').click()
  const cells = await page.getByTestId(`sweep-table-${metric}`).locator('td').allTextContents()
  return cells.map((text) => Number(text.replaceAll(',', '')))
}

/** The colour of each cell as `[r, g, b]`, read from the canvas near the cell's top-left corner. */
export async function heatmapColours(page: Page, metric: string): Promise<number[][]> {
  return heatmap(page, metric)
    .locator('canvas')
    .evaluate((canvas: HTMLCanvasElement) => {
      const box = canvas.parentElement as HTMLElement
      const columns = Number(box.dataset.columns)
      const rows = Number(box.dataset.rows)
      const ctx = canvas.getContext('2d')
      if (!ctx) return []
      const cellW = canvas.width / columns
      const cellH = canvas.height / rows
      const out: number[][] = []
      for (let row = 0; row < rows; row++)
        for (let column = 0; column < columns; column++) {
          const x = Math.floor(column * cellW + Math.min(3, cellW / 4))
          const y = Math.floor(row * cellH + Math.min(3, cellH / 4))
          out.push([...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)])
        }
      return out
    })
}

/** Where the cell in `column`, `row` of a heatmap is drawn: hover or click it there. */
export async function heatmapCell(
  page: Page,
  metric: string,
  column: number,
  row: number,
): Promise<{ grid: Locator; position: { x: number; y: number } }> {
  const grid = heatmap(page, metric).locator('.heatmap-cells')
  const box = await grid.boundingBox()
  const columns = Number(await grid.getAttribute('data-columns'))
  const rows = Number(await grid.getAttribute('data-rows'))
  if (!box) throw new Error(`the ${metric} heatmap is not shown`)
  const position = {
    x: ((column + 0.5) * box.width) / columns,
    y: ((row + 0.5) * box.height) / rows,
  }
  return { grid, position }
}
