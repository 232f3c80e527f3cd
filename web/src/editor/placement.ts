/**
 * Where the editor draws the nodes: the document's positions (or the automatic layout where they
 * collide), the dragged node where the pointer has it, and the fit to the drawing, held during a
 * drag; on a phone, hit areas of at least 44 px.
 */
import { useCallback, useMemo, useRef } from 'react'
import type { Layout } from '../engine/layout'
import { type DocLink, type DocNode, docLinks, docNodes } from '../scenario/doc'
import type { JsonObject } from '../scenario/paths'
import { placeNodes, trafficPaths } from '../topology/autoLayout'
import { type Fit, fitDrawing } from '../topology/geometry'
import { TOPOLOGY_BOX } from '../topology/TopologyView'
import { usePhone, useWidth } from './hooks'
import { BOX_H, LINK_HIT, NODE_R, PAD, W } from './layerGeometry'
import { adoptPositions } from './ops'
import { touchGeometry } from './touch'

/** A node being dragged: its id and position in scenario units, and the fit held meanwhile. */
export interface Drag {
  id: string
  x: number
  y: number
  fit: Fit
  moved: boolean
}

/** The nodes as placed and as dragged, the fit, each node's point, and the layout drawn. */
export function useEditorPlacement(scenario: JsonObject, layout: Layout, drag: Drag | null) {
  // Stored positions that collide are replaced by the automatic layout (topology/autoLayout.ts);
  // the first move or addition writes that layout into the document.
  const stored = useMemo(() => docNodes(scenario), [scenario])
  const nodes = useMemo(
    () => placeNodes(stored, docLinks(scenario), trafficPaths(layout), TOPOLOGY_BOX),
    [stored, scenario, layout],
  )
  const auto = nodes.some((n, i) => n.x !== stored[i]?.x || n.y !== stored[i]?.y)
  /** The automatic layout to write into the document with the first move or addition, if any. */
  const adopted = useCallback(
    () => (auto ? new Map(nodes.map((n) => [n.id, { x: n.x, y: n.y }])) : undefined),
    [auto, nodes],
  )
  const base = useCallback(() => {
    const positions = adopted()
    return positions ? adoptPositions(scenario, positions) : scenario
  }, [adopted, scenario])
  const positioned = useMemo(
    () =>
      drag ? nodes.map((n) => (n.id === drag.id ? { ...n, x: drag.x, y: drag.y } : n)) : nodes,
    [nodes, drag],
  )
  const fit = useMemo(() => drag?.fit ?? fitDrawing(nodes, W, BOX_H, PAD), [nodes, drag?.fit])
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

  return { nodes, base, adopted, positioned, fit, place, viewLayout, links }
}

/** The editing layer's hit sizes and, on a phone, the wider drawing its pane scrolls. */
export function useTouchTargets(nodes: readonly DocNode[], fit: Fit, links: readonly DocLink[]) {
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

  return { paneRef, paneWidth, touch, nodeR, linkHalf }
}
