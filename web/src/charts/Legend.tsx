/** A legend as an HTML list: a short line in each entry's style, then its label. */
import type { LegendEntry } from './acrChart'

export function Legend({
  entries,
  label,
  className = 'legend',
}: {
  entries: readonly LegendEntry[]
  label: string
  className?: string
}) {
  return (
    <ul className={className} aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.label} title={entry.label}>
          <svg width="28" height="10" aria-hidden="true">
            <line
              x1="1"
              x2="27"
              y1="5"
              y2="5"
              stroke={entry.color}
              strokeWidth={entry.opacity !== undefined ? 6 : 3}
              strokeOpacity={entry.opacity}
              strokeDasharray={entry.dash ? '5 3' : undefined}
            />
          </svg>
          {entry.label}
        </li>
      ))}
    </ul>
  )
}
