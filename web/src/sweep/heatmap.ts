/**
 * A heatmap of one sweep figure over the grid: the first parameter across, the second down (one
 * row for a one-parameter sweep), each cell coloured by value on the viridis scale (readable in
 * colour blindness and in greyscale) and labelled with it where the cell is big enough to read.
 *
 * The cells are painted on a canvas — a sweep may have 10,000 of them, too many for one element
 * each — and the axes' labels and titles are drawn around it in SVG (D3), thinned so that they do
 * not overlap. Which cell lies under a point is a matter of arithmetic (`cellAt`).
 *
 * The colour scale is fixed per figure by default (fairness and utilisation 0–1, queue and losses
 * from 0), so 0.99252 and 0.99274 look the same, as they are; a relative scale (lowest to highest
 * value of this sweep) is there on request, with its range always written beside the map.
 */
import { interpolateViridis, rgb, select } from 'd3'

/** How a heatmap maps values to colour: the figure's own fixed range, or this sweep's spread. */
export type HeatmapScale = 'fixed' | 'relative'

/**
 * The colour scale's range. Fixed: `[lo, hi]` of the figure when it has a natural top (a ratio:
 * 0–1), else from 0 to the largest value (queues, losses; at least 1 so all-zero is dark).
 * Relative: the lowest to the highest value, widened by one either side when all are equal.
 */
export function heatmapDomain(
  values: readonly number[],
  scale: HeatmapScale,
  fixed: { lo: number; hi: number | null },
): [number, number] {
  const range = finiteRange(values)
  const [lo, hi] = range ?? [0, 1]
  if (scale === 'relative') return lo === hi ? [lo - 1, hi + 1] : [lo, hi]
  return [fixed.lo, fixed.hi ?? Math.max(1, hi)]
}

/** The lowest and highest finite value (null values and NaN left out), or null if there is none. */
export function finiteRange(values: readonly (number | null)[]): [number, number] | null {
  let lo = Number.POSITIVE_INFINITY
  let hi = Number.NEGATIVE_INFINITY
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue
    if (v < lo) lo = v
    if (v > hi) hi = v
  }
  return lo <= hi ? [lo, hi] : null
}

const MARGIN = { top: 6, right: 8, bottom: 36, left: 64 }
const MAX_CELL = 56
/** Labels on an axis keep at least this far apart (px): every k-th is shown. */
const COLUMN_LABEL_SPACING = 44
const ROW_LABEL_SPACING = 14
/** A cell's value is written in it only at this font size (px) or more. */
const MIN_CELL_FONT = 7

/** Text colour that stays readable on a viridis cell: dark on the light (yellow-green) end. */
export function labelColor(t: number): string {
  return t > 0.6 ? '#1b1f24' : '#ffffff'
}

/** Where the grid's cells lie in a heatmap `width` px wide. */
export interface HeatmapGeometry {
  width: number
  height: number
  /** The grid's top-left corner in the figure. */
  left: number
  top: number
  cellW: number
  cellH: number
  columns: number
  rows: number
}

export function heatmapGeometry(width: number, columns: number, rows: number): HeatmapGeometry {
  const cols = Math.max(1, columns)
  const rowCount = Math.max(1, rows)
  const cellW = Math.min(MAX_CELL * 2, (width - MARGIN.left - MARGIN.right) / cols)
  const cellH = Math.min(MAX_CELL, cellW)
  return {
    width,
    height: MARGIN.top + MARGIN.bottom + cellH * rowCount,
    left: MARGIN.left,
    top: MARGIN.top,
    cellW,
    cellH,
    columns: cols,
    rows: rowCount,
  }
}

/** The cell (column, row) under a point given relative to the grid's top-left corner, or null. */
export function cellAt(
  geometry: HeatmapGeometry,
  x: number,
  y: number,
): { column: number; row: number } | null {
  const column = Math.floor(x / geometry.cellW)
  const row = Math.floor(y / geometry.cellH)
  if (x < 0 || y < 0 || column >= geometry.columns || row >= geometry.rows) return null
  return { column, row }
}

/** Show every `labelStep`-th label so that labels `spacing` px apart fit cells `cell` px wide. */
export function labelStep(cell: number, spacing: number): number {
  return Math.max(1, Math.ceil(spacing / Math.max(cell, 1e-9)))
}

/** What a canvas heatmap paints: one value per cell, null while its point is still running. */
export interface HeatmapPaint {
  geometry: HeatmapGeometry
  /** Value of the cell at `row * columns + column`: a figure, null while running, NaN if failed. */
  values: readonly (number | null)[]
  /** The values at the dark and the light end of the colour scale (see `heatmapDomain`). */
  domain: readonly [number, number]
  format(value: number): string
  /** The cell drawn with a focus ring (keyboard), or -1. */
  focused: number
}

/** Viridis in 256 steps, as bytes: a cell's colour is looked up, not computed and parsed. */
let viridisTable: Uint8ClampedArray | null = null
function viridis(): Uint8ClampedArray {
  if (viridisTable) return viridisTable
  const table = new Uint8ClampedArray(256 * 3)
  for (let i = 0; i < 256; i++) {
    const c = rgb(interpolateViridis(i / 255))
    table.set([c.r, c.g, c.b], i * 3)
  }
  viridisTable = table
  return table
}

const PENDING = [0xee, 0xf1, 0xf4]
const FAILED = [0xff, 0xf1, 0xf2]

/**
 * The cells as an image of one pixel per cell (row-major), coloured on the viridis scale over
 * `domain`; a point still running is pale grey, a failed one pale red.
 */
export function heatmapPixels(
  values: readonly (number | null)[],
  domain: readonly [number, number],
): Uint8ClampedArray<ArrayBuffer> {
  const table = viridis()
  const pixels = new Uint8ClampedArray(values.length * 4)
  const span = domain[1] - domain[0]
  values.forEach((v, i) => {
    let colour: ArrayLike<number> = PENDING
    let at = 0
    if (v !== null && !Number.isFinite(v)) colour = FAILED
    else if (v !== null) {
      colour = table
      at = Math.round(Math.min(1, Math.max(0, (v - domain[0]) / span)) * 255) * 3
    }
    pixels[i * 4] = colour[at]
    pixels[i * 4 + 1] = colour[at + 1]
    pixels[i * 4 + 2] = colour[at + 2]
    pixels[i * 4 + 3] = 255
  })
  return pixels
}

/**
 * Paints the cells on a 2-D context whose unit is one CSS pixel, origin at the grid's corner: the
 * grid drawn once as a one-pixel-per-cell image scaled up (10,000 cells cost one image, not
 * 10,000 rectangles), then the gaps between cells, failed cells' outlines and the values where
 * cells are big enough for them.
 */
export function paintHeatmap(ctx: CanvasRenderingContext2D, paint: HeatmapPaint): void {
  const { geometry, values, domain, format, focused } = paint
  const { cellW, cellH, columns, rows } = geometry
  const width = columns * cellW
  const height = rows * cellH
  ctx.clearRect(0, 0, width, height)
  const image = document.createElement('canvas')
  image.width = columns
  image.height = rows
  const pixels = heatmapPixels(values, domain)
  image.getContext('2d')?.putImageData(new ImageData(pixels, columns, rows), 0, 0)
  ctx.imageSmoothingEnabled = false
  ctx.drawImage(image, 0, 0, width, height)
  // A gap between cells only where the cells are big enough to spare it.
  const gap = cellW >= 8 && cellH >= 8 ? 2 : 0
  const w = Math.max(1, cellW - gap)
  const h = Math.max(1, cellH - gap)
  if (gap > 0) {
    for (let c = 1; c <= columns; c++) ctx.clearRect(c * cellW - gap, 0, gap, height)
    for (let r = 1; r <= rows; r++) ctx.clearRect(0, r * cellH - gap, width, gap)
    ctx.strokeStyle = '#a40e26'
    ctx.lineWidth = 1
    values.forEach((v, i) => {
      if (v === null || Number.isFinite(v)) return
      ctx.strokeRect(
        (i % columns) * cellW + 0.5,
        Math.floor(i / columns) * cellH + 0.5,
        w - 1,
        h - 1,
      )
    })
  }
  const fontSize = Math.min(12, cellW / 5)
  if (fontSize >= MIN_CELL_FONT && cellH >= fontSize * 1.4) {
    ctx.font = `${fontSize}px system-ui, sans-serif`
    ctx.textAlign = 'center'
    ctx.textBaseline = 'middle'
    const position = (v: number) =>
      Math.min(1, Math.max(0, (v - domain[0]) / (domain[1] - domain[0])))
    values.forEach((v, i) => {
      const failed = v !== null && !Number.isFinite(v)
      ctx.fillStyle = v === null ? '#59636e' : failed ? '#a40e26' : labelColor(position(v))
      const x = (i % columns) * cellW + w / 2
      const y = Math.floor(i / columns) * cellH + h / 2
      ctx.fillText(v === null ? '…' : failed ? '×' : format(v), x, y)
    })
  }
  if (focused >= 0 && focused < columns * rows) {
    const x = (focused % columns) * cellW
    const y = Math.floor(focused / columns) * cellH
    ctx.strokeStyle = '#e69f00'
    ctx.lineWidth = 3
    ctx.strokeRect(x + 1.5, y + 1.5, Math.max(1, w - 3), Math.max(1, h - 3))
  }
}

/** The axes around the grid: thinned column and row labels and the two titles, in SVG. */
export function renderHeatmapAxes(
  svgElement: SVGSVGElement,
  geometry: HeatmapGeometry,
  options: {
    columns: readonly string[]
    rows: readonly string[]
    xLabel: string
    yLabel: string
  },
): void {
  const { width, height, left, top, cellW, cellH } = geometry
  const { columns, rows } = options
  const columnStep = labelStep(cellW, COLUMN_LABEL_SPACING)
  const rowStep = labelStep(cellH, ROW_LABEL_SPACING)
  const shown = (labels: readonly string[], step: number) =>
    labels.flatMap((text, i) => (i % step === 0 ? [{ text, i }] : []))
  const svg = select(svgElement)
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`)
  svg
    .selectAll('text.col-label')
    .data(shown(columns, columnStep))
    .join('text')
    .attr('class', 'col-label')
    .attr('x', (d) => left + (d.i + 0.5) * cellW)
    .attr('y', top + rows.length * cellH + 14)
    .attr('text-anchor', 'middle')
    .attr('font-size', 11)
    .text((d) => d.text)
  svg
    .selectAll('text.row-label')
    .data(shown(rows, rowStep))
    .join('text')
    .attr('class', 'row-label')
    .attr('x', left - 6)
    .attr('y', (d) => top + (d.i + 0.5) * cellH)
    .attr('text-anchor', 'end')
    .attr('dominant-baseline', 'central')
    .attr('font-size', 11)
    .text((d) => d.text)
  svg
    .selectAll('text.x-title')
    .data([options.xLabel])
    .join('text')
    .attr('class', 'x-title')
    .attr('x', left + (columns.length * cellW) / 2)
    .attr('y', height - 4)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .text((d) => d)
  svg
    .selectAll('text.y-title')
    .data(options.yLabel ? [options.yLabel] : [])
    .join('text')
    .attr('class', 'y-title')
    .attr('transform', `translate(12,${top + (rows.length * cellH) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .text((d) => d)
}

/** The cell a key moves the keyboard focus to in a `columns` × `rows` grid, or null (not a move). */
export function moveFocus(
  key: string,
  index: number,
  columns: number,
  rows: number,
): number | null {
  const column = index % columns
  const row = Math.floor(index / columns)
  const at = (c: number, r: number) =>
    Math.min(rows - 1, Math.max(0, r)) * columns + Math.min(columns - 1, Math.max(0, c))
  switch (key) {
    case 'ArrowLeft':
      return at(column - 1, row)
    case 'ArrowRight':
      return at(column + 1, row)
    case 'ArrowUp':
      return at(column, row - 1)
    case 'ArrowDown':
      return at(column, row + 1)
    case 'Home':
      return at(0, row)
    case 'End':
      return at(columns - 1, row)
    case 'PageUp':
      return at(column, 0)
    case 'PageDown':
      return at(column, rows - 1)
    default:
      return null
  }
}
