/**
 * The drawing's part that depends only on the layout: the common link caption, links with their
 * labels, each VC's route (or a bundle of routes), bundle badges and the nodes, which can be
 * keyboard targets.
 */
import { type KeyboardEvent, memo } from 'react'
import { UNPICKED } from '../charts/palette'
import { forwards } from '../engine/layout'
import { BUNDLE_MIN, type Bundle } from './bundles'
import {
  BUNDLE_COLOR,
  HOST_R,
  nodeNameFont,
  type Placement,
  ROUTE_GAP,
  SWITCH_HALF,
  WIDTH,
} from './drawing'
import { along, commonLinkCaption, linkCaption, type Point } from './geometry'
import type { LabelPlan } from './labelPlan'
import type { TopologyViewProps } from './props'

/** Memoised: it changes with the layout, the colours, the bundles opened and the pick only. */
export const StaticTopology = memo(function StaticTopology({
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
        <text
          x={WIDTH / 2}
          y={height - 8}
          textAnchor="middle"
          className="links-caption"
          style={{ fontSize: plan.font.caption }}
        >
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
                  style={{ fontSize: plan.font.link }}
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
              style={{ fontSize: plan.font.badge }}
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
              <NodeName id={node.id} isSwitch={forwards(node.kind)} size={plan.font.node} />
              <title>{`${kind} ${node.id}`}</title>
            </g>
          )
        })}
      </g>
    </g>
  )
})

/**
 * A node's name, grown toward `size` as far as its node holds it; a name held only smaller than
 * `size` is marked `cramped` (a small embed leaves it out rather than draw it unreadably small).
 */
function NodeName({ id, isSwitch, size }: { id: string; isSwitch: boolean; size: number }) {
  const fits = nodeNameFont(id, isSwitch, size)
  return (
    <text
      className={fits < size ? 'node-name cramped' : 'node-name'}
      textAnchor="middle"
      dy="0.35em"
      style={{ fontSize: fits }}
    >
      {id}
    </text>
  )
}
