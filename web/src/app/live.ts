/**
 * What changes on every display frame while a run plays — the engine's latest frame, which VCs
 * have started, the run's status and pace — handed to the parts that draw it (the topology's
 * live labels, the cell animation) through context rather than through every component between.
 * With hundreds of VCs, the editor's drawing and the parameter panel in between re-rendered on
 * every frame only to pass these on; now they are memoised and skip those renders.
 */
import { createContext } from 'react'
import type { LiveFrame } from '../engine/frame'
import type { RunStatus, Speed } from '../engine/protocol'

export interface LiveState {
  frame: LiveFrame | null
  started: ReadonlySet<string>
  status: RunStatus
  speed: Speed
  /** Bumped when the samples gained rows. */
  revision: number
}

export const LiveContext = createContext<LiveState | null>(null)
