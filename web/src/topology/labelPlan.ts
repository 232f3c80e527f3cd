/**
 * Where the drawing's labels go: ACR labels by source first (what a lecturer points at), then link
 * captions, bundle badges and queue labels, each at the first free spot of its candidates so that
 * none overlaps a node, a gauge or another label.
 */
import { forwards, type Layout, type LayoutVc } from '../engine/layout'
import { BUNDLE_MIN, type Bundle } from './bundles'
import { FONT, type Fonts, HOST_R, SWITCH_HALF, WIDTH } from './drawing'
import {
  along,
  commonLinkCaption,
  linkCaption,
  linkLabelPlacement,
  stepFrom,
  type Point,
} from './geometry'
import { gaugeBoxes, LabelPlacer, textBox, type Box } from './labels'

/** A label's place: its anchor point, text anchor and rotation. */
export interface Spot {
  at: Point
  anchor: 'start' | 'middle' | 'end'
  angle: number
}

/** The labels shown and where. */
export interface LabelPlan {
  /** Link labels shown, by link id. */
  links: Map<string, Spot>
  /** ACR labels by source node: where, and which VCs (one line each, or a summary line). */
  acr: Map<string, { spots: Spot[]; summary: boolean; compact: boolean }>
  /** Queue labels by port id. */
  queues: Map<string, Spot>
  /** Bundle count badges by route key. */
  badges: Map<string, Spot>
  caption: boolean
  /** The font sizes the labels were placed at, and are drawn at. */
  font: Fonts
}

/**
 * Where every label goes, none overlapping a node, a gauge or another label (see labels.ts).
 *
 * Fonts raised above the drawing's own (presentation mode, a phone) may leave a source no room for
 * its ACR label, as for a host level with the switch it feeds: the ACR labels then step down
 * together, to the drawing's own size at the least, until every source has one, so that a lecturer
 * does not lose a VC's rate and the rates on the screen stay one size.
 */
export function planLabels(
  layout: Layout,
  pos: Map<string, Point>,
  middle: Point,
  height: number,
  bundles: Bundle[],
  opened: ReadonlySet<string>,
  font: Fonts = FONT,
): LabelPlan {
  const drawn: Drawn = { layout, pos, middle, height, bundles, opened }
  const first = planAt(drawn, font)
  const sources = new Set(layout.vcs.map((vc) => vc.source).filter((id) => pos.has(id))).size
  if (first.acr.size === sources) return first
  for (const acr of stepsDown(font.acr, FONT.acr).slice(1)) {
    const plan = planAt(drawn, { ...font, acr })
    if (plan.acr.size === sources) return plan
  }
  return first
}

/**
 * The sizes a label tries, from `from` down to `to`: two units apart, or in at most eight even
 * steps when that would be more (a drawing shown tiny asks for a huge font), so that planning
 * stays a handful of passes whatever the scale.
 */
export function stepsDown(from: number, to: number): number[] {
  if (!(from > to)) return [from]
  const step = Math.max(2, (from - to) / 8)
  const sizes: number[] = []
  for (let size = from; size > to; size -= step) sizes.push(size)
  return [...sizes, to]
}

/** What the labels are planned over: the network, where its nodes are drawn, its bundles. */
interface Drawn {
  layout: Layout
  pos: Map<string, Point>
  middle: Point
  height: number
  bundles: Bundle[]
  opened: ReadonlySet<string>
}

/** One pass of the plan at the given fonts. */
function planAt({ layout, pos, middle, height, bundles, opened }: Drawn, font: Fonts): LabelPlan {
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
    font,
  }
  if (common) {
    const text = `${layout.links.every((l) => linkCaption(l) === common) ? 'every link' : 'links unless marked'}: ${common}`
    // At a raised size (presentation mode) the caption may be wider than the drawing: it steps
    // down, never under the drawing's own size, rather than vanish.
    for (const size of stepsDown(font.caption, FONT.caption)) {
      const box = textBox(text, size, { x: WIDTH / 2, y: height - 8 - size * 0.35 })
      if (placer.place([box]) === 0) {
        plan.caption = true
        plan.font = { ...font, caption: size }
        break
      }
    }
  }
  // Gaps between a label and what it labels grow with its font.
  const gap = (13 * font.acr) / FONT.acr
  const linkOffset = (11 * font.link) / FONT.link
  const queueOffsets = [20, 32, -20, -32].map((o) => (o * font.queue) / FONT.queue)
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
        at: { x, y: first + k * font.acr * 1.2 },
        anchor,
        angle: 0,
      }))
    const options: Spot[][] = []
    for (const above of upper ? [true, false] : [false, true])
      for (const start of left ? [true, false] : [false, true])
        for (const anchor of [start ? 'start' : 'end', 'middle'] as const) {
          const x = anchor === 'middle' ? p.x : start ? p.x - HOST_R : p.x + HOST_R
          const first = above
            ? p.y - HOST_R - gap - (lines - 1) * font.acr * 1.2
            : p.y + HOST_R + gap
          options.push(stack(x, first, anchor))
        }
    // A row farther out, above or below, where the nearest row is taken.
    for (const above of upper ? [true, false] : [false, true]) {
      const first = above
        ? p.y - HOST_R - gap - lines * font.acr * 1.2
        : p.y + HOST_R + gap + font.acr * 1.2
      options.push(stack(p.x, first, 'middle'))
    }
    // Beside the node, outward first.
    const besideY = p.y - ((lines - 1) * font.acr * 1.2) / 2
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
        const boxes = spots.map((s) => textBox(sample, font.acr, s.at, s.anchor))
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
    const near = linkLabelPlacement(a, b, middle, linkOffset)
    const far = linkLabelPlacement(
      b,
      a,
      { x: 2 * ((a.x + b.x) / 2) - middle.x, y: 2 * ((a.y + b.y) / 2) - middle.y },
      linkOffset,
    )
    const spots: Spot[] = [near, far].map((l) => ({ at: l.at, anchor: 'middle', angle: l.angle }))
    const i = placer.place(spots.map((s) => textBox(caption, font.link, s.at, 'middle', s.angle)))
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
    const i = placer.place(spots.map((s) => textBox(text, font.badge, s.at)))
    if (i >= 0) plan.badges.set(bundle.key, spots[i])
  }
  for (const port of layout.ports) {
    if (!forwards(port.from_kind)) continue
    const a = pos.get(port.from)
    const b = pos.get(port.to)
    if (!a || !b) continue
    const anchor = b.x >= a.x ? 'start' : 'end'
    // Either side of the port's link, nearest first.
    const spots: Spot[] = queueOffsets.map((o) => ({
      at: stepFrom(a, b, SWITCH_HALF + 4, o),
      anchor,
      angle: 0,
    }))
    const i = placer.place(spots.map((s) => textBox('00000 cells', font.queue, s.at, anchor)))
    if (i >= 0) plan.queues.set(port.id, spots[i])
  }
  return plan
}
