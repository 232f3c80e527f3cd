/**
 * The network as an SVG: hosts (circles) and switches (squares) at their scenario positions,
 * links labelled with rate and delay, each VC's route drawn in its chart colour, and live values
 * from the engine's frame — the ACR at each source and the queue at each switch port.
 *
 * The static drawing depends only on the layout and is memoised; the live overlay is the only
 * part that changes while the simulation runs.
 */
import { memo, useMemo, useSyncExternalStore } from 'react'
import type { TimeCursor } from '../charts/cursor'
import { sampleIndexAt } from '../charts/timeSeries'
import { frameFromSamples, type LiveFrame } from '../engine/frame'
import type { SampleStore } from '../engine/samples'
import { portLabel, type Layout } from '../engine/layout'
import { along, centroid, commonLinkCaption, fitNodes, linkCaption, linkLabelPlacement, stepFrom, type Fit, type Point } from './geometry'

const WIDTH = 560
const HEIGHT = 300
const PADDING = 56
const HOST_R = 20
const SWITCH_HALF = 22
/** Spacing between parallel VC routes drawn along a shared link. */
const ROUTE_GAP = 6

/** The drawing's coordinate box and node sizes, for layers drawn over it (the editor, the cell animation). */
export const TOPOLOGY_BOX = { width: WIDTH, height: HEIGHT, padding: PADDING, hostRadius: HOST_R, switchHalf: SWITCH_HALF } as const

interface TopologyViewProps {
  layout: Layout
  colors: ReadonlyMap<string, string>
  frame: LiveFrame | null
  /** VCs whose source has sent at least one cell; the others are labelled as not started. */
  started: ReadonlySet<string>
  /** Placement of scenario positions in the drawing; by default fitted to the nodes. */
  fit?: Fit
  /**
   * The linked time cursor and the samples: while a time is hovered or scrubbed, the labels show
   * the values at that time (as the charts do), not the live ones.
   */
  cursor?: TimeCursor
  store?: SampleStore | null
}

const noCursor = () => () => undefined
const noTime = () => null

interface Placement {
  pos: Map<string, Point>
  middle: Point
}

function usePlacement(layout: Layout, given?: Fit): Placement {
  return useMemo(() => {
    const fit = given ?? fitNodes(layout.nodes, WIDTH, HEIGHT, PADDING)
    const pos = new Map(layout.nodes.map((n) => [n.id, fit.place(n)]))
    return { pos, middle: centroid([...pos.values()]) }
  }, [layout, given])
}

const StaticTopology = memo(function StaticTopology({ layout, colors, fit }: Pick<TopologyViewProps, 'layout' | 'colors' | 'fit'>) {
  const { pos, middle } = usePlacement(layout, fit)
  // Links like most others are described once, in the caption; only the odd ones are labelled.
  const common = commonLinkCaption(layout.links)
  return (
    <g className="static">
      {common && (
        <text x={WIDTH / 2} y={HEIGHT - 8} textAnchor="middle" className="links-caption">
          {layout.links.every((l) => linkCaption(l) === common) ? 'every link' : 'links unless marked'}: {common}
        </text>
      )}
      <g className="links">
        {layout.links.map((link) => {
          const a = pos.get(link.a)
          const b = pos.get(link.b)
          if (!a || !b) return null
          const caption = linkCaption(link)
          const label = linkLabelPlacement(a, b, middle, 11)
          return (
            <g key={link.id} data-link={link.id}>
              <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="link" />
              <title>{`link ${link.id}: ${caption}`}</title>
              {caption !== common && (
              <text
                transform={`translate(${label.at.x},${label.at.y}) rotate(${label.angle})`}
                className="link-label"
                textAnchor="middle"
                dominantBaseline="central"
              >
                {caption}
              </text>
              )}
            </g>
          )
        })}
      </g>
      <g className="routes">
        {layout.vcs.map((vc, i) => {
          const offset = (i - (layout.vcs.length - 1) / 2) * ROUTE_GAP
          const points = vc.path
            .slice(1)
            .map((id, k) => [pos.get(vc.path[k]), pos.get(id)] as const)
            .filter((pair): pair is readonly [Point, Point] => pair[0] !== undefined && pair[1] !== undefined)
            .map(([a, b]) => [along(a, b, 0, offset), along(a, b, 1, offset)])
          const d = points.map(([p, q]) => `M${p.x},${p.y}L${q.x},${q.y}`).join('')
          return <path key={vc.id} d={d} className="route" stroke={colors.get(vc.id)} data-vc={vc.id} />
        })}
      </g>
      <g className="nodes">
        {layout.nodes.map((node) => {
          const p = pos.get(node.id)
          if (!p) return null
          return (
            <g key={node.id} transform={`translate(${p.x},${p.y})`} className={`node ${node.kind}`} data-node={node.id}>
              {node.kind === 'switch' ? (
                <rect x={-SWITCH_HALF} y={-SWITCH_HALF} width={SWITCH_HALF * 2} height={SWITCH_HALF * 2} rx="4" />
              ) : (
                <circle r={HOST_R} />
              )}
              <text textAnchor="middle" dy="0.35em">
                {node.id}
              </text>
              <title>{`${node.kind} ${node.id}`}</title>
            </g>
          )
        })}
      </g>
    </g>
  )
})

function LiveOverlay({ layout, colors, frame: live, started: liveStarted, fit, cursor, store }: TopologyViewProps) {
  const { pos, middle } = usePlacement(layout, fit)
  const held = useSyncExternalStore(cursor ? (fn) => cursor.subscribe(fn) : noCursor, cursor ? () => cursor.get() : noTime)
  const past = held !== null && store ? frameFromSamples(store, layout, held) : null
  const frame = past ?? live
  const started =
    past && store
      ? new Set(layout.vcs.filter((vc) => (frameFromSamplesValue(store, `vc.${vc.id}.sent`, past.nowMs) ?? 0) > 0).map((vc) => vc.id))
      : liveStarted
  if (!frame) return null
  return (
    <g className="live" data-time={past ? past.nowMs : frame.nowMs} data-held={past ? 'true' : undefined}>
      {layout.vcs.map((vc) => {
        const p = pos.get(vc.source)
        const acr = frame.acrMbps.get(vc.id)
        if (!p || acr === undefined) return null
        // Outside the drawing: above a source in the upper half, below one in the lower half,
        // running inwards from the node's outer edge so it stays inside the picture.
        const dy = p.y <= middle.y ? -HOST_R - 9 : HOST_R + 20
        const left = p.x <= middle.x
        return (
          <text
            key={vc.id}
            x={left ? p.x - HOST_R : p.x + HOST_R}
            y={p.y + dy}
            textAnchor={left ? 'start' : 'end'}
            className="acr-label"
            fill={colors.get(vc.id)}
          >
            {vc.id} {started.has(vc.id) ? `${acr.toFixed(1)} Mbit/s` : 'not started'}
          </text>
        )
      })}
      {layout.ports
        .filter((port) => port.from_kind === 'switch')
        .map((port) => {
          const a = pos.get(port.from)
          const b = pos.get(port.to)
          const queue = frame.queueCells.get(port.id)
          if (!a || !b || queue === undefined || queue <= 0) return null
          // Just past the switch, left of the direction of travel (beyond the animation's queue bar), so a link's two directions never
          // overlap, and written away from the switch.
          const at = stepFrom(a, b, SWITCH_HALF + 4, 20)
          return (
            <text
              key={port.id}
              x={at.x}
              y={at.y}
              textAnchor={b.x >= a.x ? 'start' : 'end'}
              dominantBaseline="central"
              className="queue-label"
            >
              <title>{`queue at ${portLabel(port)}`}</title>
              {Math.round(queue)} cells
            </text>
          )
        })}
    </g>
  )
}

/** A column's value at the last sample at or before `t`, or null. */
function frameFromSamplesValue(store: SampleStore, name: string, t: number): number | null {
  if (!store.has(name)) return null
  const i = sampleIndexAt(store.series('t_ms'), t)
  return i < 0 ? null : store.series(name)[i]
}

export function TopologyView({ layout, colors, frame, started, fit, cursor, store }: TopologyViewProps) {
  return (
    <svg
      className="topology"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`Topology: ${layout.nodes.length} nodes, ${layout.links.length} links, ${layout.vcs.length} VCs`}
    >
      <StaticTopology layout={layout} colors={colors} fit={fit} />
      <LiveOverlay layout={layout} colors={colors} frame={frame} started={started} fit={fit} cursor={cursor} store={store} />
    </svg>
  )
}
