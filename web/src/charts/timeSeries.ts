/**
 * A D3 line chart of series against simulated time, the base of every chart on the page.
 *
 * Input is columnar: each series is a pair of equal-length arrays (time in ms, value), typically
 * views from SampleStore. Rendering joins into a persistent SVG structure, so redrawing once per
 * animation frame only updates path strings and axes.
 */
import {
  axisBottom,
  axisLeft,
  format,
  scaleLinear,
  select,
  type NumberValue,
  type ScaleLinear,
} from 'd3'

/** One line of a chart. */
export interface LineSeries {
  /** Stable identity across redraws, e.g. the column name. */
  key: string
  /** Name shown in the legend. */
  label: string
  color: string
  /** Simulated time in ms, ascending. */
  x: ArrayLike<number>
  y: ArrayLike<number>
  /** SVG dash pattern; omit for a solid line. */
  dash?: string
  /** 'step' holds each value until the next sample (for piecewise-constant quantities). */
  curve?: 'linear' | 'step'
  strokeWidth?: number
  /** Stroke opacity; a pinned run's lines are drawn faint behind the current run's. */
  opacity?: number
}

export interface TimeSeriesOptions {
  width: number
  height: number
  /** Time axis range in ms. */
  xDomain: readonly [number, number]
  yDomain: readonly [number, number]
  xLabel: string
  yLabel: string
  series: readonly LineSeries[]
  /** Accessible description of the chart. */
  ariaLabel: string
  /** Room around the plot (default MARGIN); presentation mode's larger text needs more. */
  margin?: Margin
}

export interface Margin {
  top: number
  right: number
  bottom: number
  left: number
}

export const MARGIN: Margin = { top: 12, right: 16, bottom: 40, left: 60 }
/** Presentation mode's 18 px text: the time axis label below its ticks, the last tick inside. */
export const PRESENT_MARGIN: Margin = { top: 14, right: 30, bottom: 56, left: 72 }

/** Pixel scales for a chart of the given size. */
export function chartScales(
  options: Pick<TimeSeriesOptions, 'width' | 'height' | 'xDomain' | 'yDomain' | 'margin'>,
): {
  x: ScaleLinear<number, number>
  y: ScaleLinear<number, number>
} {
  const m = options.margin ?? MARGIN
  const x = scaleLinear()
    .domain(options.xDomain as [number, number])
    .range([m.left, Math.max(m.left + 1, options.width - m.right)])
  const y = scaleLinear()
    .domain(options.yDomain as [number, number])
    .range([Math.max(m.top + 1, options.height - m.bottom), m.top])
  return { x, y }
}

/**
 * Indices of the points worth drawing: when there are more points than two per pixel column,
 * keep the first, minimum, maximum and last point of each column, so peaks survive decimation.
 */
export function decimate(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  xScale: (v: number) => number,
  pixels: number,
): number[] {
  const n = Math.min(x.length, y.length)
  if (n <= pixels * 2) return Array.from({ length: n }, (_, i) => i)
  const kept: number[] = []
  let bucket = Number.NaN
  let first = -1
  let minI = -1
  let maxI = -1
  let lastI = -1
  // In index order without repeats; no array per pixel column (this runs for every series on
  // every redraw).
  const keep = (i: number) => {
    if (kept.length === 0 || kept[kept.length - 1] !== i) kept.push(i)
  }
  const flush = () => {
    if (first < 0) return
    keep(first)
    keep(Math.min(minI, maxI))
    keep(Math.max(minI, maxI))
    keep(lastI)
  }
  for (let i = 0; i < n; i++) {
    const b = Math.floor(xScale(x[i]))
    if (b !== bucket) {
      flush()
      bucket = b
      first = minI = maxI = lastI = i
      continue
    }
    if (y[i] < y[minI]) minI = i
    if (y[i] > y[maxI]) maxI = i
    lastI = i
  }
  flush()
  return kept
}

/** First index whose time is at least `t` in an ascending array (its length when none is). */
export function lowerBound(xs: ArrayLike<number>, t: number): number {
  let lo = 0
  let hi = xs.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (xs[mid] < t) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The index of the sample that holds at time `t`: the last one at or before `t` (the first one
 * when `t` is earlier than all); -1 for an empty series.
 */
export function sampleIndexAt(xs: ArrayLike<number>, t: number): number {
  if (xs.length === 0) return -1
  const i = lowerBound(xs, t)
  if (i < xs.length && xs[i] === t) return i
  return Math.max(0, i - 1)
}

/** The indices from just before the x domain to just after it: what can show on the plot. */
function visibleRange(xs: ArrayLike<number>, domain: readonly number[]): [number, number] {
  const from = Math.max(0, lowerBound(xs, domain[0]) - 1)
  const to = Math.min(xs.length, lowerBound(xs, domain[domain.length - 1]) + 1)
  return [from, to]
}

/** The SVG path of one series under the given scales (empty string when there is nothing to draw). */
export function seriesPath(
  series: Pick<LineSeries, 'x' | 'y' | 'curve'>,
  x: ScaleLinear<number, number>,
  y: ScaleLinear<number, number>,
): string {
  const [r0, r1] = x.range()
  const n = Math.min(series.x.length, series.y.length)
  const [from, to] = visibleRange(series.x, x.domain())
  const part = (a: ArrayLike<number>): ArrayLike<number> =>
    from === 0 && to >= n
      ? a
      : a instanceof Float64Array
        ? a.subarray(from, to)
        : Array.prototype.slice.call(a, from, to)
  const xs = part(series.x)
  const ys = part(series.y)
  const indices = decimate(xs, ys, x, Math.max(1, Math.round(r1 - r0)))
  return pathThrough(indices, xs, ys, x, y, series.curve === 'step')
}

/** As d3-path writes a coordinate: rounded to three decimals. */
function round3(v: number): number {
  return Math.round(v * 1000) / 1000
}

/**
 * The path D3's `line()` draws through `indices` of (xs, ys) — linear or step-after, broken at
 * non-finite values, a lone point closed (`Z`) — written in one pass without D3's per-point calls
 * (with many series redrawn while samples stream in, those were much of the page's work
 * and garbage). charts.test.ts pins the output to D3's.
 */
function pathThrough(
  indices: readonly number[],
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  x: (v: number) => number,
  y: (v: number) => number,
  step: boolean,
): string {
  let out = ''
  let points = 0
  let previousY = 0
  for (const i of indices) {
    const xv = xs[i]
    const yv = ys[i]
    if (!(Number.isFinite(xv) && Number.isFinite(yv))) {
      if (points === 1) out += 'Z'
      points = 0
      continue
    }
    const px = round3(x(xv))
    const py = round3(y(yv))
    if (points === 0) out += `M${px},${py}`
    else if (step) out += `L${px},${previousY}L${px},${py}`
    else out += `L${px},${py}`
    points++
    previousY = py
  }
  if (points === 1) out += 'Z'
  return out
}

/**
 * A y range from zero to a little above the largest value, never below `floor` so that an
 * empty or flat chart still has a sensible axis.
 */
export function yDomainFrom(maxValue: number, floor: number): [number, number] {
  const top = Math.max(floor, Number.isFinite(maxValue) ? maxValue : 0)
  return [0, top * 1.05]
}

/** Tick labels that fit the margins: "50k" rather than "50,000" once values reach ten thousand. */
export function yTickFormat(top: number): (value: NumberValue) => string {
  const si = format('~s')
  const plain = format(',')
  return (value) => (Math.abs(top) >= 10_000 ? si(value) : plain(value))
}

/** What the axes of each drawn chart were drawn for: unchanged axes are not redrawn. */
const drawnAxes = new WeakMap<SVGSVGElement, string>()

/** Draws (or redraws) the chart into an <svg>. */
export function renderTimeSeries(svgElement: SVGSVGElement, options: TimeSeriesOptions): void {
  const { width, height } = options
  const { x, y } = chartScales(options)
  const axesKey = [
    width,
    height,
    ...options.xDomain,
    ...options.yDomain,
    options.xLabel,
    options.yLabel,
    options.ariaLabel,
    options.margin?.bottom,
  ].join('|')
  const svg = select(svgElement)
  if (drawnAxes.get(svgElement) !== axesKey) {
    drawnAxes.set(svgElement, axesKey)
    renderAxes(svgElement, options, x, y)
  }
  const clipId = `clip-${svgElement.id || 'chart'}`
  svg
    .selectAll<SVGGElement, null>('g.lines')
    .data([null])
    .join('g')
    .attr('class', 'lines')
    .attr('clip-path', `url(#${clipId})`)
    .selectAll<SVGPathElement, LineSeries>('path')
    .data(options.series, (d) => d.key)
    .join('path')
    .attr('data-series', (d) => d.key)
    .attr('fill', 'none')
    .attr('stroke', (d) => d.color)
    .attr('stroke-width', (d) => d.strokeWidth ?? 2)
    .attr('stroke-dasharray', (d) => d.dash ?? null)
    .attr('stroke-opacity', (d) => d.opacity ?? null)
    .attr('stroke-linejoin', 'round')
    .attr('d', (d) => seriesPath(d, x, y))
}

/**
 * Writes an axis title into `text` so that it is at most `room` px long, never clipped by the
 * chart's edge: in a smaller font down to 8 px, then shortened with an ellipsis, the whole title
 * kept in a <title> (the tooltip). Returns the length drawn (0 where text is not measured).
 */
function fitLabel(text: SVGTextElement, full: string, room: number): number {
  text.textContent = full
  text.style.fontSize = ''
  if (typeof text.getComputedTextLength !== 'function') return 0
  const length = text.getComputedTextLength()
  if (length <= room || length === 0) return length
  const size = Number.parseFloat(getComputedStyle(text).fontSize) || 12
  text.style.fontSize = `${Math.max(8, Math.floor(((size * room) / length) * 10) / 10)}px`
  let shown = full
  while (text.getComputedTextLength() > room && shown.length > 1) {
    shown = shown.slice(0, -1).trimEnd()
    text.textContent = `${shown}…`
  }
  if (shown !== full) {
    const title = document.createElementNS('http://www.w3.org/2000/svg', 'title')
    title.textContent = full
    text.appendChild(title)
  }
  return text.getComputedTextLength()
}

/** The frame of a chart: size, grid, axes, labels and the clip of the plot area. */
function renderAxes(
  svgElement: SVGSVGElement,
  options: TimeSeriesOptions,
  x: ScaleLinear<number, number>,
  y: ScaleLinear<number, number>,
): void {
  const { width, height } = options
  const svg = select(svgElement)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('width', width)
    .attr('height', height)
    .attr('role', 'img')
    .attr('aria-label', options.ariaLabel)

  const layer = (name: string) =>
    svg.selectAll<SVGGElement, null>(`g.${name}`).data([null]).join('g').attr('class', name)

  const plotHeight = y.range()[0] - y.range()[1]
  const plotWidth = x.range()[1] - x.range()[0]

  layer('grid')
    .attr('transform', `translate(${x.range()[0]},0)`)
    .call(
      axisLeft(y)
        .ticks(Math.max(2, Math.floor(plotHeight / 45)))
        .tickSize(-plotWidth)
        .tickFormat(() => ''),
    )
    .call((g) => g.select('.domain').remove())

  layer('x-axis')
    .attr('transform', `translate(0,${y.range()[0]})`)
    .call(
      axisBottom(x)
        .ticks(Math.max(2, Math.floor(plotWidth / 80)))
        .tickFormat(yTickFormat(options.xDomain[1])),
    )
  layer('y-axis')
    .attr('transform', `translate(${x.range()[0]},0)`)
    .call(
      axisLeft(y)
        .ticks(Math.max(2, Math.floor(plotHeight / 45)))
        .tickFormat(yTickFormat(options.yDomain[1])),
    )

  const xLabel = layer('x-label')
    .selectAll<SVGTextElement, string>('text')
    .data([options.xLabel])
    .join('text')
    .attr('x', x.range()[0] + plotWidth / 2)
    .attr('y', height - 6)
    .attr('text-anchor', 'middle')
  xLabel.each(function (d) {
    fitLabel(this, d, Math.max(plotWidth, 0))
  })
  const yMid = y.range()[1] + plotHeight / 2
  layer('y-label')
    .selectAll<SVGTextElement, string>('text')
    .data([options.yLabel])
    .join('text')
    .attr('transform', `translate(16,${yMid}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .each(function (d) {
      // The whole height is the room a vertical title has; centred on the plot while it fits.
      const half = fitLabel(this, d, height - 4) / 2
      const centre = Math.min(Math.max(yMid, half + 2), height - half - 2)
      // Its baseline far enough in for the letters' ascent (presentation mode's larger font).
      const size = Number.parseFloat(getComputedStyle(this).fontSize) || 12
      const left = Math.max(16, Math.ceil(size * 0.95) + 2)
      this.setAttribute('transform', `translate(${left},${centre}) rotate(-90)`)
    })

  // Clip lines to the plot so a value above the axis does not draw over the labels.
  const clipId = `clip-${svgElement.id || 'chart'}`
  svg
    .selectAll('defs')
    .data([null])
    .join('defs')
    .selectAll('clipPath')
    .data([null])
    .join('clipPath')
    .attr('id', clipId)
    .selectAll('rect')
    .data([null])
    .join('rect')
    .attr('x', x.range()[0])
    .attr('y', y.range()[1] - 2)
    .attr('width', plotWidth)
    .attr('height', plotHeight + 4)
}
