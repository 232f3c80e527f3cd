/**
 * The simulation moving on the topology: a canvas laid over the SVG drawing (static and dynamic
 * layers apart, as excalidraw keeps them) redrawn once per display frame outside React. The layer
 * fills its positioned parent (the editor's canvas, or a stage round a plain TopologyView) and
 * listens to the pointer there, so it never takes a click from the editor above it.
 *
 * Cells move at the simulated pace: each snapshot from the engine gives every cell's progress
 * along its link, and between snapshots a cell moves on by the simulated time that has passed at
 * the chosen speed. A link whose cells would cross it in under a tenth of a second shows its
 * flow rate (utilisation) instead, and so does every link if drawing cells ever costs more than
 * a frame can spare: the page degrades what it draws, never its frame rate.
 */
import {
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import './animation.css'
import { LiveContext } from '../app/live'
import { getPresentation, PRESENT_LABEL_PX } from '../app/presentation'
import type { TimeCursor } from '../charts/cursor'
import { formatTime } from '../charts/cursor'
import { sampleIndexAt } from '../charts/timeSeries'
import type { LiveFrame } from '../engine/frame'
import { column, type Layout, type LayoutVc } from '../engine/layout'
import type { RunStatus, Speed } from '../engine/protocol'
import type { SampleStore } from '../engine/samples'
import { TOPOLOGY_BOX } from '../topology/TopologyView'
import { AnimationLegend, type AnimationMode } from './AnimationLegend'
import { describeTarget, drawAnimation, hitTest, type HitTarget } from './draw'
import type { Fit } from '../topology/geometry'
import {
  buildScene,
  fitTransform,
  gaugeBoxesText,
  MAX_CELLS,
  showsCells,
  slowestCellPace,
  type Scene,
} from './scene'

/** The engine's latest cells in flight (see the run's LiveCells, lab/run.ts). */
export interface CellsSnapshot {
  rows: Float64Array
  nowMs: number
  wallMs: number
  /** Every cell of the magnified port (see Magnifier), or null. */
  port?: Float64Array | null
}

export interface AnimationProps {
  /** The layout with the nodes where the drawing has them. */
  layout: Layout
  /** The drawing's placement of scenario positions (the editor holds it during a drag). */
  fit?: Fit
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
/** Least time between two writes of `data-queues` while the run plays. */
const QUEUES_EVERY_MS = 250
/** A snapshot is moved on for at most this much wall time; later ones replace it long before. */
const MAX_EXTRAPOLATION_WALL_MS = 250

/** The sample row that holds at `t` (the latest for Infinity), or -1 when there is none. */
function rowAt(store: SampleStore | null, t: number): number {
  if (!store || store.rowCount === 0) return -1
  if (t === Number.POSITIVE_INFINITY) return store.rowCount - 1
  return sampleIndexAt(store.series(column.time), t)
}

function valueAt(store: SampleStore | null, name: string, row: number): number {
  if (row < 0 || !store?.has(name)) return Number.NaN
  return store.at(name, row)
}

/** Per layout, what every frame reads by name: made once, not on every frame. */
const layoutColumns = new WeakMap<Layout, { queue: string[]; util: string[]; maxLink: number }>()
function columnsOf(layout: Layout) {
  let cols = layoutColumns.get(layout)
  if (!cols) {
    cols = {
      queue: layout.ports.map((p) => column.queue(p.id)),
      util: layout.ports.map((p) => column.util(p.id)),
      maxLink: Math.max(1, ...layout.links.map((l) => l.rate_mbps)),
    }
    layoutColumns.set(layout, cols)
  }
  return cols
}

/** What the page's live context (app/live.ts) gives the animation when it is there. */
type LiveProps = 'frame' | 'status' | 'speed' | 'revision'

export function AnimationLayer(
  given: Omit<AnimationProps, LiveProps> &
    Partial<Pick<AnimationProps, LiveProps>> & {
      onMode?(mode: AnimationMode, fastestCellPace: number): void
    },
) {
  const live = useContext(LiveContext)
  const props = {
    frame: null,
    status: 'idle' as const,
    speed: null,
    revision: 0,
    ...given,
    ...(live
      ? { frame: live.frame, status: live.status, speed: live.speed, revision: live.revision }
      : {}),
  }
  const { layout, fit, speed, onCellsWanted, onMode } = props
  const scene = useMemo(() => buildScene(layout, TOPOLOGY_BOX, fit), [layout, fit])
  const [degraded, setDegraded] = useState(false)
  const [tip, setTip] = useState<{ target: HitTarget; x: number; y: number } | null>(null)
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const sceneRef = useRef<Scene>(scene)
  sceneRef.current = scene
  const targetsRef = useRef<HitTarget[]>([])
  const dirtyRef = useRef(true)
  const latest = useRef(props)
  latest.current = props
  dirtyRef.current = true

  const cellMode = useMemo(
    () => scene.ports.map((p) => !degraded && showsCells(p, speed)),
    [scene, speed, degraded],
  )
  const anyCells = cellMode.some(Boolean)
  const modeRef = useRef({ cellMode, degraded })
  modeRef.current = { cellMode, degraded }

  // A new pace or topology gets a fresh chance to draw cells.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the deps are the triggers that reset it
  useEffect(() => setDegraded(false), [speed, layout.ports.length, layout.vcs.length])
  useEffect(() => onCellsWanted(anyCells ? MAX_CELLS : 0), [anyCells, onCellsWanted])
  useEffect(() => props.cursor.subscribe(() => (dirtyRef.current = true)), [props.cursor])

  useEffect(() => {
    let raf = 0
    const costs: number[] = []
    let size = { w: 0, h: 0, dpr: 1 }
    let queuesWritten = Number.NEGATIVE_INFINITY
    const stage = canvasRef.current?.parentElement ?? null
    const observer = new ResizeObserver(() => (dirtyRef.current = true))
    if (stage) observer.observe(stage)

    // The pointer is read on the parent: the editor's layer above takes the events, they bubble.
    const onPointerMove = (event: PointerEvent) => {
      if (!stage) return
      const rect = stage.getBoundingClientRect()
      const f = fitTransform(sceneRef.current.box, rect.width, rect.height)
      const x = (event.clientX - rect.left - f.dx) / f.scale
      const y = (event.clientY - rect.top - f.dy) / f.scale
      const target = hitTest(targetsRef.current, x, y, 6)
      setTip(target ? { target, x: event.clientX - rect.left, y: event.clientY - rect.top } : null)
    }
    const onPointerLeave = () => setTip(null)
    stage?.addEventListener('pointermove', onPointerMove)
    stage?.addEventListener('pointerleave', onPointerLeave)

    const tick = () => {
      raf = requestAnimationFrame(tick)
      const canvas = canvasRef.current
      const scene = sceneRef.current
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
      const ageWallMs =
        snapshot && running ? Math.min(MAX_EXTRAPOLATION_WALL_MS, started - snapshot.wallMs) : 0
      const cellsAgeMs = p.speed !== null ? (ageWallMs * p.speed) / 1000 : 0
      const ports = p.layout.ports
      const cols = columnsOf(p.layout)
      let queueScale = 20
      if (store)
        for (const name of cols.queue)
          if (store.has(name)) queueScale = Math.max(queueScale, store.max(name))
      const maxLink = cols.maxLink
      const { cellMode: mode } = modeRef.current
      // The rows read this frame: the hovered time's, and the latest.
      const hoverRow = hoverT !== null ? rowAt(store, hoverT) : -1
      const lastRow = rowAt(store, Number.POSITIVE_INFINITY)
      const queueAt = (i: number) =>
        hoverT !== null
          ? valueAt(store, cols.queue[i], hoverRow)
          : (p.frame?.queueCells.get(ports[i].id) ?? 0)
      const stats = drawAnimation(ctx, {
        scene,
        layout: p.layout,
        colors: p.colors,
        cells: snapshot?.rows ?? null,
        cellsAgeMs,
        cellMode: mode,
        queue: queueAt,
        queueScale,
        util: (i) =>
          store ? valueAt(store, cols.util[i], hoverT !== null ? hoverRow : lastRow) : 0,
        acr: (vc: LayoutVc) =>
          hoverT !== null
            ? valueAt(store, column.acr(vc.id), hoverRow)
            : (p.frame?.acrMbps.get(vc.id) ?? Number.NaN),
        maxmin: (vc: LayoutVc) =>
          valueAt(store, column.maxmin(vc.id), hoverT !== null ? hoverRow : lastRow),
        pcr: (vc: LayoutVc) => vc.pcr_mbps ?? maxLink,
        wallMs: started,
        fadeCells: hoverT !== null,
      })
      if (hoverT !== null) {
        // Readable from the back of the room in presentation mode, as the drawing's labels are.
        const size = getPresentation().on ? Math.max(11, PRESENT_LABEL_PX / fit.scale) : 11
        ctx.fillStyle = '#1b1f24'
        ctx.font = `600 ${size}px system-ui, sans-serif`
        ctx.fillText(`values at t = ${formatTime(hoverT)}`, 6, 3 + size)
      }
      targetsRef.current = stats.targets
      canvas.dataset.cells = String(stats.cellsDrawn)
      canvas.dataset.flowPorts = String(stats.flowPorts)
      canvas.dataset.mode =
        stats.flowPorts === 0 ? 'cells' : stats.flowPorts === scene.ports.length ? 'flow' : 'mixed'
      canvas.dataset.hoverTime = hoverT === null ? '' : String(hoverT)
      // The queue bars' values as drawn ("port:cells …"), for a test or a tour to read: at every
      // drawing when still or held, a few times a second while running (with hundreds of ports,
      // one string per frame was much of the drawing's garbage).
      if (!running || hoverT !== null || started - queuesWritten >= QUEUES_EVERY_MS) {
        queuesWritten = started
        let queues = ''
        for (let i = 0; i < ports.length; i++)
          queues += `${i > 0 ? ' ' : ''}${ports[i].id}:${Math.round(queueAt(i))}`
        canvas.dataset.queues = queues
        canvas.dataset.gauges = gaugeBoxesText(scene, fit)
      }
      // Where one RM cell is, in CSS pixels of the stage: lets a test (or a tour) point at one.
      const rm = stats.targets.find((t) => t.kind === 'rm')
      canvas.dataset.rmAt = rm
        ? `${(rm.x * fit.scale + fit.dx).toFixed(1)},${(rm.y * fit.scale + fit.dy).toFixed(1)}`
        : ''
      // A sustained cost, not one slow frame (a collection, a resize), switches cells off.
      costs.push(performance.now() - started)
      if (costs.length > DRAW_WINDOW) costs.shift()
      const mean = costs.reduce((a, b) => a + b, 0) / costs.length
      canvas.dataset.drawMs = mean.toFixed(2)
      if (
        costs.length === DRAW_WINDOW &&
        mean > DRAW_BUDGET_MS &&
        mode.some(Boolean) &&
        !modeRef.current.degraded
      )
        setDegraded(true)
    }
    raf = requestAnimationFrame(tick)
    return () => {
      cancelAnimationFrame(raf)
      observer.disconnect()
      stage?.removeEventListener('pointermove', onPointerMove)
      stage?.removeEventListener('pointerleave', onPointerLeave)
    }
  }, [])

  const fastest = scene.ports.length ? Math.min(...scene.ports.map(slowestCellPace)) : 0
  const mode: AnimationMode = degraded
    ? 'degraded'
    : anyCells
      ? cellMode.every(Boolean)
        ? 'cells'
        : 'mixed'
      : 'flow'
  useEffect(() => onMode?.(mode, fastest), [mode, fastest, onMode])

  return (
    <>
      <canvas
        ref={canvasRef}
        className="animation-layer"
        aria-hidden="true"
        data-testid="animation-layer"
      />
      {tip && (
        <div
          className="animation-tip"
          role="tooltip"
          data-testid="animation-tip"
          style={{ left: tip.x + 12, top: tip.y + 12 }}
        >
          {describeTarget(tip.target)}
        </div>
      )}
    </>
  )
}

/** A plain topology drawing (embed mode) with the animation over it and its legend below. */
export function AnimatedTopology({ children, ...props }: AnimationProps & { children: ReactNode }) {
  const [mode, setMode] = useState<{ mode: AnimationMode; fastest: number }>({
    mode: 'flow',
    fastest: 0,
  })
  const onMode = useCallback(
    (m: AnimationMode, fastest: number) => setMode({ mode: m, fastest }),
    [],
  )
  return (
    <div className="animated-topology">
      <div className="topology-stage">
        {children}
        <AnimationLayer {...props} onMode={onMode} />
      </div>
      <AnimationLegend
        mode={mode.mode}
        fastestCellPace={mode.fastest}
        packets={props.layout.model === 'ip'}
      />
    </div>
  )
}
