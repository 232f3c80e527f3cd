/**
 * The topology editor: the network drawing (TopologyView) with an interaction layer over it, in the
 * same coordinates. Nodes can be dragged (with the mouse, or moved with the arrow keys once
 * focused); nodes and links are selected by click or Enter; the toolbar adds hosts, switches and
 * links, builds a VC by picking its nodes, and removes the selection. Every edit is an operation
 * given to `onApply` (lab/operation.ts); the engine's refusal, when it comes, is shown beside the
 * element concerned.
 *
 * Dragging only moves positions: the run is not touched (the Lab, lab/lab.ts). While a drag is under way the
 * drawing's scale is held, so the node stays under the pointer; it is refitted on release.
 */
import './editor.css'
import {
  useCallback,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react'
import type { TimeCursor } from '../charts/cursor'
import type { LiveFrame } from '../engine/frame'
import type { ApplyOp, Operation } from '../lab/operation'
import type { Layout } from '../engine/layout'
import type { SampleStore } from '../engine/samples'
import type { DocNode, Selection } from '../scenario/doc'
import type { EngineInfo } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'
import type { Fit, Point } from '../topology/geometry'
import { TopologyView } from '../topology/TopologyView'
import { type Callout, CalloutBox } from './CalloutBox'
import { EditLinks, EditNodes } from './EditTargets'
import { EditToolbar } from './EditToolbar'
import { useTouchDrag } from './hooks'
import { type Drag, useEditorPlacement, useTouchTargets } from './placement'
import { CLICK_SLOP, clampX, clampY, NODE_R, NUDGE, svgPoint, unplace, W } from './layerGeometry'
import { type Mode, modeHint, vcStep } from './mode'
import { freeSpot } from './ops'

interface EditorCanvasProps {
  layout: Layout
  scenario: JsonObject
  info: EngineInfo
  colors: ReadonlyMap<string, string>
  frame: LiveFrame | null
  /** The linked time cursor and the samples, for the drawing's labels at a hovered or held time. */
  cursor?: TimeCursor
  store?: SampleStore | null
  started: ReadonlySet<string>
  selection: Selection | null
  onSelect(selection: Selection | null): void
  onApply: ApplyOp
  /** Drawn over the topology and under the editing layer, in its placement (the cell animation). */
  overlay?(layout: Layout, fit: Fit): ReactNode
}

/** The topology drawing with its editing layer and toolbar. */
export function EditorCanvas({
  layout,
  scenario,
  info,
  colors,
  frame,
  started,
  selection,
  onSelect,
  onApply,
  overlay,
  cursor,
  store,
}: EditorCanvasProps) {
  const svgRef = useRef<SVGSVGElement>(null)
  useTouchDrag(svgRef)
  const [mode, setMode] = useState<Mode>({ kind: 'select' })
  const [callout, setCallout] = useState<Callout | null>(null)
  /** A node being dragged: its id and position in scenario units, and the fit held meanwhile. */
  const [drag, setDrag] = useState<Drag | null>(null)
  const pressRef = useRef<{ id: string; start: Point; origin: Point; pointerId: number } | null>(
    null,
  )

  const { nodes, base, adopted, positioned, fit, place, viewLayout, links } = useEditorPlacement(
    scenario,
    layout,
    drag,
  )
  const H = fit.height
  const { paneRef, paneWidth, touch, nodeR, linkHalf } = useTouchTargets(nodes, fit, links)

  const say = useCallback(
    (at: Point | undefined, text: string, tone: Callout['tone'] = 'error') => {
      setCallout({ at: at ?? { x: W / 2, y: 24 }, text, tone })
    },
    [],
  )

  const applyAt = useCallback(
    async (op: Operation, at: Point | undefined, key?: string): Promise<boolean> => {
      const refusal = await onApply(op, key)
      if (refusal) {
        say(at, refusal)
        return false
      }
      setCallout(null)
      return true
    },
    [onApply, say],
  )

  const linkDefaults = useMemo(
    () => ({
      rate_mbps: info.param('link', 'rate_mbps')?.default ?? 155.52,
      length_km: info.param('link', 'length_km')?.default ?? 1000,
    }),
    [info],
  )

  /** A node was clicked (or Enter pressed on it): what that means depends on the mode. */
  const pickNode = useCallback(
    (node: DocNode) => {
      const at = place.get(node.id)
      if (mode.kind === 'select') {
        setCallout(null)
        onSelect(
          selection?.kind === 'node' && selection.id === node.id
            ? null
            : { kind: 'node', id: node.id },
        )
        return
      }
      if (mode.kind === 'link') {
        if (mode.from === null) {
          setMode({ kind: 'link', from: node.id })
          setCallout(null)
          return
        }
        const link: Operation = { op: 'addLink', a: mode.from, b: node.id, defaults: linkDefaults }
        void applyAt(link, at).then((done) => done && setMode({ kind: 'select' }))
        return
      }
      // Building a VC.
      const step = vcStep(scenario, links, mode.path, node)
      if ('refuse' in step) return say(at, step.refuse)
      if ('path' in step) {
        setMode({ kind: 'vc', path: step.path })
        setCallout(null)
        return
      }
      void applyAt({ op: 'addVc', path: step.done }, at).then(
        (done) => done && setMode({ kind: 'select' }),
      )
    },
    [mode, place, scenario, links, selection, onSelect, applyAt, say, linkDefaults],
  )

  const pickLink = useCallback(
    (id: string) => {
      if (mode.kind !== 'select') return
      setCallout(null)
      onSelect(selection?.kind === 'link' && selection.id === id ? null : { kind: 'link', id })
    },
    [mode.kind, selection, onSelect],
  )

  const cancelMode = useCallback(() => {
    setMode({ kind: 'select' })
    setCallout(null)
  }, [])

  // ---- pointer: drag or click ----------------------------------------------------------------

  const onNodePointerDown = (event: PointerEvent<SVGGElement>, node: DocNode) => {
    if (event.button !== 0 || !svgRef.current) return
    event.currentTarget.setPointerCapture(event.pointerId)
    pressRef.current = {
      id: node.id,
      start: svgPoint(svgRef.current, event.clientX, event.clientY),
      origin: place.get(node.id) ?? { x: 0, y: 0 },
      pointerId: event.pointerId,
    }
  }

  const onNodePointerMove = (event: PointerEvent<SVGGElement>) => {
    const press = pressRef.current
    if (!press || press.pointerId !== event.pointerId || !svgRef.current || mode.kind !== 'select')
      return
    const p = svgPoint(svgRef.current, event.clientX, event.clientY)
    const dx = p.x - press.start.x
    const dy = p.y - press.start.y
    if (!drag && Math.hypot(dx, dy) < CLICK_SLOP) return
    const held = drag?.fit ?? fit
    const to = unplace(held, {
      x: clampX(press.origin.x + dx),
      y: clampY(press.origin.y + dy, held.height),
    })
    setDrag({ id: press.id, x: to.x, y: to.y, fit: held, moved: true })
  }

  const onNodePointerUp = (event: PointerEvent<SVGGElement>, node: DocNode) => {
    const press = pressRef.current
    pressRef.current = null
    if (!press || press.pointerId !== event.pointerId) return
    if (drag?.moved) {
      const move: Operation = { op: 'moveNode', id: drag.id, x: drag.x, y: drag.y }
      // The node stays where it was dropped until the worker has the move (or refused it).
      const dropped = drag
      void applyAt({ ...move, positions: adopted() }, place.get(drag.id), `move-${drag.id}`).then(
        () => setDrag((now) => (now === dropped ? null : now)),
      )
      return
    }
    setDrag(null)
    pickNode(node)
  }

  // ---- keyboard --------------------------------------------------------------------------------

  const onNodeKeyDown = (event: KeyboardEvent<SVGGElement>, node: DocNode) => {
    const arrows: Record<string, Point> = {
      ArrowLeft: { x: -1, y: 0 },
      ArrowRight: { x: 1, y: 0 },
      ArrowUp: { x: 0, y: -1 },
      ArrowDown: { x: 0, y: 1 },
    }
    const dir = arrows[event.key]
    if (dir) {
      event.preventDefault()
      event.stopPropagation()
      const from = place.get(node.id)
      if (!from) return
      const step = event.shiftKey ? 1 : NUDGE
      const to = unplace(fit, {
        x: clampX(from.x + dir.x * step),
        y: clampY(from.y + dir.y * step, fit.height),
      })
      const move: Operation = { op: 'moveNode', id: node.id, x: to.x, y: to.y }
      void applyAt({ ...move, positions: adopted() }, from, `move-${node.id}`)
      return
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      event.stopPropagation()
      pickNode(node)
    }
  }

  const onLayerKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (event.key === 'Escape' && mode.kind !== 'select') {
      event.stopPropagation()
      cancelMode()
    }
    if (event.key === 'Backspace' && mode.kind === 'vc' && mode.path.length > 0) {
      event.preventDefault()
      event.stopPropagation()
      setMode({ kind: 'vc', path: mode.path.slice(0, -1) })
    }
  }

  // ---- toolbar ---------------------------------------------------------------------------------

  const addAt = (kind: 'host' | 'switch') => {
    cancelMode()
    const spot = freeSpot(base())
    void applyAt({ op: 'addNode', kind, at: spot, positions: adopted() }, fit.place(spot))
  }

  const remove = () => {
    if (!selection) return
    const at = selection.kind === 'node' ? place.get(selection.id) : undefined
    void applyAt({ op: 'remove', selection }, at)
  }

  const pending =
    mode.kind === 'vc' ? mode.path : mode.kind === 'link' && mode.from ? [mode.from] : []
  const pendingPoints = pending
    .map((id) => place.get(id))
    .filter((p): p is Point => p !== undefined)

  const toolbar = { onAdd: addAt, onMode: setMode, onCancel: cancelMode, onRemove: remove }
  const targetFrame = { place, nodeR, linkHalf, selection }

  return (
    <section className="editor" aria-label="Topology editor">
      <EditToolbar mode={mode} selection={selection} on={toolbar} />
      <p className="editor-hint" aria-live="polite">
        {modeHint(mode)}
      </p>
      <div className="canvas-pane" ref={paneRef}>
        <div
          className="canvas"
          data-mode={mode.kind}
          style={
            touch && touch.widthPx > paneWidth + 1 ? { width: `${touch.widthPx}px` } : undefined
          }
        >
          <TopologyView
            layout={viewLayout}
            colors={colors}
            frame={frame}
            started={started}
            fit={fit}
            cursor={cursor}
            store={store}
          />
          {overlay?.(viewLayout, fit)}
          <svg
            ref={svgRef}
            className="editor-layer"
            viewBox={`0 0 ${W} ${H}`}
            onKeyDown={onLayerKeyDown}
            onPointerDown={(e) => {
              if (e.target === e.currentTarget && mode.kind === 'select') {
                setCallout(null)
                onSelect(null)
              }
            }}
          >
            <EditLinks
              frame={targetFrame}
              links={links}
              focusable={mode.kind === 'select'}
              onPick={pickLink}
            />
            {pendingPoints.length > 0 && (
              <g className="pending-path" aria-hidden="true">
                <polyline points={pendingPoints.map((p) => `${p.x},${p.y}`).join(' ')} />
                {pendingPoints.map((p, i) => (
                  <circle key={i} cx={p.x} cy={p.y} r={NODE_R + 4} />
                ))}
              </g>
            )}
            <EditNodes
              frame={targetFrame}
              nodes={positioned}
              dragging={drag?.id}
              selecting={mode.kind === 'select'}
              handlers={{
                onPointerDown: onNodePointerDown,
                onPointerMove: onNodePointerMove,
                onPointerUp: onNodePointerUp,
                onPointerCancel: () => {
                  pressRef.current = null
                  setDrag(null)
                },
                onKeyDown: onNodeKeyDown,
              }}
            />
          </svg>
          {callout && (
            <CalloutBox callout={callout} width={W} height={H} onDismiss={() => setCallout(null)} />
          )}
        </div>
      </div>
      {touch && touch.widthPx > paneWidth + 1 && (
        <p className="editor-hint">Swipe the drawing sideways to see all of it.</p>
      )}
    </section>
  )
}
