/**
 * The network as an SVG: hosts (circles) and switches (squares) at their scenario positions,
 * links labelled with rate and delay, each VC's route drawn in its chart colour, and live values
 * from the engine's frame — the ACR at each source and the queue at each switch port.
 *
 * The static drawing depends only on the layout and is memoised; the live overlay is the only
 * part that changes while the simulation runs.
 */
import { type KeyboardEvent, memo, useContext, useMemo, useSyncExternalStore } from 'react'
import { LiveContext } from '../app/live'
import type { TimeCursor } from '../charts/cursor'
import { sampleIndexAt } from '../charts/timeSeries'
import { frameFromSamples, type LiveFrame } from '../engine/frame'
import type { SampleStore } from '../engine/samples'
import { forwards, portLabel, type Layout, type LayoutVc } from '../engine/layout'
import { UNPICKED } from '../charts/palette'
import { BUNDLE_MIN, routeGroups, useOpenBundles, type Bundle } from './bundles'
import {
  along,
  centroid,
  commonLinkCaption,
  fitDrawing,
  linkCaption,
  linkLabelPlacement,
  stepFrom,
  type Fit,
  type Point,
} from './geometry'
import { gaugeBoxes, LabelPlacer, textBox, type Box } from './labels'

const WIDTH = 560
const HEIGHT = 300
const PADDING = 56
const HOST_R = 20
const SWITCH_HALF = 22
/** Spacing between parallel VC routes drawn along a shared link. */
const ROUTE_GAP = 6
const INK = '#1b1f24'

/** The drawing's coordinate box and node sizes, for layers drawn over it (the editor, the cell animation). */
export const TOPOLOGY_BOX = {
  width: WIDTH,
  height: HEIGHT,
  padding: PADDING,
  hostRadius: HOST_R,
  switchHalf: SWITCH_HALF,
} as const

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
  /**
   * Makes the nodes keyboard targets (Tab, or the arrow keys from one to the next; Enter or a
   * click picks one): where the drawing has no editor over it (the embed).
   */
  onPick?(id: string | null): void
  picked?: string | null
}

const noCursor = () => () => undefined
const noTime = () => null

interface Placement {
  pos: Map<string, Point>
  middle: Point
  height: number
}

function usePlacement(layout: Layout, given?: Fit): Placement {
  return useMemo(() => {
    const fit = given ?? fitDrawing(layout.nodes, WIDTH, HEIGHT, PADDING)
    const pos = new Map(layout.nodes.map((n) => [n.id, fit.place(n)]))
    return { pos, middle: centroid([...pos.values()]), height: fit.height }
  }, [layout, given])
}

/** Font sizes (drawing units) of the drawing's texts, as styles.css sets them. */
const FONT = { link: 12, caption: 13, acr: 14, queue: 12, badge: 12 } as const
/** Colour of a bundle of routes whose VCs have no colour of their own. */
const BUNDLE_COLOR = '#59636e'

interface Spot {
  at: Point
  anchor: 'start' | 'middle' | 'end'
  angle: number
}

interface LabelPlan {
  /** Link labels shown, by link id. */
  links: Map<string, Spot>
  /** ACR labels by source node: where, and which VCs (one line each, or a summary line). */
  acr: Map<string, { spots: Spot[]; summary: boolean; compact: boolean }>
  /** Queue labels by port id. */
  queues: Map<string, Spot>
  /** Bundle count badges by route key. */
  badges: Map<string, Spot>
  caption: boolean
}

/** Where every label goes, none overlapping a node, a gauge or another label (see labels.ts). */
function planLabels(
  layout: Layout,
  pos: Map<string, Point>,
  middle: Point,
  height: number,
  bundles: Bundle[],
  opened: ReadonlySet<string>,
): LabelPlan {
  const nodeBoxes: Box[] = layout.nodes.flatMap((n) => {
    const p = pos.get(n.id)
    const r = (forwards(n.kind) ? SWITCH_HALF : HOST_R) + 1
    return p ? [{ x: p.x - r, y: p.y - r, w: 2 * r, h: 2 * r }] : []
  })
  const obstacles = [...nodeBoxes, ...gaugeBoxes(layout.vcs, pos, middle.y, HOST_R)]
  const placer = new LabelPlacer(obstacles, { x: 0, y: 0, w: WIDTH, h: height })
  const common = commonLinkCaption(layout.links)
  const plan: LabelPlan = {
    links: new Map(),
    acr: new Map(),
    queues: new Map(),
    badges: new Map(),
    caption: false,
  }
  if (common) {
    const text = `${layout.links.every((l) => linkCaption(l) === common) ? 'every link' : 'links unless marked'}: ${common}`
    plan.caption =
      placer.place([
        textBox(text, FONT.caption, { x: WIDTH / 2, y: height - 8 - FONT.caption * 0.35 }),
      ]) === 0
  }
  // ACR labels first: they are what a lecturer points at.
  const bySource = new Map<string, LayoutVc[]>()
  for (const vc of layout.vcs) bySource.set(vc.source, [...(bySource.get(vc.source) ?? []), vc])
  for (const [node, vcs] of bySource) {
    const p = pos.get(node)
    if (!p) continue
    const summary = vcs.length > 3
    const lines = summary ? 1 : vcs.length
    const longest = vcs.reduce((a, v) => (v.id.length > a.length ? v.id : a), '')
    const upper = p.y <= middle.y
    const left = p.x <= middle.x
    const stack = (x: number, first: number, anchor: Spot['anchor']): Spot[] =>
      Array.from({ length: lines }, (_, k) => ({
        at: { x, y: first + k * FONT.acr * 1.2 },
        anchor,
        angle: 0,
      }))
    const options: Spot[][] = []
    for (const above of upper ? [true, false] : [false, true])
      for (const start of left ? [true, false] : [false, true])
        for (const anchor of [start ? 'start' : 'end', 'middle'] as const) {
          const x = anchor === 'middle' ? p.x : start ? p.x - HOST_R : p.x + HOST_R
          const first = above ? p.y - HOST_R - 13 - (lines - 1) * FONT.acr * 1.2 : p.y + HOST_R + 13
          options.push(stack(x, first, anchor))
        }
    // A row farther out, above or below, where the nearest row is taken.
    for (const above of upper ? [true, false] : [false, true]) {
      const first = above
        ? p.y - HOST_R - 13 - lines * FONT.acr * 1.2
        : p.y + HOST_R + 13 + FONT.acr * 1.2
      options.push(stack(p.x, first, 'middle'))
    }
    // Beside the node, outward first.
    const besideY = p.y - ((lines - 1) * FONT.acr * 1.2) / 2
    for (const outward of left ? [true, false] : [false, true])
      options.push(
        outward === left
          ? stack(p.x - HOST_R - 6, besideY, 'end')
          : stack(p.x + HOST_R + 6, besideY, 'start'),
      )
    // In a crowded drawing (ma-gfc) the full text finds no room: the rate alone, without its unit.
    const tries = [
      {
        compact: false,
        sample: summary ? `${vcs.length} VCs · ACR 000.0–000.0 Mbit/s` : `${longest} 000.0 Mbit/s`,
      },
      { compact: true, sample: summary ? `${vcs.length} VCs 000.0–000.0` : `${longest} 000.0` },
    ]
    placing: for (const { compact, sample } of tries)
      for (const spots of options) {
        const boxes = spots.map((s) => textBox(sample, FONT.acr, s.at, s.anchor))
        const merged = boxes.reduce((a, b) => ({
          x: Math.min(a.x, b.x),
          y: Math.min(a.y, b.y),
          w: Math.max(a.x + a.w, b.x + b.w) - Math.min(a.x, b.x),
          h: Math.max(a.y + a.h, b.y + b.h) - Math.min(a.y, b.y),
        }))
        if (placer.place([merged]) === 0) {
          plan.acr.set(node, { spots, summary, compact })
          break placing
        }
      }
  }
  for (const link of layout.links) {
    const a = pos.get(link.a)
    const b = pos.get(link.b)
    const caption = linkCaption(link)
    if (!a || !b || caption === common) continue
    const near = linkLabelPlacement(a, b, middle, 11)
    const far = linkLabelPlacement(
      b,
      a,
      { x: 2 * ((a.x + b.x) / 2) - middle.x, y: 2 * ((a.y + b.y) / 2) - middle.y },
      11,
    )
    const spots: Spot[] = [near, far].map((l) => ({ at: l.at, anchor: 'middle', angle: l.angle }))
    const i = placer.place(spots.map((s) => textBox(caption, FONT.link, s.at, 'middle', s.angle)))
    if (i >= 0) plan.links.set(link.id, spots[i])
  }
  for (const bundle of bundles) {
    if (bundle.vcs.length < BUNDLE_MIN || opened.has(bundle.key)) continue
    const [a, b] = [pos.get(bundle.vcs[0].path[0]), pos.get(bundle.vcs[0].path[1])]
    if (!a || !b) continue
    const text = `×${bundle.vcs.length}`
    const spots: Spot[] = [0.5, 0.35, 0.65].flatMap((f) =>
      [10, -10].map((o) => ({ at: along(a, b, f, o), anchor: 'middle' as const, angle: 0 })),
    )
    const i = placer.place(spots.map((s) => textBox(text, FONT.badge, s.at)))
    if (i >= 0) plan.badges.set(bundle.key, spots[i])
  }
  for (const port of layout.ports) {
    if (!forwards(port.from_kind)) continue
    const a = pos.get(port.from)
    const b = pos.get(port.to)
    if (!a || !b) continue
    const anchor = b.x >= a.x ? 'start' : 'end'
    // Either side of the port's link, nearest first.
    const spots: Spot[] = [20, 32, -20, -32].map((o) => ({
      at: stepFrom(a, b, SWITCH_HALF + 4, o),
      anchor,
      angle: 0,
    }))
    const i = placer.place(spots.map((s) => textBox('00000 cells', FONT.queue, s.at, anchor)))
    if (i >= 0) plan.queues.set(port.id, spots[i])
  }
  return plan
}

const StaticTopology = memo(function StaticTopology({
  layout,
  colors,
  placement,
  plan,
  bundles,
  opened,
  onPick,
  picked,
}: Pick<TopologyViewProps, 'layout' | 'colors' | 'onPick' | 'picked'> & {
  placement: Placement
  plan: LabelPlan
  bundles: Bundle[]
  opened: ReadonlySet<string>
}) {
  const { pos, height } = placement
  const common = commonLinkCaption(layout.links)
  // Every drawn route: a bundle (one thick line for VCs sharing a route) or one VC.
  const strands: {
    key: string
    path: string[]
    color: string
    width?: number
    vc?: string
    count?: number
  }[] = []
  for (const bundle of bundles) {
    if (bundle.vcs.length >= BUNDLE_MIN && !opened.has(bundle.key)) {
      const colored = bundle.vcs
        .map((v) => colors.get(v.id))
        .filter((c): c is string => c !== undefined && c !== UNPICKED)
      strands.push({
        key: bundle.key,
        path: bundle.vcs[0].path,
        color:
          colored.length === bundle.vcs.length && new Set(colored).size === 1
            ? colored[0]
            : BUNDLE_COLOR,
        width: 5,
        count: bundle.vcs.length,
      })
    } else
      for (const vc of bundle.vcs)
        strands.push({
          key: vc.id,
          path: vc.path,
          color: colors.get(vc.id) ?? BUNDLE_COLOR,
          vc: vc.id,
        })
  }
  // Grey (not picked) routes under the coloured ones.
  strands.sort((a, b) => Number(a.color !== UNPICKED) - Number(b.color !== UNPICKED))
  return (
    <g className="static">
      {common && plan.caption && (
        <text x={WIDTH / 2} y={height - 8} textAnchor="middle" className="links-caption">
          {layout.links.every((l) => linkCaption(l) === common)
            ? 'every link'
            : 'links unless marked'}
          : {common}
        </text>
      )}
      <g className="links">
        {layout.links.map((link) => {
          const a = pos.get(link.a)
          const b = pos.get(link.b)
          if (!a || !b) return null
          const caption = linkCaption(link)
          const label = plan.links.get(link.id)
          return (
            <g key={link.id} data-link={link.id}>
              <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="link" />
              <title>{`link ${link.id}: ${caption}`}</title>
              {label && (
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
        {strands.map((strand, i) => {
          const offset = strand.count
            ? 0
            : (i - (strands.length - 1) / 2) * Math.min(ROUTE_GAP, 30 / Math.max(1, strands.length))
          const d = strand.path
            .slice(1)
            .map((id, k) => [pos.get(strand.path[k]), pos.get(id)] as const)
            .filter(
              (pair): pair is readonly [Point, Point] =>
                pair[0] !== undefined && pair[1] !== undefined,
            )
            .map(([a, b]) => [along(a, b, 0, offset), along(a, b, 1, offset)])
            .map(([p, q]) => `M${p.x},${p.y}L${q.x},${q.y}`)
            .join('')
          return (
            <path
              key={strand.key}
              d={d}
              className={strand.count ? 'route bundle' : 'route'}
              stroke={strand.color}
              strokeWidth={strand.width}
              data-vc={strand.vc}
              data-bundle={strand.count ? strand.key : undefined}
            />
          )
        })}
      </g>
      <g className="badges">
        {[...plan.badges.entries()].map(([key, spot]) => {
          const count = bundles.find((b) => b.key === key)?.vcs.length ?? 0
          return (
            <text
              key={key}
              x={spot.at.x}
              y={spot.at.y}
              textAnchor="middle"
              dominantBaseline="central"
              className="bundle-badge"
            >
              ×{count}
            </text>
          )
        })}
      </g>
      <g className="nodes">
        {layout.nodes.map((node) => {
          const p = pos.get(node.id)
          if (!p) return null
          const kind = forwards(node.kind) ? (layout.model === 'ip' ? 'router' : 'switch') : 'host'
          return (
            <g
              key={node.id}
              transform={`translate(${p.x},${p.y})`}
              className={`node ${forwards(node.kind) ? 'switch' : 'host'}${picked === node.id ? ' picked' : ''}`}
              data-node={node.id}
              {...(onPick && {
                tabIndex: 0,
                role: 'button',
                'aria-label': `${kind} ${node.id}: Enter for its details`,
                'aria-pressed': picked === node.id,
                onClick: () => onPick(picked === node.id ? null : node.id),
                onKeyDown: (e: KeyboardEvent<SVGGElement>) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault()
                    e.stopPropagation()
                    onPick(picked === node.id ? null : node.id)
                    return
                  }
                  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key]
                  if (step === undefined) return
                  // The arrow keys move the focus from node to node, in the scenario's order.
                  e.preventDefault()
                  const all = [
                    ...(e.currentTarget.parentElement?.querySelectorAll<SVGGElement>(
                      'g.node[tabindex]',
                    ) ?? []),
                  ]
                  const i = all.indexOf(e.currentTarget)
                  all[(i + step + all.length) % all.length]?.focus()
                },
              })}
            >
              {forwards(node.kind) ? (
                <rect
                  x={-SWITCH_HALF}
                  y={-SWITCH_HALF}
                  width={SWITCH_HALF * 2}
                  height={SWITCH_HALF * 2}
                  rx="4"
                />
              ) : (
                <circle r={HOST_R} />
              )}
              <text textAnchor="middle" dy="0.35em">
                {node.id}
              </text>
              <title>{`${kind} ${node.id}`}</title>
            </g>
          )
        })}
      </g>
    </g>
  )
})

/** Each source's VCs in layout order, made once per layout (not on every frame). */
const sourcesOf = new WeakMap<Layout, Map<string, LayoutVc[]>>()
function vcsBySource(layout: Layout): Map<string, LayoutVc[]> {
  let bySource = sourcesOf.get(layout)
  if (!bySource) {
    bySource = new Map()
    for (const vc of layout.vcs) {
      const list = bySource.get(vc.source)
      if (list) list.push(vc)
      else bySource.set(vc.source, [vc])
    }
    sourcesOf.set(layout, bySource)
  }
  return bySource
}

function LiveOverlay({
  layout,
  colors,
  frame: live,
  started: liveStarted,
  plan,
  cursor,
  store,
}: TopologyViewProps & { plan: LabelPlan }) {
  // Scrubbing the timeline (or hovering a chart) holds the drawing at that time, read from the
  // samples, so its labels agree with the charts.
  const held = useSyncExternalStore(
    cursor ? (fn) => cursor.subscribe(fn) : noCursor,
    cursor ? () => cursor.get() : noTime,
  )
  const past = held !== null && store ? frameFromSamples(store, layout, held) : null
  const frame = past ?? live
  const started =
    past && store
      ? new Set(
          layout.vcs
            .filter((vc) => (frameFromSamplesValue(store, `vc.${vc.id}.sent`, past.nowMs) ?? 0) > 0)
            .map((vc) => vc.id),
        )
      : liveStarted
  if (!frame) return null
  const bySource = vcsBySource(layout)
  return (
    <g
      className="live"
      data-time={past ? past.nowMs : frame.nowMs}
      data-held={past ? 'true' : undefined}
    >
      {[...plan.acr.entries()].map(([node, { spots, summary, compact }]) => {
        const vcs = bySource.get(node) ?? []
        if (summary) {
          let low = Number.POSITIVE_INFINITY
          let high = Number.NEGATIVE_INFINITY
          for (const v of vcs) {
            const a = frame.acrMbps.get(v.id)
            if (a === undefined || !Number.isFinite(a)) continue
            low = Math.min(low, a)
            high = Math.max(high, a)
          }
          const s = spots[0]
          return (
            <text
              key={node}
              x={s.at.x}
              y={s.at.y}
              textAnchor={s.anchor}
              dominantBaseline="central"
              className="acr-label"
            >
              {vcs.length} VCs{compact ? ' ' : ' · ACR '}
              {low <= high
                ? `${low.toFixed(1)}–${high.toFixed(1)}${compact ? '' : ' Mbit/s'}`
                : '—'}
            </text>
          )
        }
        return vcs.map((vc, k) => {
          const s = spots[k]
          const acr = frame.acrMbps.get(vc.id)
          if (!s || acr === undefined) return null
          return (
            <text
              key={vc.id}
              x={s.at.x}
              y={s.at.y}
              textAnchor={s.anchor}
              dominantBaseline="central"
              className="acr-label"
              fill={colors.get(vc.id) === UNPICKED ? INK : colors.get(vc.id)}
            >
              {compact && (
                <title>{`${vc.id} ACR ${started.has(vc.id) ? `${acr.toFixed(1)} Mbit/s` : 'not started'}`}</title>
              )}
              {vc.id}{' '}
              {started.has(vc.id)
                ? `${acr.toFixed(1)}${compact ? '' : ' Mbit/s'}`
                : compact
                  ? '—'
                  : 'not started'}
            </text>
          )
        })
      })}
      {layout.ports.map((port) => {
        const s = plan.queues.get(port.id)
        const queue = frame.queueCells.get(port.id)
        if (!s || queue === undefined || queue <= 0) return null
        return (
          <text
            key={port.id}
            x={s.at.x}
            y={s.at.y}
            textAnchor={s.anchor}
            dominantBaseline="central"
            className="queue-label"
          >
            <title>{`queue at ${portLabel(port)}`}</title>
            {Math.round(queue)} {layout.model === 'ip' ? 'packets' : 'cells'}
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

export function TopologyView({
  layout,
  colors,
  frame,
  started,
  fit,
  cursor,
  store,
  onPick,
  picked,
}: TopologyViewProps) {
  // The page's live values when it provides them (app/live.ts), so that what lies between the
  // page and this drawing need not re-render on every frame.
  const live = useContext(LiveContext)
  const placement = usePlacement(layout, fit)
  const { height } = placement
  const opened = useOpenBundles()
  const bundles = useMemo(() => routeGroups(layout.vcs), [layout.vcs])
  const plan = useMemo(
    () => planLabels(layout, placement.pos, placement.middle, height, bundles, opened),
    [layout, placement, height, bundles, opened],
  )
  return (
    <svg
      className="topology"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role={onPick ? 'group' : 'img'}
      aria-label={`Topology: ${layout.nodes.length} nodes, ${layout.links.length} links, ${layout.vcs.length} VCs`}
    >
      <StaticTopology
        layout={layout}
        colors={colors}
        placement={placement}
        plan={plan}
        bundles={bundles}
        opened={opened}
        onPick={onPick}
        picked={picked}
      />
      <LiveOverlay
        layout={layout}
        colors={colors}
        frame={live ? live.frame : frame}
        started={live ? live.started : started}
        plan={plan}
        cursor={cursor}
        store={store}
      />
    </svg>
  )
}
