/** The engine's live-state frame: `[now_ms, acr_mbps of each VC..., queue cells of each port...]`. */
import type { Layout } from './layout'

export interface LiveFrame {
  nowMs: number
  /** ACR in Mbit/s by VC id. */
  acrMbps: ReadonlyMap<string, number>
  /** Queue length in cells by port id. */
  queueCells: ReadonlyMap<string, number>
}

/** Splits a frame by the layout's VC and port order; throws when the lengths disagree. */
export function parseFrame(frame: Float64Array, layout: Pick<Layout, 'vcs' | 'ports'>): LiveFrame {
  const expected = 1 + layout.vcs.length + layout.ports.length
  if (frame.length !== expected) {
    throw new Error(
      `engine frame has ${frame.length} values, expected ${expected} (1 + ${layout.vcs.length} VCs + ${layout.ports.length} ports)`,
    )
  }
  const acrMbps = new Map<string, number>()
  layout.vcs.forEach((vc, i) => {
    acrMbps.set(vc.id, frame[1 + i])
  })
  const queueCells = new Map<string, number>()
  const offset = 1 + layout.vcs.length
  layout.ports.forEach((port, i) => {
    queueCells.set(port.id, frame[offset + i])
  })
  return { nowMs: frame[0], acrMbps, queueCells }
}
