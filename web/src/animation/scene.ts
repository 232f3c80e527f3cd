/**
 * Geometry of the animation, in the topology drawing's coordinates: where each port's cells travel
 * (a lane beside the link, left of the direction of travel, from the edge of the transmitting node
 * to the edge of the receiving one), where its queue bar grows, where each source's ACR gauges sit,
 * and whether a link is slow enough at the current pace to show single cells.
 */
import { forwards, type Layout, type LayoutVc } from '../engine/layout'
import type { Speed } from '../engine/protocol'
import { fitDrawing, type Fit, type Point } from '../topology/geometry'

export interface Box {
  width: number
  height: number
  padding: number
  hostRadius: number
  switchHalf: number
}

/** Cells travel this far (drawing units) left of the link's centre line. */
export const LANE = 5
/** Queue bars run this far left of the centre line, beyond the cells. */
export const QUEUE_OFFSET = 11
/** The longest a queue bar gets, in drawing units. */
export const QUEUE_BAR_MAX = 44
/** Size of an ACR gauge. */
export const GAUGE_WIDTH = 46
export const GAUGE_HEIGHT = 5
export const GAUGE_STEP = 8
/** A source shows at most this many gauges; the rest are summarised. */
export const MAX_GAUGES = 6
/**
 * A link shows single cells when one takes at least this long (wall clock) to cross it at the
 * current pace; faster, the motion would be a blur, so the link shows its flow rate instead. A
 * tenth of a second lets a newcomer see cells at once: the default scenario's 5 ms links are
 * crossed in exactly that at the default pace (50 ms per second).
 */
export const MIN_CROSSING_WALL_MS = 100
/** Cells asked of the engine per frame when any link shows cells. */
export const MAX_CELLS = 8000

export interface PortLane {
  index: number
  id: string
  from: string
  to: string
  start: Point
  /** Unit direction of travel. */
  dir: Point
  /** Unit normal to the left of travel. */
  normal: Point
  length: number
  /** Time from a cell leaving the transmitter to arriving: propagation + one cell time, ms. */
  spanMs: number
}

export interface SourceGauges {
  node: string
  at: Point
  /** Gauges stack downwards from `at` (true) or upwards (false). */
  down: boolean
  vcs: LayoutVc[]
}

export interface Scene {
  box: Box
  positions: Map<string, Point>
  ports: PortLane[]
  sources: SourceGauges[]
}

/** Distance from a node's centre to its edge along `dir`. */
function edge(kind: string, dir: Point, box: Box): number {
  if (forwards(kind)) return box.switchHalf / Math.max(Math.abs(dir.x), Math.abs(dir.y), 1e-9)
  return box.hostRadius
}

/**
 * Where a source's ACR gauges go, in drawing units: below a node in the upper half of the drawing
 * (`middleY`, the mean of the nodes' heights) and above one in the lower half, the side the
 * topology prefers for the node's ACR labels left to them; the labels reserve this area too.
 */
export function gaugeArea(
  p: Point,
  vcs: number,
  middleY: number,
  hostRadius: number,
): { x: number; y: number; w: number; h: number; down: boolean } {
  const down = p.y <= middleY
  const shown = Math.min(vcs, MAX_GAUGES) + (vcs > MAX_GAUGES ? 1 : 0)
  const h = shown * GAUGE_STEP
  const y = down ? p.y + hostRadius + 5 : p.y - hostRadius - 5 - h
  return { x: p.x - GAUGE_WIDTH / 2, y, w: GAUGE_WIDTH, h, down }
}

/**
 * The boxes the gauges are drawn in, in CSS px of the stage under the transform `fit` ("x,y,w,h"
 * each, space-separated): lets a test check that no label lies on them.
 */
export function gaugeBoxesText(
  scene: Pick<Scene, 'sources'>,
  fit: { scale: number; dx: number; dy: number },
): string {
  return scene.sources
    .map(({ at, vcs }) => {
      const rows = Math.min(vcs.length, MAX_GAUGES)
      const h = (rows - 1) * GAUGE_STEP + GAUGE_HEIGHT
      const box = [at.x * fit.scale + fit.dx, at.y * fit.scale + fit.dy, GAUGE_WIDTH * fit.scale]
      return [...box, h * fit.scale].map((v) => v.toFixed(1)).join(',')
    })
    .join(' ')
}

/** The scene of a layout, placed by `fit` (by default fitted to the nodes, as TopologyView does). */
export function buildScene(layout: Layout, box: Box, given?: Fit): Scene {
  const fit = given ?? fitDrawing(layout.nodes, box.width, box.height, box.padding)
  const positions = new Map(layout.nodes.map((n) => [n.id, fit.place(n)]))
  const kinds = new Map(layout.nodes.map((n) => [n.id, n.kind]))
  const links = new Map(layout.links.map((l) => [l.id, l]))
  const ports: PortLane[] = []
  layout.ports.forEach((port, index) => {
    const a = positions.get(port.from)
    const b = positions.get(port.to)
    const link = links.get(port.link)
    if (!a || !b || !link) return
    const dx = b.x - a.x
    const dy = b.y - a.y
    const d = Math.hypot(dx, dy) || 1
    const dir = { x: dx / d, y: dy / d }
    const normal = { x: dir.y, y: -dir.x }
    const trimA = edge(kinds.get(port.from) ?? 'host', dir, box) + 2
    const trimB = edge(kinds.get(port.to) ?? 'host', dir, box) + 2
    const length = Math.max(1, d - trimA - trimB)
    const cellMs = link.rate_mbps > 0 ? 0.424 / link.rate_mbps : 0
    ports.push({
      index,
      id: port.id,
      from: port.from,
      to: port.to,
      start: { x: a.x + dir.x * trimA, y: a.y + dir.y * trimA },
      dir,
      normal,
      length,
      spanMs: link.delay_ms + cellMs,
    })
  })
  const middleY = [...positions.values()].reduce((s, p) => s + p.y, 0) / Math.max(1, positions.size)
  const bySource = new Map<string, LayoutVc[]>()
  for (const vc of layout.vcs) bySource.set(vc.source, [...(bySource.get(vc.source) ?? []), vc])
  const sources: SourceGauges[] = []
  for (const [node, vcs] of bySource) {
    const p = positions.get(node)
    if (!p) continue
    const area = gaugeArea(p, vcs.length, middleY, box.hostRadius)
    sources.push({ node, at: { x: area.x, y: area.y }, down: area.down, vcs })
  }
  return { box: { ...box, width: fit.width, height: fit.height }, positions, ports, sources }
}

/** Where a cell is drawn at `progress` (0..1) along a port's lane. */
export function cellPoint(port: PortLane, progress: number): Point {
  const along = port.length * progress
  return {
    x: port.start.x + port.dir.x * along + port.normal.x * LANE,
    y: port.start.y + port.dir.y * along + port.normal.y * LANE,
  }
}

/** Progress after `dtMs` more simulated time: cells cross a link at a constant pace. */
export function advance(progress: number, dtMs: number, spanMs: number): number {
  return spanMs > 0 ? progress + dtMs / spanMs : 1
}

/** Whether a port shows single cells at this pace (sim ms per wall second; null is flat out). */
export function showsCells(port: Pick<PortLane, 'spanMs'>, speed: Speed): boolean {
  if (speed === null || !(speed > 0)) return false
  return (port.spanMs / speed) * 1000 >= MIN_CROSSING_WALL_MS
}

/** The fastest pace (sim ms per wall second) at which a port still shows single cells. */
export function slowestCellPace(port: Pick<PortLane, 'spanMs'>): number {
  return (port.spanMs * 1000) / MIN_CROSSING_WALL_MS
}

/** The drawing's transform into a canvas of CSS size w×h (SVG's default "xMidYMid meet"). */
export function fitTransform(
  box: Pick<Box, 'width' | 'height'>,
  w: number,
  h: number,
): { scale: number; dx: number; dy: number } {
  const scale = Math.min(w / box.width, h / box.height)
  return { scale, dx: (w - box.width * scale) / 2, dy: (h - box.height * scale) / 2 }
}

/**
 * Cell kinds of `cells_in_flight` rows (4–6: the packet model's packets, by flow; 7–8: a VC's
 * connection set-up message and the connect coming back).
 */
export const CELL_KIND = {
  data: 0,
  frm: 1,
  brm: 2,
  background: 3,
  tcpSegment: 4,
  tcpAck: 5,
  udpDatagram: 6,
  setup: 7,
  connect: 8,
} as const
export const CELL_ROW = 7
