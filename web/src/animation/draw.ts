/**
 * Drawing one animation frame on a canvas over the topology: flow bands on links too fast for
 * single cells, queue bars at every port, cells in flight (data small squares in the VC's colour,
 * forward RM cells triangles pointing the way they go, backward RM cells hollow diamonds,
 * CBR/VBR cells grey squares; a VC's connection set-up a disc in its colour, the connect coming
 * back a white disc ringed in it), and an ACR gauge per VC at its source. Returns what can be hovered.
 */
import type { Layout, LayoutVc } from '../engine/layout'
import {
  advance,
  CELL_KIND,
  CELL_ROW,
  cellPoint,
  GAUGE_HEIGHT,
  GAUGE_STEP,
  GAUGE_WIDTH,
  LANE,
  MAX_GAUGES,
  QUEUE_BAR_MAX,
  QUEUE_OFFSET,
  type Scene,
} from './scene'

export const BACKGROUND_COLOR = '#8c959f'
/** The packet model's classes, as the charts colour them. */
export const TCP_COLOR = '#0072B2'
export const UDP_COLOR = '#D55E00'
const INK = '#1b1f24'

export interface DrawInputs {
  scene: Scene
  layout: Layout
  colors: ReadonlyMap<string, string>
  /** Rows of `cells_in_flight`, or null. */
  cells: Float64Array | null
  /** Simulated ms since the cells' snapshot, to move them on between snapshots. */
  cellsAgeMs: number
  /** Per port index: true to draw its cells, false to draw its flow rate. */
  cellMode: readonly boolean[]
  /** Queue length (cells) by port index. */
  queue(index: number): number
  /** The queue length a full bar stands for. */
  queueScale: number
  /** Utilisation 0..1 by port index. */
  util(index: number): number
  acr(vc: LayoutVc): number
  maxmin(vc: LayoutVc): number
  pcr(vc: LayoutVc): number
  /** Wall clock in ms, to move the flow bands' dashes. */
  wallMs: number
  /** Cells are faded when the gauges read out another time than now. */
  fadeCells: boolean
}

export type HitTarget =
  | {
      kind: 'rm'
      x: number
      y: number
      cell: 'FRM' | 'BRM'
      vc: string
      er: number
      ci: number
      ccr: number
      port: string
    }
  | { kind: 'queue'; x: number; y: number; port: string; cells: number }
  | { kind: 'flow'; x: number; y: number; port: string; util: number }
  | { kind: 'gauge'; x: number; y: number; vc: string; acr: number; pcr: number; maxmin: number }

export interface DrawStats {
  cellsDrawn: number
  flowPorts: number
  targets: HitTarget[]
}

/** Port names by index, made once per layout rather than on every frame. */
const portNames = new WeakMap<Layout, string[]>()

function portName(layout: Layout, index: number): string {
  let names = portNames.get(layout)
  if (!names) {
    names = layout.ports.map((p) => `${p.from}→${p.to}`)
    portNames.set(layout, names)
  }
  return names[index] ?? `port ${index}`
}

const DASHED = [6, 6]
const SOLID: number[] = []
/** Flow bands' colours by utilisation in thousandths: one string each, not one per frame. */
const flowStyles: string[] = []
function flowStyle(util: number): string {
  const k = Math.round(util * 1000)
  flowStyles[k] ??= `rgba(0, 114, 178, ${0.18 + 0.6 * (k / 1000)})`
  return flowStyles[k]
}

type FlowTarget = Extract<HitTarget, { kind: 'flow' }>
type QueueTarget = Extract<HitTarget, { kind: 'queue' }>
/**
 * The flow and queue targets of each scene's ports, updated in place on every frame: with
 * hundreds of ports, new objects every frame were most of the page's garbage.
 */
const portTargets = new WeakMap<Scene, { flow: FlowTarget[]; queue: QueueTarget[] }>()

export function drawAnimation(ctx: CanvasRenderingContext2D, inputs: DrawInputs): DrawStats {
  const { scene, layout } = inputs
  const targets: HitTarget[] = []
  let flowPorts = 0
  let pool = portTargets.get(scene)
  if (!pool) {
    pool = {
      flow: scene.ports.map(() => ({ kind: 'flow', x: 0, y: 0, port: '', util: 0 })),
      queue: scene.ports.map(() => ({ kind: 'queue', x: 0, y: 0, port: '', cells: 0 })),
    }
    portTargets.set(scene, pool)
  }

  // Flow bands: width and opacity from utilisation, dashes moving the way the cells go.
  ctx.save()
  ctx.lineCap = 'butt'
  scene.ports.forEach((port, k) => {
    if (inputs.cellMode[port.index]) return
    const util = Math.max(0, Math.min(1, inputs.util(port.index) || 0))
    flowPorts++
    const ax = port.start.x + port.normal.x * LANE
    const ay = port.start.y + port.normal.y * LANE
    const bx = ax + port.dir.x * port.length
    const by = ay + port.dir.y * port.length
    ctx.strokeStyle = flowStyle(util)
    ctx.lineWidth = 1 + 4 * util
    ctx.setLineDash(util > 0.005 ? DASHED : SOLID)
    ctx.lineDashOffset = util > 0.005 ? -((inputs.wallMs / 1000) * 36 * (0.3 + util)) % 12 : 0
    ctx.beginPath()
    ctx.moveTo(ax, ay)
    ctx.lineTo(bx, by)
    ctx.stroke()
    const target = pool.flow[k]
    target.x = (ax + bx) / 2
    target.y = (ay + by) / 2
    target.port = portName(layout, port.index)
    target.util = util
    targets.push(target)
  })
  ctx.restore()

  // Queue bars at every port: a track and the queue in it.
  const scale = Math.max(1, inputs.queueScale)
  scene.ports.forEach((port, k) => {
    const queue = Math.max(0, inputs.queue(port.index) || 0)
    const max = Math.min(QUEUE_BAR_MAX, port.length * 0.45)
    const len = Math.min(max, (queue / scale) * max)
    const ox = port.start.x + port.normal.x * QUEUE_OFFSET
    const oy = port.start.y + port.normal.y * QUEUE_OFFSET
    ctx.lineCap = 'butt'
    ctx.lineWidth = 1.5
    ctx.strokeStyle = '#e6e9ed'
    ctx.beginPath()
    ctx.moveTo(ox, oy)
    ctx.lineTo(ox + port.dir.x * max, oy + port.dir.y * max)
    ctx.stroke()
    if (len > 0) {
      ctx.lineWidth = 4
      ctx.strokeStyle = queue >= scale ? '#D55E00' : '#E69F00'
      ctx.beginPath()
      ctx.moveTo(ox, oy)
      ctx.lineTo(ox + port.dir.x * Math.max(1.5, len), oy + port.dir.y * Math.max(1.5, len))
      ctx.stroke()
    }
    const target = pool.queue[k]
    target.x = ox + (port.dir.x * max) / 2
    target.y = oy + (port.dir.y * max) / 2
    target.port = portName(layout, port.index)
    target.cells = queue
    targets.push(target)
  })

  // Cells in flight, batched into one path per colour and shape (one fill each, not one per cell).
  let cellsDrawn = 0
  const cells = inputs.cells
  if (cells) {
    const byPort = new Map(scene.ports.map((p) => [p.index, p]))
    const colorOf = (vcIndex: number) => {
      const vc = layout.vcs[vcIndex]
      return (vc && inputs.colors.get(vc.id)) ?? INK
    }
    const squares = new Map<string, number[]>()
    const frms = new Map<string, number[]>()
    const brms = new Map<string, number[]>()
    const push = (groups: Map<string, number[]>, color: string, ...values: number[]) => {
      let list = groups.get(color)
      if (!list) {
        list = []
        groups.set(color, list)
      }
      list.push(...values)
    }
    const rmRows: number[] = []
    // Set-up and connect messages: few, so drawn on every link, cell mode or not.
    const signals: { x: number; y: number; color: string; connect: boolean }[] = []
    for (let r = 0; r + CELL_ROW <= cells.length; r += CELL_ROW) {
      const port = byPort.get(cells[r])
      const kind = cells[r + 2]
      if (port && (kind === CELL_KIND.setup || kind === CELL_KIND.connect)) {
        const p = cellPoint(
          port,
          Math.min(1, Math.max(0, advance(cells[r + 1], inputs.cellsAgeMs, port.spanMs))),
        )
        signals.push({
          x: p.x,
          y: p.y,
          color: colorOf(cells[r + 3]),
          connect: kind === CELL_KIND.connect,
        })
        continue
      }
      if (!port || !inputs.cellMode[port.index]) continue
      const progress = advance(cells[r + 1], inputs.cellsAgeMs, port.spanMs)
      if (progress < 0 || progress > 1) continue
      const p = cellPoint(port, progress)
      cellsDrawn++
      if (kind === CELL_KIND.frm) {
        push(frms, colorOf(cells[r + 3]), p.x, p.y, port.dir.x, port.dir.y)
        rmRows.push(r, p.x, p.y)
      } else if (kind === CELL_KIND.brm) {
        push(brms, colorOf(cells[r + 3]), p.x, p.y)
        rmRows.push(r, p.x, p.y)
      } else if (kind === CELL_KIND.background) {
        push(squares, BACKGROUND_COLOR, p.x, p.y, 2.6)
      } else if (kind === CELL_KIND.tcpSegment || kind === CELL_KIND.udpDatagram) {
        push(squares, kind === CELL_KIND.udpDatagram ? UDP_COLOR : TCP_COLOR, p.x, p.y, 3)
      } else if (kind === CELL_KIND.tcpAck) {
        push(squares, TCP_COLOR, p.x, p.y, 1.4)
      } else {
        push(squares, colorOf(cells[r + 3]), p.x, p.y, 2)
      }
    }
    ctx.globalAlpha = inputs.fadeCells ? 0.25 : 1
    for (const [color, list] of squares) {
      ctx.beginPath()
      for (let i = 0; i < list.length; i += 3)
        ctx.rect(list[i] - list[i + 2] / 2, list[i + 1] - list[i + 2] / 2, list[i + 2], list[i + 2])
      ctx.fillStyle = color
      ctx.fill()
    }
    // RM cells on top, bigger, with their own shapes: FRMs triangles pointing the way they go.
    const s = 2.6
    for (const [color, list] of frms) {
      ctx.beginPath()
      for (let i = 0; i < list.length; i += 4) {
        const [x, y, dx, dy] = [list[i], list[i + 1], list[i + 2], list[i + 3]]
        ctx.moveTo(x + dx * s, y + dy * s)
        ctx.lineTo(x - dx * s - dy * s * 0.8, y - dy * s + dx * s * 0.8)
        ctx.lineTo(x - dx * s + dy * s * 0.8, y - dy * s - dx * s * 0.8)
        ctx.closePath()
      }
      ctx.fillStyle = color
      ctx.fill()
      ctx.strokeStyle = INK
      ctx.lineWidth = 0.4
      ctx.stroke()
    }
    // BRMs hollow diamonds.
    const d = 2.4
    for (const [color, list] of brms) {
      ctx.beginPath()
      for (let i = 0; i < list.length; i += 2) {
        const [x, y] = [list[i], list[i + 1]]
        ctx.moveTo(x, y - d)
        ctx.lineTo(x + d, y)
        ctx.lineTo(x, y + d)
        ctx.lineTo(x - d, y)
        ctx.closePath()
      }
      ctx.fillStyle = '#ffffff'
      ctx.fill()
      ctx.strokeStyle = color
      ctx.lineWidth = 1.1
      ctx.stroke()
    }
    ctx.globalAlpha = 1
    // Set-up: a disc in the VC's colour ringed in ink; connect: a white disc ringed in the colour.
    for (const sig of signals) {
      ctx.beginPath()
      ctx.arc(sig.x, sig.y, 4, 0, 2 * Math.PI)
      ctx.fillStyle = sig.connect ? '#ffffff' : sig.color
      ctx.fill()
      ctx.strokeStyle = sig.connect ? sig.color : INK
      ctx.lineWidth = sig.connect ? 2 : 1.2
      ctx.stroke()
    }
    for (let i = 0; i < rmRows.length; i += 3) {
      const r = rmRows[i]
      const vc = layout.vcs[cells[r + 3]]
      targets.push({
        kind: 'rm',
        x: rmRows[i + 1],
        y: rmRows[i + 2],
        cell: cells[r + 2] === CELL_KIND.frm ? 'FRM' : 'BRM',
        vc: vc?.id ?? `#${cells[r + 3]}`,
        er: cells[r + 4],
        ci: cells[r + 5],
        ccr: cells[r + 6],
        port: portName(layout, cells[r]),
      })
    }
  }

  // ACR gauges at each source: a track for 0..PCR, the ACR in the VC's colour, a tick at the
  // max-min share.
  for (const source of scene.sources) {
    const shown = source.vcs.slice(0, MAX_GAUGES)
    shown.forEach((vc, i) => {
      const y = source.at.y + i * GAUGE_STEP
      const pcr = inputs.pcr(vc)
      const acr = inputs.acr(vc)
      const maxmin = inputs.maxmin(vc)
      const frac = pcr > 0 && Number.isFinite(acr) ? Math.max(0, Math.min(1, acr / pcr)) : 0
      ctx.fillStyle = '#e6e9ed'
      ctx.fillRect(source.at.x, y, GAUGE_WIDTH, GAUGE_HEIGHT)
      ctx.fillStyle = inputs.colors.get(vc.id) ?? INK
      ctx.fillRect(source.at.x, y, GAUGE_WIDTH * frac, GAUGE_HEIGHT)
      if (pcr > 0 && Number.isFinite(maxmin)) {
        const x = source.at.x + GAUGE_WIDTH * Math.max(0, Math.min(1, maxmin / pcr))
        ctx.fillStyle = INK
        ctx.fillRect(x - 0.6, y - 1.5, 1.2, GAUGE_HEIGHT + 3)
      }
      targets.push({
        kind: 'gauge',
        x: source.at.x + GAUGE_WIDTH / 2,
        y: y + GAUGE_HEIGHT / 2,
        vc: vc.id,
        acr,
        pcr,
        maxmin,
      })
    })
    if (source.vcs.length > shown.length) {
      ctx.fillStyle = '#59636e'
      ctx.font = '7px system-ui, sans-serif'
      ctx.fillText(
        `+${source.vcs.length - shown.length} VCs`,
        source.at.x,
        source.at.y + shown.length * GAUGE_STEP + 6,
      )
    }
  }
  return { cellsDrawn, flowPorts, targets }
}

/** The hover target nearest to (x, y) within `radius`, RM cells first (they are what one aims at). */
export function hitTest(
  targets: readonly HitTarget[],
  x: number,
  y: number,
  radius: number,
): HitTarget | null {
  let best: HitTarget | null = null
  let bestScore = Infinity
  for (const t of targets) {
    const d = Math.hypot(t.x - x, t.y - y)
    const reach =
      t.kind === 'rm'
        ? radius
        : t.kind === 'gauge'
          ? radius + GAUGE_WIDTH / 2
          : t.kind === 'queue'
            ? radius + QUEUE_BAR_MAX / 2
            : radius * 3
    if (d > reach) continue
    // RM cells win over everything near them; then whatever is closest.
    const score = (t.kind === 'rm' ? 0 : 1000) + d
    if (score < bestScore) {
      best = t
      bestScore = score
    }
  }
  return best
}

function mbps(v: number): string {
  return Number.isFinite(v) ? `${v.toFixed(1)} Mbit/s` : '—'
}

/** What the tooltip says about a hover target. */
export function describeTarget(t: HitTarget): string {
  switch (t.kind) {
    case 'rm':
      return `${t.cell} of ${t.vc} on ${t.port} · ER ${mbps(t.er)} · CI ${t.ci ? 1 : 0} · CCR ${mbps(t.ccr)}`
    case 'queue':
      return `Queue at ${t.port}: ${Math.round(t.cells).toLocaleString('en')} cells`
    case 'flow':
      return `${t.port}: utilisation ${(t.util * 100).toFixed(0)} %`
    case 'gauge':
      return `${t.vc} ACR ${mbps(t.acr)} of PCR ${mbps(t.pcr)} · max-min share ${mbps(t.maxmin)}`
  }
}
