/**
 * The drawing's live values: the ACR at each source (or a range for many VCs) and the queue at
 * each switch port, from the engine's frame or, while a time is held, from the samples.
 */
import { type ReactNode, useSyncExternalStore } from 'react'
import { UNPICKED } from '../charts/palette'
import { sampleIndexAt } from '../charts/timeSeries'
import { frameFromSamples } from '../engine/frame'
import { portLabel, type Layout, type LayoutVc } from '../engine/layout'
import type { SampleStore } from '../engine/samples'
import { INK } from './drawing'
import type { Spot } from './labelPlan'
import type { LabelPlan } from './labelPlan'
import type { TopologyViewProps } from './props'

const noCursor = () => () => undefined
const noTime = () => null

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
/** The live labels at the places the plan gave them. */
export function LiveOverlay({
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
            <SpotText key={node} spot={s} className="acr-label" size={plan.font.acr}>
              {vcs.length} VCs{compact ? ' ' : ' · ACR '}
              {low <= high
                ? `${low.toFixed(1)}–${high.toFixed(1)}${compact ? '' : ' Mbit/s'}`
                : '—'}
            </SpotText>
          )
        }
        return vcs.map((vc, k) => {
          const s = spots[k]
          const acr = frame.acrMbps.get(vc.id)
          if (!s || acr === undefined) return null
          return (
            <SpotText
              key={vc.id}
              spot={s}
              className="acr-label"
              size={plan.font.acr}
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
            </SpotText>
          )
        })
      })}
      {layout.ports.map((port) => {
        const s = plan.queues.get(port.id)
        const queue = frame.queueCells.get(port.id)
        if (!s || queue === undefined || queue <= 0) return null
        return (
          <SpotText key={port.id} spot={s} className="queue-label" size={plan.font.queue}>
            <title>{`queue at ${portLabel(port)}`}</title>
            {Math.round(queue)} {layout.model === 'ip' ? 'packets' : 'cells'}
          </SpotText>
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

/** A live label at its spot. */
function SpotText({
  spot,
  className,
  size,
  fill,
  children,
}: {
  spot: Spot
  className: string
  /** Font size, drawing units. */
  size: number
  fill?: string
  children: ReactNode
}) {
  return (
    <text
      x={spot.at.x}
      y={spot.at.y}
      textAnchor={spot.anchor}
      dominantBaseline="central"
      className={className}
      style={{ fontSize: size }}
      fill={fill}
    >
      {children}
    </text>
  )
}
