/**
 * The topology editor: the network drawing (TopologyView) with an interaction layer over it, in the
 * same coordinates. Nodes can be dragged (with the mouse, or moved with the arrow keys once
 * focused); nodes and links are selected by click or Enter; the toolbar adds hosts, switches and
 * links, builds a VC by picking its nodes, and removes the selection. Every edit goes through
 * `onApply`, which validates it; a refusal is shown beside the element concerned.
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
import type { SampleStore } from '../engine/samples'
import type { Layout } from '../engine/layout'
import { docLinks, docNodes, type DocNode } from '../scenario/doc'
import type { EngineInfo } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'
import type { Selection } from '../scenario/shareLink'
import { along, fitDrawing, type Fit, type Point } from '../topology/geometry'
import { TOPOLOGY_BOX, TopologyView } from '../topology/TopologyView'
import { placeNodes, trafficPaths } from '../topology/autoLayout'
import {
  addLink,
  addNode,
  addVc,
  adoptPositions,
  freeSpot,
  moveNode,
  removeSelected,
  shortestSwitchPath,
  type Edit,
} from './ops'
import { usePhone, useTouchDrag, useWidth } from './hooks'
import { touchGeometry } from './touch'

/** Validates and applies an edit; null when applied, else why it was refused. */
export type ApplyEdit = (edit: Edit, key?: string) => string | null

type Mode =
  | { kind: 'select' }
  | { kind: 'link'; from: string | null }
  | { kind: 'vc'; path: string[] }

interface Callout {
  at: Point
  text: string
  tone: 'error' | 'info'
}

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
  onApply: ApplyEdit
  /** Drawn over the topology and under the editing layer, in its placement (the cell animation). */
  overlay?(layout: Layout, fit: Fit): ReactNode
}

const { width: W, height: BOX_H, padding: PAD } = TOPOLOGY_BOX
/** Hit radius of a node, and how far from the edge a dragged node may go. */
const NODE_R = 24
/** Pixels of drawing an arrow key moves a node (Shift: one pixel). */
const NUDGE = 8
/** Pointer travel below which a press is a click, not a drag. */
const CLICK_SLOP = 3

/** The inverse of a fit: drawing coordinates back to scenario units. */
function unplace(fit: Fit, p: Point): Point {
  const o = fit.place({ x: 0, y: 0 })
  const k = fit.place({ x: 1, y: 0 }).x - o.x || 1
  return { x: (p.x - o.x) / k, y: (p.y - o.y) / k }
}

function svgPoint(svg: SVGSVGElement, clientX: number, clientY: number): Point {
  const matrix = svg.getScreenCTM()
  if (!matrix) return { x: clientX, y: clientY }
  const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse())
  return { x: p.x, y: p.y }
}

/** Half-width of a link's hit area. */
const LINK_HIT = 8

/** The corners of a band of half-width `half` along a→b, as SVG polygon points. */
function band(a: Point, b: Point, half: number): string {
  return [along(a, b, 0, half), along(a, b, 1, half), along(a, b, 1, -half), along(a, b, 0, -half)]
    .map((p) => `${p.x},${p.y}`)
    .join(' ')
}

const clampX = (x: number) => Math.min(W - NODE_R, Math.max(NODE_R, x))
const clampY = (y: number, h: number) => Math.min(h - NODE_R, Math.max(NODE_R, y))

function modeHint(mode: Mode): string {
  switch (mode.kind) {
    case 'select':
      return 'Drag a node to move it; click a node, a link or a VC button to see its parameters.'
    case 'link':
      return mode.from === null
        ? 'New link: pick the first node.'
        : `New link from ${mode.from}: pick the node to join it to (Esc cancels).`
    case 'vc':
      return mode.path.length === 0
        ? 'New VC: pick the source host.'
        : `New VC ${mode.path.join('→')}: pick the next switch, or the destination host (the shortest way there is filled in). Backspace takes a step back, Esc cancels.`
  }
}

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
  const [drag, setDrag] = useState<{
    id: string
    x: number
    y: number
    fit: Fit
    moved: boolean
  } | null>(null)
  const pressRef = useRef<{ id: string; start: Point; origin: Point; pointerId: number } | null>(
    null,
  )

  // Stored positions that collide are replaced by the automatic layout (topology/autoLayout.ts);
  // the first move or addition writes that layout into the document.
  const stored = useMemo(() => docNodes(scenario), [scenario])
  const nodes = useMemo(
    () => placeNodes(stored, docLinks(scenario), trafficPaths(layout), TOPOLOGY_BOX),
    [stored, scenario, layout],
  )
  const auto = nodes.some((n, i) => n.x !== stored[i]?.x || n.y !== stored[i]?.y)
  const base = useCallback(
    () => (auto ? adoptPositions(scenario, new Map(nodes.map((n) => [n.id, n]))) : scenario),
    [auto, scenario, nodes],
  )
  const positioned = useMemo(
    () =>
      drag ? nodes.map((n) => (n.id === drag.id ? { ...n, x: drag.x, y: drag.y } : n)) : nodes,
    [nodes, drag],
  )
  const fit = useMemo(() => drag?.fit ?? fitDrawing(nodes, W, BOX_H, PAD), [nodes, drag?.fit])
  const H = fit.height
  const place = useMemo(
    () => new Map(positioned.map((n) => [n.id, fit.place(n)])),
    [positioned, fit],
  )

  // The engine's layout, with the nodes where the document (or the drag) has them.
  const viewLayout = useMemo(() => {
    const where = new Map(positioned.map((n) => [n.id, n]))
    return {
      ...layout,
      nodes: layout.nodes.map((n) => {
        const p = where.get(n.id)
        return p ? { ...n, x: p.x, y: p.y } : n
      }),
    }
  }, [layout, positioned])

  const links = useMemo(() => docLinks(scenario), [scenario])

  // On a phone every node and link target is at least 44 px (editor/touch.ts): larger hit areas,
  // and where nodes stand too close for that, a larger drawing that pans sideways.
  const phone = usePhone()
  const paneRef = useRef<HTMLDivElement>(null)
  const paneWidth = useWidth(paneRef)
  // From the nodes as placed, not as dragged: the scale holds while a node moves.
  const touch = useMemo(
    () =>
      phone && paneWidth > 0
        ? touchGeometry(
            new Map(nodes.map((n) => [n.id, fit.place(n)])),
            links,
            W,
            paneWidth,
            NODE_R,
            LINK_HIT,
          )
        : null,
    [phone, paneWidth, nodes, fit, links],
  )
  const nodeR = touch?.nodeR ?? NODE_R
  const linkHalf = touch?.linkHalf ?? LINK_HIT

  const say = useCallback(
    (at: Point | undefined, text: string, tone: Callout['tone'] = 'error') => {
      setCallout({ at: at ?? { x: W / 2, y: 24 }, text, tone })
    },
    [],
  )

  const applyAt = useCallback(
    (edit: Edit, at: Point | undefined, key?: string): boolean => {
      const refusal = onApply(edit, key)
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
        if (applyAt(addLink(scenario, mode.from, node.id, linkDefaults), at))
          setMode({ kind: 'select' })
        return
      }
      // Building a VC.
      const path = mode.path
      if (path.length === 0) {
        if (node.kind !== 'host') return say(at, `${node.id} is a switch: a VC starts at a host.`)
        setMode({ kind: 'vc', path: [node.id] })
        setCallout(null)
        return
      }
      if (path.includes(node.id))
        return say(at, `${node.id} is already on the path: a path may not loop.`)
      const last = path[path.length - 1]
      let next: string[]
      if (node.kind === 'switch') {
        if (
          links.every(
            (l) => !((l.a === last && l.b === node.id) || (l.b === last && l.a === node.id)),
          )
        ) {
          return say(at, `No link joins ${last} and ${node.id}.`)
        }
        next = [...path, node.id]
        setMode({ kind: 'vc', path: next })
        setCallout(null)
        return
      }
      // A host ends the path; fill in the shortest way through switches if it is not adjacent.
      const way = shortestSwitchPath(scenario, last, node.id, path.slice(0, -1))
      if (way === null)
        return say(at, `No way through switches leads from ${last} to ${node.id}: add links first.`)
      next = [...path, ...way.slice(1)]
      if (applyAt(addVc(scenario, next), at)) setMode({ kind: 'select' })
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
      applyAt(moveNode(base(), drag.id, drag.x, drag.y), place.get(drag.id), `move-${drag.id}`)
      setDrag(null)
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
      applyAt(moveNode(base(), node.id, to.x, to.y), from, `move-${node.id}`)
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
    const doc = base()
    const spot = freeSpot(doc)
    applyAt(addNode(doc, kind, spot), fit.place(spot))
  }

  const remove = () => {
    if (!selection) return
    const at = selection.kind === 'node' ? place.get(selection.id) : undefined
    applyAt(removeSelected(scenario, selection), at)
  }

  const pending =
    mode.kind === 'vc' ? mode.path : mode.kind === 'link' && mode.from ? [mode.from] : []
  const pendingPoints = pending
    .map((id) => place.get(id))
    .filter((p): p is Point => p !== undefined)

  return (
    <section className="editor" aria-label="Topology editor">
      <div className="editor-toolbar" role="toolbar" aria-label="Edit the network">
        <button type="button" onClick={() => addAt('host')}>
          + Host
        </button>
        <button type="button" onClick={() => addAt('switch')}>
          + Switch
        </button>
        <button
          type="button"
          aria-pressed={mode.kind === 'link'}
          onClick={() =>
            mode.kind === 'link' ? cancelMode() : setMode({ kind: 'link', from: null })
          }
        >
          + Link
        </button>
        <button
          type="button"
          aria-pressed={mode.kind === 'vc'}
          onClick={() => (mode.kind === 'vc' ? cancelMode() : setMode({ kind: 'vc', path: [] }))}
        >
          + VC
        </button>
        <button
          type="button"
          onClick={remove}
          disabled={!selection}
          title="Remove the selection (Delete)"
        >
          Remove{selection ? ` ${selection.id}` : ''}
        </button>
        {mode.kind !== 'select' && (
          <button type="button" className="plain" onClick={cancelMode}>
            Cancel
          </button>
        )}
      </div>
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
            <g className="edit-links">
              {links.map((link) => {
                const a = place.get(link.a)
                const b = place.get(link.b)
                if (!a || !b) return null
                // Between the nodes' edges, so that neither the hit area nor the ring covers a node.
                const length = Math.hypot(b.x - a.x, b.y - a.y) || 1
                const inset = Math.min(0.45, nodeR / length)
                const p = along(a, b, inset)
                const q = along(a, b, 1 - inset)
                const selected = selection?.kind === 'link' && selection.id === link.id
                return (
                  <g
                    key={link.id}
                    className={`edit-link${selected ? ' selected' : ''}`}
                    data-edit-link={link.id}
                    role="button"
                    tabIndex={mode.kind === 'select' ? 0 : -1}
                    aria-label={`link ${link.id} between ${link.a} and ${link.b}`}
                    aria-pressed={selected}
                    onClick={() => pickLink(link.id)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault()
                        e.stopPropagation()
                        pickLink(link.id)
                      }
                    }}
                  >
                    <polygon points={band(p, q, linkHalf)} className="hit" />
                    <line x1={p.x} y1={p.y} x2={q.x} y2={q.y} className="ring" />
                  </g>
                )
              })}
            </g>
            {pendingPoints.length > 0 && (
              <g className="pending-path" aria-hidden="true">
                <polyline points={pendingPoints.map((p) => `${p.x},${p.y}`).join(' ')} />
                {pendingPoints.map((p, i) => (
                  <circle key={i} cx={p.x} cy={p.y} r={NODE_R + 4} />
                ))}
              </g>
            )}
            <g className="edit-nodes">
              {positioned.map((node) => {
                const p = place.get(node.id)
                if (!p) return null
                const selected = selection?.kind === 'node' && selection.id === node.id
                return (
                  <g
                    key={node.id}
                    className={`edit-node ${node.kind}${selected ? ' selected' : ''}${drag?.id === node.id ? ' dragging' : ''}`}
                    data-edit-node={node.id}
                    transform={`translate(${p.x},${p.y})`}
                    role="button"
                    tabIndex={0}
                    aria-label={`${node.kind} ${node.id}${mode.kind === 'select' ? ': drag or use the arrow keys to move, Enter to select' : ''}`}
                    aria-pressed={selected}
                    onPointerDown={(e) => onNodePointerDown(e, node)}
                    onPointerMove={onNodePointerMove}
                    onPointerUp={(e) => onNodePointerUp(e, node)}
                    onPointerCancel={() => {
                      pressRef.current = null
                      setDrag(null)
                    }}
                    onKeyDown={(e) => onNodeKeyDown(e, node)}
                  >
                    <circle r={nodeR} className="hit" />
                    <circle r={nodeR + 5} className="ring" />
                  </g>
                )
              })}
            </g>
          </svg>
          {callout && (
            <div
              className={`callout ${callout.tone}`}
              role={callout.tone === 'error' ? 'alert' : 'status'}
              style={{ left: `${(callout.at.x / W) * 100}%`, top: `${(callout.at.y / H) * 100}%` }}
            >
              {callout.text}
              <button
                type="button"
                className="callout-close"
                aria-label="Dismiss"
                onClick={() => setCallout(null)}
              >
                ×
              </button>
            </div>
          )}
        </div>
      </div>
      {touch && touch.widthPx > paneWidth + 1 && (
        <p className="editor-hint">Swipe the drawing sideways to see all of it.</p>
      )}
    </section>
  )
}
