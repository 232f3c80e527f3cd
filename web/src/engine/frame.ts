/** The engine's live-state frame: `[now_ms, acr_mbps of each VC..., queue cells of each port...]`. */
import type { Layout } from './layout'

export interface LiveFrame {
  nowMs: number
  /** ACR in Mbit/s by VC id. */
  acrMbps: FrameValues
  /** Queue length in cells by port id. */
  queueCells: FrameValues
}

/** A frame's values by id (undefined for an id it does not have). */
export interface FrameValues {
  get(id: string): number | undefined
}

/** Values read from the engine's frame array where an index puts them. */
class FrameView implements FrameValues {
  constructor(
    private readonly values: Float64Array,
    private readonly index: ReadonlyMap<string, number>,
  ) {}

  get(id: string): number | undefined {
    const i = this.index.get(id)
    return i === undefined ? undefined : this.values[i]
  }
}

/**
 * Where each VC's ACR and each port's queue sit in a frame, by layout. Frames arrive about 30
 * times a second; two new Maps of every VC and port for each were garbage that lived until the
 * next (the page's memory with 200 sources).
 */
const indexes = new WeakMap<
  object,
  WeakMap<object, { acr: ReadonlyMap<string, number>; queue: ReadonlyMap<string, number> }>
>()

function frameIndex(layout: Pick<Layout, 'vcs' | 'ports'>) {
  let byPorts = indexes.get(layout.vcs)
  if (byPorts === undefined) {
    byPorts = new WeakMap()
    indexes.set(layout.vcs, byPorts)
  }
  let index = byPorts.get(layout.ports)
  if (index === undefined) {
    const offset = 1 + layout.vcs.length
    index = {
      acr: new Map(layout.vcs.map((vc, i) => [vc.id, 1 + i])),
      queue: new Map(layout.ports.map((port, i) => [port.id, offset + i])),
    }
    byPorts.set(layout.ports, index)
  }
  return index
}

/** Splits a frame by the layout's VC and port order; throws when the lengths disagree. */
export function parseFrame(frame: Float64Array, layout: Pick<Layout, 'vcs' | 'ports'>): LiveFrame {
  const expected = 1 + layout.vcs.length + layout.ports.length
  if (frame.length !== expected) {
    throw new Error(
      `engine frame has ${frame.length} values, expected ${expected} (1 + ${layout.vcs.length} VCs + ${layout.ports.length} ports)`,
    )
  }
  const index = frameIndex(layout)
  return {
    nowMs: frame[0],
    acrMbps: new FrameView(frame, index.acr),
    queueCells: new FrameView(frame, index.queue),
  }
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
