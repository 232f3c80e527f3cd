/** Play/pause, single step, reset, pacing and the run clock. */
import type { ReactNode } from 'react'
import type { RunStatus, Speed } from '../engine/protocol'
import type { Action, ActionName } from './actions'

/**
 * Pacing stops: simulated ms per wall-clock second, from slow motion to as fast as the engine goes
 * (null). The slowest, 1 µs per second, shows one 155.52 Mbit/s cell time (2.7 µs) as 2.7 s of wall
 * time, so single cells can be followed on the shortest LAN link of any library scenario; at the top
 * the engine runs flat out.
 */
export const SPEEDS: readonly Speed[] = [
  0.001,
  0.002,
  0.005,
  0.01,
  0.02,
  0.05,
  0.1,
  0.2,
  0.5,
  1,
  2,
  5,
  10,
  20,
  50,
  100,
  200,
  500,
  1000,
  null,
]

/** A pacing in short words: "2 µs/s" below 0.1 ms per second, "50 ms/s" above, "max" flat out. */
export function speedShort(speed: Speed): string {
  if (speed === null) return 'max'
  return speed < 0.1 ? `${Number((speed * 1000).toPrecision(3))} µs/s` : `${speed} ms/s`
}

/** Words for a pacing stop. */
export function speedText(speed: Speed): string {
  if (speed === null) return 'as fast as possible'
  const text =
    speed < 0.1
      ? `${Number((speed * 1000).toPrecision(3))} µs per second`
      : `${speed} ms per second`
  return speed < 1 ? `${text} (slow motion)` : text
}

/** The stop nearest a pacing (for a pacing from a link that is not one of the stops). */
export function speedIndex(speed: Speed): number {
  if (speed === null) return SPEEDS.length - 1
  let best = 0
  SPEEDS.forEach((s, i) => {
    if (
      s !== null &&
      Math.abs(Math.log(s / speed)) < Math.abs(Math.log((SPEEDS[best] ?? 1) / speed))
    )
      best = i
  })
  return best
}

/** The next stop up or down from a pacing. */
export function nextSpeed(speed: Speed, direction: 1 | -1): Speed {
  const i = Math.min(SPEEDS.length - 1, Math.max(0, speedIndex(speed) + direction))
  return SPEEDS[i]
}

/** The actions shown as transport buttons, in order; the others have only their shortcuts here. */
const BUTTONS: readonly ActionName[] = ['togglePlay', 'step', 'reset']

interface TransportProps {
  actions: readonly Action[]
  status: RunStatus
  nowMs: number
  untilMs: number
  events: number
  speed: Speed
  onSpeed(speed: Speed): void
  /** Fewer words, for embed mode. */
  compact?: boolean
  /** Shown after the buttons (the phone's menu button). */
  extra?: ReactNode
}

const STATUS_TEXT: Record<RunStatus, string> = {
  idle: 'not loaded',
  paused: 'paused',
  running: 'running',
  finished: 'finished',
}

export function Transport({
  actions,
  status,
  nowMs,
  untilMs,
  events,
  speed,
  onSpeed,
  compact = false,
  extra,
}: TransportProps) {
  const progress = untilMs > 0 ? Math.min(1, nowMs / untilMs) : 0
  const buttons = BUTTONS.map((name) => actions.find((a) => a.name === name)).filter(
    (a): a is Action => a !== undefined,
  )
  const slower = actions.find((a) => a.name === 'slower')
  const faster = actions.find((a) => a.name === 'faster')
  return (
    <div className="transport" role="toolbar" aria-label="Simulation controls">
      {buttons.map((action) => (
        <button
          key={action.name}
          type="button"
          className={`action action-${action.name}`}
          onClick={action.perform}
          disabled={!action.enabled}
          aria-keyshortcuts={action.keys
            .map((k) => (k === ' ' ? 'Space' : k.toUpperCase()))
            .join(' ')}
          title={`${action.label} (${action.shortcut})`}
        >
          {action.label} <kbd>{action.shortcut}</kbd>
        </button>
      ))}
      {extra}
      <label className="speed">
        Speed
        <input
          type="range"
          min={0}
          max={SPEEDS.length - 1}
          step={1}
          value={speedIndex(speed)}
          aria-valuetext={speedText(speed)}
          aria-keyshortcuts={[slower, faster].flatMap((a) => a?.keys ?? []).join(' ')}
          title={`Speed: ${slower?.shortcut ?? ''} slower, ${faster?.shortcut ?? ''} faster`}
          onChange={(e) => onSpeed(SPEEDS[Number(e.target.value)] ?? null)}
        />
        <output className="speed-value">{speedShort(speed)}</output>
      </label>
      <div className="clock" aria-live="off">
        <progress max={1} value={progress} aria-label="simulated time" />
        <span data-testid="sim-time">
          t = {nowMs.toFixed(speed !== null && speed < 10 ? 3 : 1)} / {untilMs} ms
        </span>
        {!compact && (
          <span className="muted">
            {STATUS_TEXT[status]} · {events.toLocaleString('en')} events
          </span>
        )}
      </div>
    </div>
  )
}
