/**
 * A heatmap of one sweep figure over the grid (D3): the first parameter across, the second down
 * (one row for a one-parameter sweep), each cell coloured by value on the viridis scale (readable
 * in colour blindness and in greyscale) and labelled with it. Cells are buttons: click or Enter
 * opens that run.
 *
 * The colour scale is fixed per figure by default (fairness and utilisation 0–1, queue and losses
 * from 0), so 0.99252 and 0.99274 look the same, as they are; a relative scale (lowest to highest
 * value of this sweep) is there on request, with its range always written beside the map.
 */
import { interpolateViridis, scaleSequential, select } from 'd3'

export interface HeatmapCell {
  /** Index of the grid point. */
  index: number
  column: number
  row: number
  /** The figure, null while running, NaN when the point failed. */
  value: number | null
  /** Describes the point for the tooltip and screen readers. */
  description: string
}

export interface HeatmapOptions {
  width: number
  columns: readonly string[]
  rows: readonly string[]
  xLabel: string
  yLabel: string
  unit: string
  /** Writes a value in a cell. */
  format(value: number): string
  cells: readonly HeatmapCell[]
  /** The values at the dark and the light end of the colour scale (see `heatmapDomain`). */
  domain: readonly [number, number]
  onOpen(index: number): void
}

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
  const finite = values.filter((v) => Number.isFinite(v))
  const lo = finite.length ? Math.min(...finite) : 0
  const hi = finite.length ? Math.max(...finite) : 1
  if (scale === 'relative') return lo === hi ? [lo - 1, hi + 1] : [lo, hi]
  return [fixed.lo, fixed.hi ?? Math.max(1, hi)]
}

const MARGIN = { top: 6, right: 8, bottom: 36, left: 64 }
const MAX_CELL = 56

/** Text colour that stays readable on a viridis cell: dark on the light (yellow-green) end. */
export function labelColor(t: number): string {
  return t > 0.6 ? '#1b1f24' : '#ffffff'
}

/** The range of finite values, for the heatmap's key. */
export function valueRange(cells: readonly HeatmapCell[]): [number, number] | null {
  const values = cells
    .map((c) => c.value)
    .filter((v): v is number => v !== null && Number.isFinite(v))
  return values.length ? [Math.min(...values), Math.max(...values)] : null
}

export function heatmapHeight(rows: number, width: number, columns: number): number {
  const cell = Math.min(MAX_CELL, (width - MARGIN.left - MARGIN.right) / Math.max(1, columns))
  return MARGIN.top + MARGIN.bottom + cell * Math.max(1, rows)
}

export function renderHeatmap(svgElement: SVGSVGElement, options: HeatmapOptions): void {
  const { width, columns, rows } = options
  const cellW = Math.min(
    MAX_CELL * 2,
    (width - MARGIN.left - MARGIN.right) / Math.max(1, columns.length),
  )
  const cellH = Math.min(MAX_CELL, cellW)
  const height = MARGIN.top + MARGIN.bottom + cellH * Math.max(1, rows.length)
  const domain: [number, number] = [options.domain[0], options.domain[1]]
  const color = scaleSequential(interpolateViridis).domain(domain).clamp(true)
  const position = (v: number) =>
    Math.min(1, Math.max(0, (v - domain[0]) / (domain[1] - domain[0])))
  const svg = select(svgElement)
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`)

  svg
    .selectAll<SVGGElement, HeatmapCell>('g.cell')
    .data(options.cells, (d) => String(d.index))
    .join((enter) => {
      const g = enter.append('g').attr('class', 'cell').attr('role', 'button').attr('tabindex', 0)
      g.append('rect')
      g.append('text').attr('text-anchor', 'middle').attr('dominant-baseline', 'central')
      g.append('title')
      return g
    })
    .attr('data-index', (d) => d.index)
    .attr('data-value', (d) => (d.value === null ? null : String(d.value)))
    .attr('aria-label', (d) => d.description)
    .attr(
      'transform',
      (d) => `translate(${MARGIN.left + d.column * cellW},${MARGIN.top + d.row * cellH})`,
    )
    .style('cursor', (d) => (d.value !== null && Number.isFinite(d.value) ? 'pointer' : 'default'))
    .on('click', (_, d) => options.onOpen(d.index))
    .on('keydown', (event: KeyboardEvent, d) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault()
        options.onOpen(d.index)
      }
    })
    .call((g) =>
      g
        .select('rect')
        .attr('width', Math.max(1, cellW - 2))
        .attr('height', Math.max(1, cellH - 2))
        .attr('rx', 3)
        .attr('fill', (d) =>
          d.value === null ? '#eef1f4' : Number.isFinite(d.value) ? color(d.value) : '#fff1f2',
        )
        .attr('data-fill', (d) =>
          d.value !== null && Number.isFinite(d.value) ? color(d.value) : null,
        )
        .attr('stroke', (d) =>
          d.value !== null && !Number.isFinite(d.value) ? '#a40e26' : 'none',
        ),
    )
    .call((g) =>
      g
        .select('text')
        .attr('x', (cellW - 2) / 2)
        .attr('y', (cellH - 2) / 2)
        .attr('font-size', Math.min(12, cellW / 5))
        .attr('fill', (d) =>
          d.value === null
            ? '#59636e'
            : !Number.isFinite(d.value)
              ? '#a40e26'
              : labelColor(position(d.value)),
        )
        .text((d) =>
          d.value === null ? '…' : Number.isFinite(d.value) ? options.format(d.value) : '×',
        ),
    )
    .call((g) => g.select('title').text((d) => d.description))

  svg
    .selectAll('text.col-label')
    .data(columns)
    .join('text')
    .attr('class', 'col-label')
    .attr('x', (_, i) => MARGIN.left + i * cellW + (cellW - 2) / 2)
    .attr('y', MARGIN.top + rows.length * cellH + 14)
    .attr('text-anchor', 'middle')
    .attr('font-size', 11)
    .text((d) => d)
  svg
    .selectAll('text.row-label')
    .data(rows)
    .join('text')
    .attr('class', 'row-label')
    .attr('x', MARGIN.left - 6)
    .attr('y', (_, i) => MARGIN.top + i * cellH + (cellH - 2) / 2)
    .attr('text-anchor', 'end')
    .attr('dominant-baseline', 'central')
    .attr('font-size', 11)
    .text((d) => d)
  svg
    .selectAll('text.x-title')
    .data([options.xLabel])
    .join('text')
    .attr('class', 'x-title')
    .attr('x', MARGIN.left + (columns.length * cellW) / 2)
    .attr('y', height - 4)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .text((d) => d)
  svg
    .selectAll('text.y-title')
    .data(options.yLabel ? [options.yLabel] : [])
    .join('text')
    .attr('class', 'y-title')
    .attr('transform', `translate(12,${MARGIN.top + (rows.length * cellH) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .attr('font-size', 12)
    .text((d) => d)
}
