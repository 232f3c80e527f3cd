/** Which VCs and ports the charts show. */
import type { Layout, LayoutPort, LayoutVc } from '../engine/layout'

/** A chart stays readable with this many VCs; more are picked by hand. */
export const DEFAULT_VC_COUNT = 8

export interface SeriesSelection {
  /** VC ids to draw. */
  vcs: ReadonlySet<string>
  /** Port ids to draw, or `auto` to follow the ports that queue most. */
  ports: ReadonlySet<string> | 'auto'
}

/** The first DEFAULT_VC_COUNT VCs (every VC of a small scenario), ports following the bottleneck. */
export function defaultSelection(layout: Pick<Layout, 'vcs'>): SeriesSelection {
  return { vcs: new Set(layout.vcs.slice(0, DEFAULT_VC_COUNT).map((v) => v.id)), ports: 'auto' }
}

/** The selected VCs, in layout order. */
export function selectedVcs(layout: Pick<Layout, 'vcs'>, selection: SeriesSelection): LayoutVc[] {
  return layout.vcs.filter((v) => selection.vcs.has(v.id))
}

/** The selected ports in layout order, or `auto`. */
export function selectedPorts(
  layout: Pick<Layout, 'ports'>,
  selection: SeriesSelection,
): LayoutPort[] | 'auto' {
  if (selection.ports === 'auto') return 'auto'
  const chosen = selection.ports
  return layout.ports.filter((p) => chosen.has(p.id))
}

/** One-line description for the picker's button: "2 of 2 VCs · ports: bottleneck". */
export function describeSelection(
  layout: Pick<Layout, 'vcs' | 'ports'>,
  selection: SeriesSelection,
): string {
  const vcs = `${selection.vcs.size} of ${layout.vcs.length} VC${layout.vcs.length === 1 ? '' : 's'}`
  const ports =
    selection.ports === 'auto'
      ? 'ports: bottleneck'
      : `${selection.ports.size} of ${layout.ports.length} ports`
  // The packet model has flows, not VCs: no "0 of 0 VCs".
  return layout.vcs.length === 0 ? ports.replace(/^ports: /, 'ports at the ') : `${vcs} · ${ports}`
}
