/**
 * The linked hover: one simulated time that every chart and the topology show their values at.
 *
 * Hovering changes many times a second, so the cursor lives outside React state: views subscribe
 * and redraw only their read-out (a line, dots, a box of values), never the whole chart.
 */

export type CursorListener = (timeMs: number | null) => void

export class TimeCursor {
  private hover: number | null = null
  private scrub: number | null = null
  private shown: number | null = null
  private liveEnd: number | null = null
  private readonly listeners = new Set<CursorListener>()

  /**
   * The time every view shows its values at: the hovered time while something is hovered, else
   * the time the timeline was scrubbed to, else null (the live end).
   */
  get(): number | null {
    return this.shown
  }

  /** Sets the hovered time (null when the pointer leaves). */
  set(timeMs: number | null): void {
    this.hover = finite(timeMs)
    this.update()
  }

  /** The time the timeline holds, or null at the live end. */
  getScrub(): number | null {
    return this.scrub
  }

  /** Holds every view at `timeMs` until hovered elsewhere or released (null: back to live). */
  setScrub(timeMs: number | null): void {
    this.scrub = finite(timeMs)
    this.update()
  }

  /**
   * The latest simulated time, or null when the run's reach is unknown: no view is ever held
   * beyond it, so hovering or scrubbing past it shows the live end, never a time not yet simulated.
   */
  setLiveEnd(timeMs: number | null): void {
    this.liveEnd = finite(timeMs)
    this.update()
  }

  private update(): void {
    const wanted = this.hover ?? this.scrub
    const next = wanted !== null && this.liveEnd !== null ? Math.min(wanted, this.liveEnd) : wanted
    if (next === this.shown) return
    this.shown = next
    for (const listener of this.listeners) listener(next)
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: CursorListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

function finite(timeMs: number | null): number | null {
  return timeMs !== null && Number.isFinite(timeMs) ? timeMs : null
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
