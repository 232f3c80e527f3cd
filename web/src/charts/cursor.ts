/**
 * The linked hover: one simulated time that every chart and the topology show their values at.
 *
 * Hovering changes many times a second, so the cursor lives outside React state: views subscribe
 * and redraw only their read-out (a line, dots, a box of values), never the whole chart.
 */

export type CursorListener = (timeMs: number | null) => void

export class TimeCursor {
  private timeMs: number | null = null
  private readonly listeners = new Set<CursorListener>()

  /** The hovered time in ms, or null when nothing is hovered. */
  get(): number | null {
    return this.timeMs
  }

  set(timeMs: number | null): void {
    const next = timeMs !== null && Number.isFinite(timeMs) ? timeMs : null
    if (next === this.timeMs) return
    this.timeMs = next
    for (const listener of this.listeners) listener(next)
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: CursorListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

/** A time window of the charts' x axis in ms, or null for the whole run. */
export type TimeWindow = readonly [number, number] | null

/** Formats a time for read-outs: "123.5 ms". */
export function formatTime(ms: number): string {
  if (Math.abs(ms) >= 1000) return `${(ms / 1000).toFixed(3)} s`
  return `${ms.toFixed(ms < 10 ? 3 : 1)} ms`
}

/** Formats a chart value compactly for read-outs. */
export function formatValue(value: number, unit = ''): string {
  if (!Number.isFinite(value)) return '—'
  const abs = Math.abs(value)
  const text =
    abs >= 1000
      ? Math.round(value).toLocaleString('en')
      : abs >= 100
        ? value.toFixed(1)
        : abs >= 1
          ? value.toFixed(2)
          : value.toFixed(3)
  return unit ? `${text} ${unit}` : text
}
