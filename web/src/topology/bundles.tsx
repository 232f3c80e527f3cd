/**
 * VCs that share a route are drawn as one bundle with a count; a bundle is expanded on demand.
 * Which bundles are open is page state shared by the drawing and its toggles (a tiny external
 * store, read with useSyncExternalStore).
 */
import { memo, useMemo, useSyncExternalStore } from 'react'
import type { LayoutVc } from '../engine/layout'

/** Routes shared by at least this many VCs are bundled. */
export const BUNDLE_MIN = 3

export interface Bundle {
  /** The route, node ids joined by "→" (also the bundle's key). */
  key: string
  vcs: LayoutVc[]
}

/** The VCs grouped by route, in the order their first VC appears. */
export function routeGroups(vcs: readonly LayoutVc[]): Bundle[] {
  const groups = new Map<string, LayoutVc[]>()
  for (const vc of vcs) {
    const key = vc.path.join('→')
    const list = groups.get(key)
    if (list) list.push(vc)
    else groups.set(key, [vc])
  }
  return [...groups.entries()].map(([key, list]) => ({ key, vcs: list }))
}

let open: ReadonlySet<string> = new Set()
const listeners = new Set<() => void>()

export function toggleBundle(key: string): void {
  const next = new Set(open)
  if (next.has(key)) next.delete(key)
  else next.add(key)
  open = next
  for (const l of listeners) l()
}

export function useOpenBundles(): ReadonlySet<string> {
  return useSyncExternalStore(
    (fn) => {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    () => open,
  )
}

/**
 * Buttons that open and close the drawing's bundles (shown only when it has some). Memoised: the
 * page re-renders with every frame of samples, and grouping 500 VCs each time cost frames.
 */
export const BundleToggles = memo(function BundleToggles({ vcs }: { vcs: readonly LayoutVc[] }) {
  const opened = useOpenBundles()
  const bundles = useMemo(() => routeGroups(vcs).filter((b) => b.vcs.length >= BUNDLE_MIN), [vcs])
  if (bundles.length === 0) return null
  return (
    <p className="bundle-toggles" data-testid="bundle-toggles">
      {bundles.map((b) => (
        <button
          key={b.key}
          type="button"
          aria-pressed={opened.has(b.key)}
          onClick={() => toggleBundle(b.key)}
        >
          {opened.has(b.key) ? 'Bundle' : 'Expand'} {b.vcs.length} VCs {b.key}
        </button>
      ))}
    </p>
  )
})
