/** What several panels derive from the run: the VCs' colours and which VCs have started. */
import { useMemo } from 'react'
import { colorMap } from '../charts/palette'
import { column } from '../engine/layout'
import { useLab, useRun, useRunFrame } from '../lab/hooks'
import type { LiveState } from './live'

/** Each VC's colour, the ones picked in the charts standing out. */
export function useColors(): ReadonlyMap<string, string> {
  const layout = useRun((r) => r.layout)
  const picked = useLab((l) => l.picked)
  return useMemo(() => colorMap(layout?.vcs.map((v) => v.id) ?? [], picked), [layout, picked])
}

/** The VCs that have sent a cell so far. */
export function useStarted(): ReadonlySet<string> {
  const layout = useRun((r) => r.layout)
  const store = useRun((r) => r.store)
  const revision = useRunFrame((r) => r.revision)
  // biome-ignore lint/correctness/useExhaustiveDependencies: revision says the store gained rows
  return useMemo(
    () =>
      new Set(
        layout && store
          ? layout.vcs.filter((vc) => (store.last(column.sent(vc.id)) ?? 0) > 0).map((vc) => vc.id)
          : [],
      ),
    [layout, store, revision],
  )
}

/** What changes on every display frame, for LiveContext. */
export function useLiveState(): LiveState {
  const frame = useRunFrame((r) => r.frame)
  const status = useRun((r) => r.status)
  const speed = useRun((r) => r.speed)
  const revision = useRunFrame((r) => r.revision)
  const started = useStarted()
  return useMemo(
    () => ({ frame, started, status, speed, revision }),
    [frame, started, status, speed, revision],
  )
}
