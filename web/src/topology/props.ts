/**
 * What the network drawing is given: shared by the drawing (TopologyView) and its two layers,
 * the memoised static drawing and the live overlay.
 */
import type { TimeCursor } from '../charts/cursor'
import type { LiveFrame } from '../engine/frame'
import type { Layout } from '../engine/layout'
import type { SampleStore } from '../engine/samples'
import type { Fit } from './geometry'

export interface TopologyViewProps {
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
