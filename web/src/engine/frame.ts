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

/**
 * The frame at simulated time `t`, read from the samples (the last sample at or before `t`), so a
 * drawing held at a past time shows the same values as the charts there. Null before any sample.
 */
export function frameFromSamples(
  store: { series(name: string): ArrayLike<number>; has(name: string): boolean; rowCount: number },
  layout: Pick<Layout, 'vcs' | 'ports'>,
  t: number,
): LiveFrame | null {
  const times = store.series('t_ms')
  if (store.rowCount === 0) return null
  let lo = 0
  let hi = times.length - 1
  if (times[0] > t) return null
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (times[mid] <= t) lo = mid
    else hi = mid - 1
  }
  const at = (name: string) => (store.has(name) ? store.series(name)[lo] : Number.NaN)
  const acrMbps = new Map(layout.vcs.map((vc) => [vc.id, at(`vc.${vc.id}.acr`)]))
  const queueCells = new Map(layout.ports.map((port) => [port.id, at(`port.${port.id}.queue`)]))
  return { nowMs: times[lo], acrMbps, queueCells }
}
