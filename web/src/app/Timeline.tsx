/**
 * The timeline under the transport: a track over the run so far. Dragging it, or the
 * arrow keys on it, holds every chart and the drawing (queue bars, gauges, labels) at one past
 * time, read from the samples; the far right end is "live". Markers show where a parameter was
 * changed while the run went on (hover one: what changed). Play returns to the live end.
 */
import { useSyncExternalStore } from 'react'
import { formatTime, type TimeCursor } from '../charts/cursor'
import type { LiveMark } from '../lab/lab'

interface TimelineProps {
  cursor: TimeCursor
  /** Simulated time reached so far, ms. */
  nowMs: number
  /** One sample interval: the step of the arrow keys. */
  stepMs: number
  marks: readonly LiveMark[]
}

export function Timeline({ cursor, nowMs, stepMs, marks }: TimelineProps) {
  const held = useSyncExternalStore(
    (fn) => cursor.subscribe(fn),
    () => cursor.getScrub(),
  )
  const end = Math.max(nowMs, stepMs)
  const value = held === null ? end : Math.min(held, end)
  const hold = (t: number) => cursor.setScrub(t >= nowMs ? null : Math.max(0, t))
  return (
    <div className="timeline" data-testid="timeline">
      <div className="timeline-track">
        <input
          type="range"
          min={0}
          max={end}
          step={stepMs}
          value={value}
          disabled={nowMs <= 0}
          aria-label="Time in the run"
          aria-valuetext={
            held === null
              ? `live, t = ${formatTime(nowMs)}`
              : `t = ${formatTime(held)} of ${formatTime(nowMs)}`
          }
          onChange={(e) => hold(Number(e.target.value))}
        />
        <div className="timeline-marks" aria-hidden={marks.length === 0}>
          {marks.map((m, i) => (
            <span
              key={i}
              className="timeline-mark"
              data-testid="timeline-mark"
              style={{ left: `${Math.min(100, (m.atMs / end) * 100)}%` }}
              title={`${formatTime(m.atMs)}: ${m.text}`}
              role="img"
              aria-label={`Changed at ${formatTime(m.atMs)}: ${m.text}`}
            />
          ))}
        </div>
      </div>
      <span className="timeline-readout" data-testid="timeline-readout">
        {held === null ? (
          'live'
        ) : (
          <>
            held at t = {formatTime(held)}{' '}
            <button type="button" className="link-button" onClick={() => cursor.setScrub(null)}>
              back to live
            </button>
          </>
        )}
      </span>
    </div>
  )
}
