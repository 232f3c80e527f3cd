/**
 * What a chart does under the pointer (D3): the linked hover read-out — a line at the hovered
 * time, a dot on each series and a box with their values — and a brush that selects a time window
 * to zoom every chart into (double-click to zoom out).
 */
import { brushX, pointer, select, type BrushBehavior } from 'd3'
import { formatTime, formatValue } from './cursor'
import { chartScales, sampleIndexAt, type LineSeries, type TimeSeriesOptions } from './timeSeries'

/** Rows of values the read-out box lists at most; the rest are counted. */
export const READOUT_ROWS = 8

export interface ReadoutRow {
  key: string
  label: string
  color: string
  value: number
}

/** The value of every series at time `t` (the sample holding then), skipping series with none. */
export function readout(series: readonly LineSeries[], t: number): ReadoutRow[] {
  const rows: ReadoutRow[] = []
  for (const s of series) {
    const i = sampleIndexAt(s.x, t)
    if (i < 0) continue
    // A series that has not started yet (before its first sample) has nothing to say at t.
    if (s.x[0] > t) continue
    const value = s.y[i]
    if (!Number.isFinite(value)) continue
    rows.push({ key: s.key, label: s.label, color: s.color, value })
  }
  return rows
}

export interface InteractionHandlers {
  onHover(timeMs: number | null): void
  onBrush(window: [number, number]): void
  onResetZoom(): void
}

type Sized = Pick<TimeSeriesOptions, 'width' | 'height' | 'xDomain' | 'yDomain' | 'margin'>

interface InteractionState {
  brush: BrushBehavior<null>
  extentKey: string
  options: Sized
  handlers: InteractionHandlers
}

const STATE = new WeakMap<SVGSVGElement, InteractionState>()

/** Installs (once) or updates the brush and hover listeners of a rendered chart. */
export function renderInteraction(
  svgElement: SVGSVGElement,
  options: Sized,
  handlers: InteractionHandlers,
): void {
  const { x, y } = chartScales(options)
  const svg = select(svgElement)
  let state = STATE.get(svgElement)
  if (!state) {
    const brush = brushX<null>()
    state = { brush, extentKey: '', options, handlers }
    STATE.set(svgElement, state)
    const current = state
    brush.on('end', (event: { selection: [number, number] | null; sourceEvent?: unknown }) => {
      if (!event.selection || !event.sourceEvent) return
      const scales = chartScales(current.options)
      const [a, b] = event.selection.map((px) => scales.x.invert(px))
      // Clear the grey band: the zoom itself shows what was chosen.
      brush.move(svg.selectAll<SVGGElement, null>('g.brush'), null)
      if (Math.abs(event.selection[1] - event.selection[0]) >= 4)
        current.handlers.onBrush([Math.min(a, b), Math.max(a, b)])
    })
    svg.on('pointermove.cursor', (event: PointerEvent) => {
      const scales = chartScales(current.options)
      const [px, py] = pointer(event, svgElement)
      const [x0, x1] = scales.x.range()
      const [y0, y1] = scales.y.range()
      if (px < x0 || px > x1 || py > y0 || py < y1) {
        current.handlers.onHover(null)
        return
      }
      current.handlers.onHover(scales.x.invert(px))
    })
    svg.on('pointerleave.cursor', () => current.handlers.onHover(null))
    svg.on('dblclick.zoom', () => current.handlers.onResetZoom())
  }
  state.options = options
  state.handlers = handlers
  const extent: [[number, number], [number, number]] = [
    [x.range()[0], y.range()[1]],
    [x.range()[1], y.range()[0]],
  ]
  const key = extent.flat().join(',')
  const group = svg
    .selectAll<SVGGElement, null>('g.brush')
    .data([null])
    .join('g')
    .attr('class', 'brush')
  if (key !== state.extentKey) {
    state.extentKey = key
    state.brush.extent(extent)
    group.call(state.brush)
    // selectAll, not select: select would hand the group's datum down and replace the brush's own.
    group.selectAll('.overlay').attr('aria-hidden', 'true').style('cursor', 'crosshair')
  }
}

/** Draws the read-out at `t` (or removes it for null). */
export function renderCursor(
  svgElement: SVGSVGElement,
  options: Sized & { series: readonly LineSeries[] },
  unit: string,
  t: number | null,
): void {
  const svg = select(svgElement)
  const group = svg
    .selectAll<SVGGElement, null>('g.cursor')
    .data([null])
    .join('g')
    .attr('class', 'cursor')
    .attr('pointer-events', 'none')
  const { x, y } = chartScales(options)
  const [x0, x1] = x.range()
  if (t === null || x(t) < x0 - 0.5 || x(t) > x1 + 0.5) {
    group.selectAll('*').remove()
    group.attr('data-time', null)
    return
  }
  const px = x(t)
  const rows = readout(options.series, t)
  group.attr('data-time', t)
  group
    .selectAll('line')
    .data([null])
    .join('line')
    .attr('x1', px)
    .attr('x2', px)
    .attr('y1', y.range()[1])
    .attr('y2', y.range()[0])
    .attr('stroke', '#1b1f24')
    .attr('stroke-width', 1)
    .attr('stroke-dasharray', '3 3')
  const [yLo, yHi] = y.domain()
  group
    .selectAll('circle')
    .data(
      rows.filter((r) => r.value >= yLo && r.value <= yHi),
      (d) => (d as ReadoutRow).key,
    )
    .join('circle')
    .attr('cx', px)
    .attr('cy', (r) => y(r.value))
    .attr('r', 3.5)
    .attr('fill', (r) => r.color)
    .attr('stroke', '#fff')
    .attr('stroke-width', 1.5)

  const shown = rows.slice(0, READOUT_ROWS)
  const lines = [
    { text: `t = ${formatTime(t)}`, color: '#1b1f24', bold: true },
    ...shown.map((r) => ({
      text: `${r.label}: ${formatValue(r.value, unit)}`,
      color: r.color,
      bold: false,
    })),
    ...(rows.length > shown.length
      ? [{ text: `+ ${rows.length - shown.length} more`, color: '#59636e', bold: false }]
      : []),
  ]
  const box = group
    .selectAll<SVGGElement, null>('g.readout')
    .data([null])
    .join('g')
    .attr('class', 'readout')
  const rect = box
    .selectAll('rect')
    .data([null])
    .join('rect')
    .attr('rx', 4)
    .attr('fill', 'rgba(255,255,255,0.93)')
    .attr('stroke', '#d0d7de')
  const texts = box
    .selectAll<SVGTextElement, (typeof lines)[number]>('text')
    .data(lines)
    .join('text')
    .attr('x', 8)
    .attr('fill', (l) => l.color)
    .attr('font-size', 12)
    .attr('font-weight', (l) => (l.bold ? 600 : 400))
    .text((l) => l.text)
  // The box fits the text as drawn: a style sheet may set a larger font (presentation mode).
  const first = texts.node()
  const fontPx = (first && Number.parseFloat(getComputedStyle(first).fontSize)) || 12
  const measured = texts
    .nodes()
    .map((t) => (typeof t.getComputedTextLength === 'function' ? t.getComputedTextLength() : 0))
  const widest = Math.max(...lines.map((l, i) => measured[i] || l.text.length * fontPx * 0.55))
  const lineHeight = Math.round(fontPx * 1.25)
  const boxWidth = Math.min(Math.max(60, x1 - x.range()[0]), widest + 16)
  const boxHeight = lines.length * lineHeight + 8
  const right = px + 10 + boxWidth <= x1
  const bx = right ? px + 10 : Math.max(x.range()[0], px - 10 - boxWidth)
  const by = y.range()[1] + 2
  box.attr('transform', `translate(${bx},${by})`)
  rect.attr('width', boxWidth).attr('height', boxHeight)
  texts.attr('y', (_, i) => 4 + (i + 1) * lineHeight - Math.round(fontPx * 0.25))
}
