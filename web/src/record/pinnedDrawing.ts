/**
 * The pinned ("before") run's network at a simulated time, for a before / after clip: the current
 * drawing's picture of the network without its value labels, and the pinned run's queues, link
 * use and rate gauges drawn over it from the pinned run's samples.
 */
import { drawAnimation } from '../animation/draw'
import { buildScene, fitTransform } from '../animation/scene'
import type { PinnedRun } from '../charts/chartContext'
import { sampleIndexAt } from '../charts/timeSeries'
import { column, type Layout, type LayoutVc } from '../engine/layout'
import { TOPOLOGY_BOX } from '../topology/TopologyView'

/** Refuses a pinned run whose network is not the current one's (its picture would not match). */
export function checkSameNetwork(current: Layout, pinned: Layout): void {
  const key = (l: Layout) =>
    JSON.stringify([l.nodes.map((n) => [n.id, n.x, n.y]), l.links.map((k) => [k.id, k.a, k.b])])
  if (key(current) !== key(pinned))
    throw new Error(
      'the pinned run has another network than this one: record each run on its own instead',
    )
}

/** Draws the pinned run's state at `tMs` on a canvas the size of the stage (CSS px). */
export function drawPinned(
  canvas: HTMLCanvasElement,
  run: PinnedRun,
  colors: ReadonlyMap<string, string>,
  tMs: number,
  clipMs: number,
): void {
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new Error('this browser gives no 2D canvas to draw the pinned run on')
  const { layout, store } = run
  const scene = buildScene(layout, TOPOLOGY_BOX)
  const times = store.series(column.time)
  const row = times.length > 0 ? sampleIndexAt(times, tMs) : -1
  const at = (name: string) => (row >= 0 && store.has(name) ? store.at(name, row) : Number.NaN)
  let queueScale = 20
  for (const p of layout.ports)
    if (store.has(column.queue(p.id)))
      queueScale = Math.max(queueScale, store.max(column.queue(p.id)))
  const maxLink = Math.max(1, ...layout.links.map((l) => l.rate_mbps))
  ctx.setTransform(1, 0, 0, 1, 0, 0)
  ctx.clearRect(0, 0, canvas.width, canvas.height)
  const fit = fitTransform(scene.box, canvas.width, canvas.height)
  ctx.setTransform(fit.scale, 0, 0, fit.scale, fit.dx, fit.dy)
  drawAnimation(ctx, {
    scene,
    layout,
    colors,
    cells: null,
    cellsAgeMs: 0,
    cellMode: scene.ports.map(() => false),
    queue: (i) => at(column.queue(layout.ports[i].id)),
    queueScale,
    util: (i) => at(column.util(layout.ports[i].id)),
    acr: (vc: LayoutVc) => at(column.acr(vc.id)),
    maxmin: (vc: LayoutVc) => at(column.maxmin(vc.id)),
    pcr: (vc: LayoutVc) => vc.pcr_mbps ?? maxLink,
    wallMs: clipMs,
    fadeCells: false,
  })
}
