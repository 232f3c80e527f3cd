/**
 * The editing layer's targets over the drawing: a band along each link and a ring round each
 * node, each a button (click or Enter); nodes are dragged or moved with the arrow keys.
 */
import type { KeyboardEvent, PointerEvent } from 'react'
import type { DocLink, DocNode, Selection } from '../scenario/doc'
import { along, type Point } from '../topology/geometry'
import { band } from './layerGeometry'

/** What both kinds of target are drawn from: each node's point, the hit sizes, the selection. */
export interface TargetFrame {
  place: ReadonlyMap<string, Point>
  nodeR: number
  linkHalf: number
  selection: Selection | null
}

/** Each link's target, between the nodes' edges. */
export function EditLinks({
  frame,
  links,
  focusable,
  onPick,
}: {
  frame: TargetFrame
  links: readonly DocLink[]
  /** Whether the links are keyboard targets (in select mode). */
  focusable: boolean
  onPick(id: string): void
}) {
  const { place, nodeR, linkHalf, selection } = frame
  return (
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
            tabIndex={focusable ? 0 : -1}
            aria-label={`link ${link.id} between ${link.a} and ${link.b}`}
            aria-pressed={selected}
            onClick={() => onPick(link.id)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault()
                e.stopPropagation()
                onPick(link.id)
              }
            }}
          >
            <polygon points={band(p, q, linkHalf)} className="hit" />
            <line x1={p.x} y1={p.y} x2={q.x} y2={q.y} className="ring" />
          </g>
        )
      })}
    </g>
  )
}

/** Pointer and key handlers of a node's target. */
export interface NodeHandlers {
  onPointerDown(event: PointerEvent<SVGGElement>, node: DocNode): void
  onPointerMove(event: PointerEvent<SVGGElement>): void
  onPointerUp(event: PointerEvent<SVGGElement>, node: DocNode): void
  onPointerCancel(): void
  onKeyDown(event: KeyboardEvent<SVGGElement>, node: DocNode): void
}

/** Each node's target, where the drawing has the node (or the drag has it). */
export function EditNodes({
  frame,
  nodes,
  dragging,
  selecting,
  handlers,
}: {
  frame: TargetFrame
  nodes: readonly DocNode[]
  /** The node being dragged, if any. */
  dragging: string | undefined
  /** Whether the editor is in select mode (the label then says how to move a node). */
  selecting: boolean
  handlers: NodeHandlers
}) {
  const { place, nodeR, selection } = frame
  return (
    <g className="edit-nodes">
      {nodes.map((node) => {
        const p = place.get(node.id)
        if (!p) return null
        const selected = selection?.kind === 'node' && selection.id === node.id
        return (
          <g
            key={node.id}
            className={`edit-node ${node.kind}${selected ? ' selected' : ''}${dragging === node.id ? ' dragging' : ''}`}
            data-edit-node={node.id}
            transform={`translate(${p.x},${p.y})`}
            role="button"
            tabIndex={0}
            aria-label={`${node.kind} ${node.id}${selecting ? ': drag or use the arrow keys to move, Enter to select' : ''}`}
            aria-pressed={selected}
            onPointerDown={(e) => handlers.onPointerDown(e, node)}
            onPointerMove={handlers.onPointerMove}
            onPointerUp={(e) => handlers.onPointerUp(e, node)}
            onPointerCancel={handlers.onPointerCancel}
            onKeyDown={(e) => handlers.onKeyDown(e, node)}
          >
            <circle r={nodeR} className="hit" />
            <circle r={nodeR + 5} className="ring" />
          </g>
        )
      })}
    </g>
  )
}
