/**
 * One frame of a recording, composed from the page's own layers: the network drawing (its SVG and
 * the animation canvas over it) on the left, up to two charts on the right, a title and clock
 * above and a progress bar below. Every view is held at the frame's simulated time through the
 * charts' linked time cursor, so a frame shows what the page shows when scrubbed to that time.
 */
import type { TimeCursor } from '../charts/cursor'
import { formatTime } from '../charts/cursor'
import type { PinnedRun } from '../charts/chartContext'
import { drawPinned } from './pinnedDrawing'

/** The page's layers a frame is made of. */
export interface FrameSources {
  /** The drawing's stage: the topology SVG, the animation canvas over it, the live values over
   * that, the editor's layer. */
  stage: HTMLElement
  charts: { title: string; svg: SVGSVGElement }[]
}

/** The drawing and the first two charts on show in `root`; throws, naming what is missing. */
export function findSources(root: ParentNode): FrameSources {
  const stage = root.querySelector('[data-testid="animation-layer"]')?.parentElement
  if (!stage) throw new Error('the network drawing is not on the page')
  const charts = [...root.querySelectorAll<HTMLElement>('#view-panel-charts .chart-panel')]
    .filter((panel) => panel.getClientRects().length > 0)
    .map((panel) => ({
      title: panel.querySelector('h2')?.textContent ?? '',
      svg: panel.querySelector<SVGSVGElement>('.chart-box svg'),
    }))
    .filter((c): c is { title: string; svg: SVGSVGElement } => c.svg !== null)
    .slice(0, 2)
  return { stage, charts }
}

/** Presentation properties copied from the page's style sheets into a standalone SVG. */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-size',
  'font-family',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'paint-order',
  'display',
  'visibility',
]

/** The SVG as a standalone document, every element carrying its computed presentation. */
export function standaloneSvg(svg: SVGSVGElement, withoutValues = false): string {
  const clone = svg.cloneNode(true) as SVGSVGElement
  const from = [svg, ...svg.querySelectorAll('*')]
  const to = [clone, ...clone.querySelectorAll('*')]
  for (let i = 0; i < from.length; i++) {
    const style = getComputedStyle(from[i])
    to[i].setAttribute(
      'style',
      STYLE_PROPS.map((p) => `${p}:${style.getPropertyValue(p)}`).join(';'),
    )
  }
  // The drawing's live value labels belong to the current run, not to a pinned one.
  if (withoutValues)
    for (const el of clone.querySelectorAll('.acr-label, .queue-label')) el.remove()
  const rect = svg.getBoundingClientRect()
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg')
  clone.setAttribute('width', String(Math.max(1, Math.round(rect.width))))
  clone.setAttribute('height', String(Math.max(1, Math.round(rect.height))))
  return new XMLSerializer().serializeToString(clone)
}

async function svgImage(text: string): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }))
  try {
    const image = new Image()
    const loaded = new Promise<void>((resolve, reject) => {
      image.onload = () => resolve()
      image.onerror = () => reject(new Error('a layer of the page could not be drawn as an image'))
    })
    image.src = url
    await loaded
    return image
  } finally {
    URL.revokeObjectURL(url)
  }
}

/** Scales (w, h) into the box, centred: the destination rectangle. */
function contain(w: number, h: number, x: number, y: number, bw: number, bh: number) {
  const s = Math.min(bw / Math.max(1, w), bh / Math.max(1, h))
  return { x: x + (bw - w * s) / 2, y: y + (bh - h * s) / 2, w: w * s, h: h * s }
}

/** The pinned run drawn in place of the animation layer, for a before / after clip. */
export interface BeforeRun {
  run: PinnedRun
  colors: ReadonlyMap<string, string>
  /** The simulated time to draw. */
  tMs: number
  /** The clip's own time (ms) for the flow bands' motion. */
  clipMs: number
}

/**
 * Draws the stage's SVG and canvas layers, in paint order, scaled into the box; with `before`, the
 * pinned run's state replaces the animation layer and the current run's value labels are left out.
 */
async function drawStage(
  ctx: CanvasRenderingContext2D,
  stage: HTMLElement,
  box: { x: number; y: number; w: number; h: number },
  before?: BeforeRun,
): Promise<void> {
  const rect = stage.getBoundingClientRect()
  const d = contain(rect.width, rect.height, box.x, box.y, box.w, box.h)
  const s = d.w / Math.max(1, rect.width)
  // The layers as the page paints them: in page order, a raised one (the live values) last.
  const layers = [...stage.children]
    .filter((l) => l instanceof SVGSVGElement || l instanceof HTMLCanvasElement)
    .map((layer, order) => ({ layer, order, z: Number(getComputedStyle(layer).zIndex) || 0 }))
    .sort((a, b) => a.z - b.z || a.order - b.order)
    .map((l) => l.layer)
  for (const layer of layers) {
    const r = layer.getBoundingClientRect()
    if (r.width === 0 || r.height === 0) continue
    const x = d.x + (r.left - rect.left) * s
    const y = d.y + (r.top - rect.top) * s
    let image: CanvasImageSource
    if (layer instanceof SVGSVGElement) image = await svgImage(standaloneSvg(layer, !!before))
    else if (before) {
      const own = document.createElement('canvas')
      own.width = Math.max(1, Math.round(r.width))
      own.height = Math.max(1, Math.round(r.height))
      drawPinned(own, before.run, before.colors, before.tMs, before.clipMs)
      image = own
    } else image = layer
    ctx.drawImage(image, x, y, r.width * s, r.height * s)
  }
}

/** Waits until the animation layer has drawn what the cursor holds (it redraws per display frame). */
function nextPaint(): Promise<void> {
  return new Promise((resolve) =>
    requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
  )
}

/** The text, cut with an ellipsis to fit `width` in the context's font. */
function fitText(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  let fitted = text
  while (fitted.length > 4 && ctx.measureText(fitted).width > width)
    fitted = `${fitted.slice(0, -2)}…`
  return fitted
}

export interface FrameText {
  title: string
  /** The clip's whole span, for the progress bar. */
  endMs: number
  /** The clip's own time of this frame, in ms. */
  clipMs: number
  /** A before / after clip: the pinned run drawn above the current one, each named. */
  before?: { run: PinnedRun; colors: ReadonlyMap<string, string>; afterLabel: string }
}

/**
 * Holds every view at `tMs` and draws the frame on `canvas` (its size is the clip's). The font
 * sizes follow the frame's height, so a small clip is as legible as a large one, relatively.
 */
export async function composeFrame(
  canvas: HTMLCanvasElement,
  sources: FrameSources,
  cursor: TimeCursor,
  tMs: number,
  text: FrameText,
): Promise<void> {
  cursor.setScrub(tMs)
  await nextPaint()
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new Error('this browser gives no 2D canvas to compose the frames on')
  const W = canvas.width
  const H = canvas.height
  const unit = H / 36
  const head = Math.round(unit * 3)
  const bar = Math.max(4, Math.round(unit * 0.5))
  ctx.setTransform(1, 0, 0, 1, 0, 0)
  ctx.fillStyle = '#ffffff'
  ctx.fillRect(0, 0, W, H)
  ctx.fillStyle = '#1b1f24'
  ctx.textBaseline = 'middle'
  ctx.font = `600 ${Math.round(unit * 1.3)}px system-ui, sans-serif`
  const clock = `t = ${formatTime(tMs)}`
  const clockWidth = ctx.measureText(clock).width
  ctx.textAlign = 'left'
  ctx.fillText(fitText(ctx, text.title, W - clockWidth - unit * 4), unit, head / 2)
  ctx.textAlign = 'right'
  ctx.font = `700 ${Math.round(unit * 1.5)}px ui-monospace, monospace`
  ctx.fillText(clock, W - unit, head / 2)

  const bodyH = H - head - bar - unit * 0.5
  const left = sources.charts.length > 0 ? W * 0.5 : W
  const before = text.before
  if (before) {
    const half = bodyH / 2
    const labelH = unit * 1.6
    ctx.textAlign = 'left'
    ctx.font = `600 ${Math.round(unit * 1.1)}px system-ui, sans-serif`
    const room = left - unit
    ctx.fillText(fitText(ctx, `Before: ${before.run.label}`, room), unit * 0.5, head + labelH / 2)
    const after = fitText(ctx, `After: ${before.afterLabel}`, room)
    ctx.fillText(after, unit * 0.5, head + half + labelH / 2)
    await drawStage(
      ctx,
      sources.stage,
      { x: 0, y: head + labelH, w: left, h: half - labelH },
      {
        run: before.run,
        colors: before.colors,
        tMs,
        clipMs: text.clipMs,
      },
    )
    await drawStage(ctx, sources.stage, {
      x: 0,
      y: head + half + labelH,
      w: left,
      h: half - labelH,
    })
  } else await drawStage(ctx, sources.stage, { x: 0, y: head, w: left, h: bodyH })
  const n = sources.charts.length
  const chartH = n > 0 ? bodyH / n : 0
  for (let i = 0; i < n; i++) {
    const { title: chartTitle, svg } = sources.charts[i]
    const y = head + i * chartH
    const titleH = unit * 1.6
    ctx.textAlign = 'left'
    ctx.fillStyle = '#1b1f24'
    ctx.font = `600 ${Math.round(unit * 1.1)}px system-ui, sans-serif`
    ctx.fillText(chartTitle, left + unit * 0.5, y + titleH / 2)
    const r = svg.getBoundingClientRect()
    const d = contain(r.width, r.height, left, y + titleH, W - left - unit * 0.5, chartH - titleH)
    ctx.drawImage(await svgImage(standaloneSvg(svg)), d.x, d.y, d.w, d.h)
  }

  // Progress through the clip's simulated span.
  ctx.fillStyle = '#e6e9ed'
  ctx.fillRect(0, H - bar, W, bar)
  ctx.fillStyle = '#0969da'
  ctx.fillRect(0, H - bar, W * Math.min(1, tMs / Math.max(1e-9, text.endMs)), bar)
}
