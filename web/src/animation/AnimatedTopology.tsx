/**
 * The topology with the simulation moving on it: a canvas over the SVG drawing (static and dynamic
 * layers apart, as excalidraw keeps them) redrawn once per display frame outside React.
 *
 * Cells move at the simulated pace: each snapshot from the engine gives every cell's progress
 * along its link, and between snapshots a cell moves on by the simulated time that has passed at
 * the chosen speed. A link whose cells would cross it in under a quarter of a second shows its
 * flow rate (utilisation) instead, and so does every link if drawing cells ever costs more than
 * a frame can spare: the page degrades what it draws, never its frame rate.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import './animation.css'
import type { TimeCursor } from '../charts/cursor'
import { formatTime } from '../charts/cursor'
import { sampleIndexAt } from '../charts/timeSeries'
import type { LiveFrame } from '../engine/frame'
import { column, type Layout, type LayoutVc } from '../engine/layout'
import type { RunStatus, Speed } from '../engine/protocol'
import type { SampleStore } from '../engine/samples'
import { TOPOLOGY_BOX } from '../topology/TopologyView'
import { describeTarget, drawAnimation, hitTest, type HitTarget } from './draw'
import { buildScene, fitTransform, MAX_CELLS, showsCells, slowestCellPace } from './scene'

/** The engine's latest cells in flight (see useSimulation's LiveCells). */
export interface CellsSnapshot {
  rows: Float64Array
  nowMs: number
  wallMs: number
}

interface AnimatedTopologyProps {
  children: ReactNode
  layout: Layout
  store: SampleStore | null
  frame: LiveFrame | null
  colors: ReadonlyMap<string, string>
  cells: { readonly current: CellsSnapshot | null }
  speed: Speed
  status: RunStatus
  revision: number
  cursor: TimeCursor
  /** Asks the engine for up to this many cells per frame (0: none needed). */
  onCellsWanted(max: number): void
}

/** Average draw time (ms) over DRAW_WINDOW frames above which cells give way to flow rates. */
const DRAW_BUDGET_MS = 9
const DRAW_WINDOW = 30
/** A snapshot is moved on for at most this much wall time; later ones replace it long before. */
const MAX_EXTRAPOLATION_WALL_MS = 250

function valueAt(store: SampleStore | null, name: string, t: number): number {
  if (!store || !store.has(name)) return Number.NaN
  const i = sampleIndexAt(store.series(column.time), t)
  return i < 0 ? Number.NaN : store.series(name)[i]
}

export function AnimatedTopology(props: AnimatedTopologyProps) {
  const { layout, speed, onCellsWanted, children } = props
  const scene = useMemo(() => buildScene(layout, TOPOLOGY_BOX), [layout])
  const [degraded, setDegraded] = useState(false)
  const [tip, setTip] = useState<{ target: HitTarget; x: number; y: number } | null>(null)
  const stageRef = useRef<HTMLDivElement>(null)
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const targetsRef = useRef<HitTarget[]>([])
  const dirtyRef = useRef(true)
  const latest = useRef(props)
  latest.current = props
  dirtyRef.current = true

  const cellMode = useMemo(() => scene.ports.map((p) => !degraded && showsCells(p, speed)), [scene, speed, degraded])
  const anyCells = cellMode.some(Boolean)
  const modeRef = useRef({ cellMode, degraded })
  modeRef.current = { cellMode, degraded }

  // A new pace or topology gets a fresh chance to draw cells.
  useEffect(() => setDegraded(false), [speed, layout])
  useEffect(() => onCellsWanted(anyCells ? MAX_CELLS : 0), [anyCells, onCellsWanted])
  useEffect(() => props.cursor.subscribe(() => (dirtyRef.current = true)), [props.cursor])

  useEffect(() => {
    let raf = 0
    const costs: number[] = []
    let size = { w: 0, h: 0, dpr: 1 }
    const observer = new ResizeObserver(() => (dirtyRef.current = true))
    if (stageRef.current) observer.observe(stageRef.current)

    const tick = () => {
      raf = requestAnimationFrame(tick)
      const canvas = canvasRef.current
      const stage = stageRef.current
      if (!canvas || !stage) return
      const p = latest.current
      const running = p.status === 'running'
      if (!running && !dirtyRef.current) return
      dirtyRef.current = false
      const w = stage.clientWidth
      const h = stage.clientHeight
      const dpr = window.devicePixelRatio || 1
      if (w !== size.w || h !== size.h || dpr !== size.dpr) {
        size = { w, h, dpr }
        canvas.width = Math.max(1, Math.round(w * dpr))
        canvas.height = Math.max(1, Math.round(h * dpr))
      }
      const ctx = canvas.getContext('2d')
      if (!ctx) return
      const started = performance.now()
      ctx.setTransform(1, 0, 0, 1, 0, 0)
      ctx.clearRect(0, 0, canvas.width, canvas.height)
      const fit = fitTransform(scene.box, w, h)
      ctx.setTransform(dpr * fit.scale, 0, 0, dpr * fit.scale, dpr * fit.dx, dpr * fit.dy)

      const hoverT = p.cursor.get()
      const store = p.store
      const snapshot = p.cells.current
      const ageWallMs = snapshot && running ? Math.min(MAX_EXTRAPOLATION_WALL_MS, started - snapshot.wallMs) : 0
      const cellsAgeMs = p.speed !== null ? (ageWallMs * p.speed) / 1000 : 0
      const ports = p.layout.ports
      let queueScale = 20
      if (store) for (const port of ports) if (store.has(column.queue(port.id))) queueScale = Math.max(queueScale, store.max(column.queue(port.id)))
      const maxLink = Math.max(1, ...p.layout.links.map((l) => l.rate_mbps))
      const { cellMode: mode } = modeRef.current
      const stats = drawAnimation(ctx, {
        scene,
        layout: p.layout,
        colors: p.colors,
        cells: snapshot?.rows ?? null,
        cellsAgeMs,
        cellMode: mode,
        queue: (i) => (hoverT !== null ? valueAt(store, column.queue(ports[i].id), hoverT) : (p.frame?.queueCells.get(ports[i].id) ?? 0)),
        queueScale,
        util: (i) => (store ? valueAt(store, column.util(ports[i].id), hoverT ?? Infinity) : 0),
        acr: (vc: LayoutVc) => (hoverT !== null ? valueAt(store, column.acr(vc.id), hoverT) : (p.frame?.acrMbps.get(vc.id) ?? Number.NaN)),
        maxmin: (vc: LayoutVc) => valueAt(store, column.maxmin(vc.id), hoverT ?? Infinity),
        pcr: (vc: LayoutVc) => vc.pcr_mbps ?? maxLink,
        wallMs: started,
        fadeCells: hoverT !== null,
      })
      if (hoverT !== null) {
        ctx.fillStyle = '#1b1f24'
        ctx.font = '600 11px system-ui, sans-serif'
        ctx.fillText(`values at t = ${formatTime(hoverT)}`, 6, 14)
      }
      targetsRef.current = stats.targets
      canvas.dataset.cells = String(stats.cellsDrawn)
      canvas.dataset.flowPorts = String(stats.flowPorts)
      canvas.dataset.mode = stats.flowPorts === 0 ? 'cells' : stats.flowPorts === scene.ports.length ? 'flow' : 'mixed'
      canvas.dataset.hoverTime = hoverT === null ? '' : String(hoverT)
      // Where one RM cell is, in CSS pixels of the stage: lets a test (or a tour) point at one.
      const rm = stats.targets.find((t) => t.kind === 'rm')
      canvas.dataset.rmAt = rm ? `${(rm.x * fit.scale + fit.dx).toFixed(1)},${(rm.y * fit.scale + fit.dy).toFixed(1)}` : ''
      // A sustained cost, not one slow frame (a collection, a resize), switches cells off.
      costs.push(performance.now() - started)
      if (costs.length > DRAW_WINDOW) costs.shift()
      const mean = costs.reduce((a, b) => a + b, 0) / costs.length
      canvas.dataset.drawMs = mean.toFixed(2)
      if (costs.length === DRAW_WINDOW && mean > DRAW_BUDGET_MS && mode.some(Boolean) && !modeRef.current.degraded) setDegraded(true)
    }
    raf = requestAnimationFrame(tick)
    return () => {
      cancelAnimationFrame(raf)
      observer.disconnect()
    }
  }, [scene])

  const onPointerMove = (event: React.PointerEvent<HTMLDivElement>) => {
    const stage = stageRef.current
    if (!stage) return
    const rect = stage.getBoundingClientRect()
    const fit = fitTransform(scene.box, rect.width, rect.height)
    const x = (event.clientX - rect.left - fit.dx) / fit.scale
    const y = (event.clientY - rect.top - fit.dy) / fit.scale
    const target = hitTest(targetsRef.current, x, y, 6)
    setTip(target ? { target, x: event.clientX - rect.left, y: event.clientY - rect.top } : null)
  }

  const fastest = scene.ports.length ? Math.min(...scene.ports.map(slowestCellPace)) : 0
  const mode = degraded ? 'degraded' : anyCells ? (cellMode.every(Boolean) ? 'cells' : 'mixed') : 'flow'

  return (
    <div className="animated-topology">
      <div className="topology-stage" ref={stageRef} onPointerMove={onPointerMove} onPointerLeave={() => setTip(null)}>
        {children}
        <canvas ref={canvasRef} className="animation-layer" aria-hidden="true" data-testid="animation-layer" />
        {tip && (
          <div className="animation-tip" role="tooltip" data-testid="animation-tip" style={{ left: tip.x + 12, top: tip.y + 12 }}>
            {describeTarget(tip.target)}
          </div>
        )}
      </div>
      <p className="animation-legend" data-testid="animation-legend">
        <span className="key">
          <span className="key-data" aria-hidden="true" /> data
        </span>
        <span className="key">
          <span aria-hidden="true">▶</span> FRM
        </span>
        <span className="key">
          <span aria-hidden="true">◇</span> BRM
        </span>
        <span className="key">
          <span className="key-background" aria-hidden="true" /> CBR/VBR
        </span>
        <span className="key">
          <span className="key-queue" aria-hidden="true" /> queue
        </span>
        <span className="key">
          <span className="key-gauge" aria-hidden="true" /> ACR of PCR, tick at max-min share
        </span>
        <span className="mode" data-mode={mode}>
          {mode === 'cells'
            ? 'Cells moving at the simulated pace. Hover an RM cell for its ER and CI.'
            : mode === 'degraded'
              ? 'Too many cells to draw smoothly: showing flow rates.'
              : mode === 'mixed'
                ? 'Cells on the long links; the short ones show their flow rate.'
                : `Flow rates (link utilisation). Slow down to ${fastest >= 1 ? `${Number(fastest.toPrecision(2))} ms` : `${Number((fastest * 1000).toPrecision(2))} µs`} per second or less to see single cells.`}
        </span>
      </p>
    </div>
  )
}
