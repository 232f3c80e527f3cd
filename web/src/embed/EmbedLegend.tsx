/**
 * The key a small embed shows under its drawing, where the drawing's own labels would be too
 * small to read and are left out (embed.css): each VC's colour, name and route, and the links.
 */
import type { Layout } from '../engine/layout'

/** VCs named in full; the rest are counted. */
const SHOWN = 3

export function EmbedLegend({
  layout,
  colors,
}: {
  layout: Layout
  colors: ReadonlyMap<string, string>
}) {
  const vcs = layout.vcs.filter((vc) => !vc.reverse_of)
  const rates = [...new Set(layout.links.map((l) => l.rate_mbps))]
  return (
    <ul className="embed-legend" aria-label="Key to the drawing" data-testid="embed-legend">
      {vcs.slice(0, SHOWN).map((vc) => (
        <li key={vc.id}>
          <span className="swatch" style={{ background: colors.get(vc.id) ?? '#59636e' }} />
          {vc.id} {vc.source}→{vc.destination}
        </li>
      ))}
      {vcs.length > SHOWN && <li>+ {vcs.length - SHOWN} more VCs</li>}
      {rates.length === 1 && <li>links {rates[0]} Mbit/s</li>}
    </ul>
  )
}
