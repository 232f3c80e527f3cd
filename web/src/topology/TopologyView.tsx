/**
 * The network as an SVG: hosts (circles) and switches (squares) at their scenario positions,
 * links labelled with rate and delay, each VC's route drawn in its chart colour, and live values
 * from the engine's frame — the ACR at each source and the queue at each switch port.
 *
 * The static drawing depends only on the layout and is memoised; the live overlay is the only
 * part that changes while the simulation runs. The two are separate SVG layers with one viewBox,
 * and the animation's canvas, which the parent places after them, is painted between the two (the
 * values' layer is raised in topology.css): cells and flows pass over the links, under the values.
 */
import { type RefObject, useContext, useEffect, useMemo, useRef, useState } from 'react'
import './topology.css'
import { LiveContext } from '../app/live'
import { PRESENT_LABEL_PX, usePresentation } from '../app/presentation'
import type { Layout } from '../engine/layout'
import { routeGroups, useOpenBundles } from './bundles'
import { fontsAtLeast, HEIGHT, PADDING, type Placement, WIDTH } from './drawing'
import { centroid, fitDrawing, type Fit } from './geometry'
import { planLabels } from './labelPlan'
import { LiveOverlay } from './LiveOverlay'
import type { TopologyViewProps } from './props'
import { StaticTopology } from './StaticTopology'

export { TOPOLOGY_BOX } from './drawing'
export type { TopologyViewProps } from './props'

function usePlacement(layout: Layout, given?: Fit): Placement {
  return useMemo(() => {
    const fit = given ?? fitDrawing(layout.nodes, WIDTH, HEIGHT, PADDING)
    const pos = new Map(layout.nodes.map((n) => [n.id, fit.place(n)]))
    return { pos, middle: centroid([...pos.values()]), height: fit.height }
  }, [layout, given])
}

/** Screen px per drawing unit as the drawing is shown (0 until measured), followed as it resizes. */
function useShownScale(ref: RefObject<SVGSVGElement | null>, height: number): number {
  const [scale, setScale] = useState(0)
  useEffect(() => {
    const svg = ref.current
    if (!svg) return
    // The viewBox is fitted into the box (meet): the tighter of the two directions sets the scale.
    const measure = () =>
      setScale(Math.min(svg.clientWidth / WIDTH, svg.clientHeight / Math.max(1, height)))
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(svg)
    return () => observer.disconnect()
  }, [ref, height])
  return scale
}

/** The least on-screen size (px) of a node's name, as of every label of a small embed. */
const NAME_PX = 11
/** The least on-screen size (px) of the drawing's labels outside presentation mode. */
const LABEL_PX = 10

/** The drawing of the network with its live values. */
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
  // No label is drawn under LABEL_PX on the screen (a phone shows the drawing at about 0.6), nor in
  // presentation mode under PRESENT_LABEL_PX: the fonts are sized (in half drawing units) from the
  // scale the drawing is shown at, and placed at that size.
  const svgRef = useRef<SVGSVGElement>(null)
  const scale = useShownScale(svgRef, height)
  const present = usePresentation().on
  const least = scale > 0 ? Math.ceil((2 * (present ? PRESENT_LABEL_PX : LABEL_PX)) / scale) / 2 : 0
  // Node names at NAME_PX or more on the screen wherever their node holds that (a phone, a course
  // page's frame, where the drawing is shown small); StaticTopology marks a name its node cannot
  // hold at the size asked, and a small embed leaves such names out (embed.css).
  const nameLeast = scale > 0 ? Math.ceil((2 * NAME_PX) / scale) / 2 : 0
  const font = useMemo(() => {
    const fonts = fontsAtLeast(least)
    return { ...fonts, node: Math.max(fonts.node, nameLeast) }
  }, [least, nameLeast])
  const plan = useMemo(
    () => planLabels(layout, placement.pos, placement.middle, height, bundles, opened, font),
    [layout, placement, height, bundles, opened, font],
  )
  const viewBox = `0 0 ${WIDTH} ${height}`
  return (
    <>
      <svg
        ref={svgRef}
        className="topology"
        viewBox={viewBox}
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
      </svg>
      {/* The live values in a layer of their own, over the animation's canvas, so that no cell or
          flow drawn there crosses a number (topology.css lays it exactly over the drawing). */}
      <svg className="topology-values" viewBox={viewBox} role="group" aria-label="Live values">
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
    </>
  )
}
