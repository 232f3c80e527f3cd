/**
 * "Record": the drawing and the charts as a video or an animated GIF for slides, at a chosen size
 * and speed (simulated ms per second of clip), with a progress bar. The run is paused and the
 * recording steps the linked time through what has been simulated, one fixed step per frame.
 */
import { useRef, useState } from 'react'
import './record.css'
import type { TimeCursor } from '../charts/cursor'
import type { Layout } from '../engine/layout'
import type { PinnedRun } from '../charts/chartContext'
import { downloadBlob, slug } from '../export/download'
import { composeFrame, findSources } from './compose'
import { type Clip, encodeGif, encodeVideo } from './encode'
import { planFrames, RECORD_FPS, RECORD_SIZES } from './frames'
import { checkSameNetwork } from './pinnedDrawing'

/** Speeds offered, in simulated ms per second of clip. */
const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] as const

/** The speed that makes the span a clip of about ten seconds. */
export function defaultSpeed(spanMs: number): number {
  return SPEEDS.find((s) => spanMs / s <= 10) ?? SPEEDS[SPEEDS.length - 1]
}

interface RecordMenuProps {
  title: string
  cursor: TimeCursor
  /** Simulated so far, in ms: the clip's span. */
  nowMs: number
  running: boolean
  pause(): void
  layout: Layout
  colors: ReadonlyMap<string, string>
  /** A run pinned for comparison: offered as the "before" of a before / after clip. */
  pinned: PinnedRun | null
  /** The current run's name, the "after" of a before / after clip. */
  runLabel: string
}

type Progress = { done: number; total: number; what: string } | null

export function RecordMenu(props: RecordMenuProps) {
  const { title, cursor, nowMs, running, pause, pinned } = props
  const [sizeIndex, setSizeIndex] = useState(1)
  const [beforeAfter, setBeforeAfter] = useState(false)
  const [speed, setSpeed] = useState<number | null>(null)
  const [progress, setProgress] = useState<Progress>(null)
  const [message, setMessage] = useState<string | null>(null)
  const abort = useRef<AbortController | null>(null)
  const chosenSpeed = speed ?? defaultSpeed(nowMs)
  let frames: number | null = null
  try {
    frames = nowMs > 0 ? planFrames(nowMs, chosenSpeed).times.length : null
  } catch {
    frames = null
  }

  const record = async (kind: 'video' | 'gif') => {
    setMessage(null)
    const controller = new AbortController()
    abort.current = controller
    const held = cursor.getScrub()
    try {
      if (running) pause()
      const before =
        beforeAfter && pinned
          ? { run: pinned, colors: props.colors, afterLabel: props.runLabel }
          : undefined
      if (before) checkSameNetwork(props.layout, before.run.layout)
      const plan = planFrames(nowMs, chosenSpeed)
      const sources = findSources(document)
      const size = RECORD_SIZES[sizeIndex]
      const canvas = document.createElement('canvas')
      canvas.width = size.width
      canvas.height = size.height
      canvas.getContext('2d', { willReadFrequently: kind === 'gif' })
      const total = plan.times.length
      const what = kind === 'gif' ? 'GIF' : 'video'
      setProgress({ done: 0, total, what })
      cursor.set(null)
      const job = {
        canvas,
        frames: total,
        fps: plan.fps,
        signal: controller.signal,
        draw: (k: number) =>
          composeFrame(canvas, sources, cursor, plan.times[k], {
            title,
            endMs: nowMs,
            clipMs: (k * 1000) / plan.fps,
            before,
          }),
        onProgress: (done: number) => setProgress({ done, total, what }),
      }
      const clip: Clip = kind === 'gif' ? await encodeGif(job) : await encodeVideo(job)
      const name = `${slug(title)}${before ? '-before-after' : ''}-${size.width}x${size.height}${clip.extension}`
      downloadBlob(clip.blob, name)
      setMessage(
        `Saved ${name}: ${total} frames at ${plan.fps} fps, ${chosenSpeed} ms of the run per second (${clip.codec}).`,
      )
    } catch (cause) {
      setMessage(`Could not record: ${cause instanceof Error ? cause.message : String(cause)}`)
    } finally {
      cursor.setScrub(held)
      abort.current = null
      setProgress(null)
    }
  }

  const busy = progress !== null
  return (
    <details className="export-menu record-menu">
      <summary>Record</summary>
      <div className="export-choices record-choices" role="group" aria-label="Record the run">
        <label>
          Size
          <select
            value={sizeIndex}
            disabled={busy}
            onChange={(e) => setSizeIndex(Number(e.target.value))}
          >
            {RECORD_SIZES.map((s, i) => (
              <option key={`${s.width}x${s.height}`} value={i}>
                {s.width} × {s.height}
              </option>
            ))}
          </select>
        </label>
        <label>
          Speed
          <select
            value={chosenSpeed}
            disabled={busy}
            onChange={(e) => setSpeed(Number(e.target.value))}
          >
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s} ms of the run per second
              </option>
            ))}
          </select>
        </label>
        {pinned && (
          <label className="record-before-after">
            <span>
              <input
                type="checkbox"
                checked={beforeAfter}
                disabled={busy}
                onChange={(e) => setBeforeAfter(e.target.checked)}
              />{' '}
              Before / after: the pinned run “{pinned.label}” above this one
            </span>
          </label>
        )}
        <p className="record-plan" data-testid="record-plan" data-frames={frames ?? ''}>
          {frames === null
            ? 'Play the run first: the recording shows what has been simulated.'
            : `${frames} frames, ${(frames / RECORD_FPS).toFixed(1)} s at ${RECORD_FPS} fps`}
        </p>
        <div className="record-buttons">
          <button
            type="button"
            disabled={busy || frames === null}
            onClick={() => void record('video')}
          >
            Video
          </button>
          <button
            type="button"
            disabled={busy || frames === null}
            onClick={() => void record('gif')}
          >
            GIF
          </button>
          {busy && (
            <button type="button" onClick={() => abort.current?.abort()}>
              Cancel
            </button>
          )}
        </div>
        {progress && (
          <label className="record-progress">
            Recording the {progress.what}: frame {progress.done} of {progress.total}
            <progress max={progress.total} value={progress.done} />
          </label>
        )}
        {message && (
          <p className="record-message" role="status" data-testid="record-message">
            {message}
          </p>
        )}
      </div>
    </details>
  )
}
