/**
 * What every chart model is built from, and the run kept beside the current one for comparison.
 */
import type { Layout, LayoutPort, LayoutVc } from '../engine/layout'
import type { SampleStore } from '../engine/samples'
import type { TimeWindow } from './cursor'

/** A run kept for comparison: its samples, its layout and what to call it. */
export interface PinnedRun {
  label: string
  layout: Layout
  store: SampleStore
}

/** What every chart model is built from. */
export interface ChartContext {
  layout: Layout
  store: SampleStore
  colors: ReadonlyMap<string, string>
  /** VCs to draw. */
  vcs: readonly LayoutVc[]
  /** Ports to draw; `auto` follows the bottleneck (the ports that queue most). */
  ports: readonly LayoutPort[] | 'auto'
  /** The zoomed time window, or null for the whole run. */
  window: TimeWindow
  /** What the current run is called in legends when a pinned run is overlaid. */
  runLabel: string
  pinned: PinnedRun | null
}
