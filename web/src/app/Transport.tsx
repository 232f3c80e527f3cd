/** Play/pause, reset, pacing and the run clock. */
import type { RunStatus, Speed } from '../engine/protocol'
import type { Action } from './actions'

/** Pacing choices: simulated ms per wall-clock second; null runs as fast as the engine goes. */
export const SPEEDS: readonly { value: Speed; label: string }[] = [
  // Slow motion: single cells visibly cross the links (web/src/animation).
  { value: 0.1, label: '0.1 ms per second' },
  { value: 1, label: '1 ms per second' },
  { value: 10, label: '10 ms per second' },
  { value: 50, label: '50 ms per second' },
  { value: 200, label: '200 ms per second' },
  { value: null, label: 'as fast as possible' },
]

interface TransportProps {
  actions: readonly Action[]
  status: RunStatus
  nowMs: number
  untilMs: number
  events: number
  speed: Speed
  onSpeed(speed: Speed): void
}

const STATUS_TEXT: Record<RunStatus, string> = {
  idle: 'not loaded',
  paused: 'paused',
  running: 'running',
  finished: 'finished',
}

export function Transport({ actions, status, nowMs, untilMs, events, speed, onSpeed }: TransportProps) {
  const progress = untilMs > 0 ? Math.min(1, nowMs / untilMs) : 0
  return (
    <div className="transport" role="toolbar" aria-label="Simulation controls">
      {actions.map((action) => (
        <button
          key={action.name}
          type="button"
          className={`action action-${action.name}`}
          onClick={action.perform}
          disabled={!action.enabled}
          aria-keyshortcuts={action.keys.map((k) => (k === ' ' ? 'Space' : k.toUpperCase())).join(' ')}
          title={`${action.label} (${action.shortcut})`}
        >
          {action.label} <kbd>{action.shortcut}</kbd>
        </button>
      ))}
      <label className="speed">
        Speed
        <select
          value={speed === null ? 'max' : String(speed)}
          onChange={(e) => onSpeed(e.target.value === 'max' ? null : Number(e.target.value))}
        >
          {SPEEDS.map((s) => (
            <option key={s.label} value={s.value === null ? 'max' : String(s.value)}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <div className="clock" aria-live="off">
        <progress max={1} value={progress} aria-label="simulated time" />
        <span data-testid="sim-time">
          t = {nowMs.toFixed(speed !== null && speed < 10 ? 3 : 1)} / {untilMs} ms
        </span>
        <span className="muted">
          {STATUS_TEXT[status]} · {events.toLocaleString('en')} events
        </span>
      </div>
    </div>
  )
}
