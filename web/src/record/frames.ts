/**
 * The frames of a recording: fixed steps of simulated time, so a clip of the same run at the same
 * size and speed always has the same frames, whatever the machine or the page's frame rate.
 */

/** Sizes offered for a recording (16:9, for slides). */
export const RECORD_SIZES = [
  { width: 1280, height: 720 },
  { width: 960, height: 540 },
  { width: 640, height: 360 },
] as const

export const RECORD_FPS = 25
/** A recording's frames at most: a longer one asks for a faster speed (bounded work and memory). */
export const MAX_FRAMES = 1500

export interface RecordPlan {
  /** Simulated time of each frame, in ms, first 0, last the end of the span. */
  times: number[]
  fps: number
  /** Simulated ms per second of the clip. */
  speed: number
}

/**
 * The frame times for `spanMs` of simulated time played at `speed` simulated ms per second of
 * clip, at `fps`: one frame every speed/fps ms, and one at the very end. Refuses (with the limit)
 * a plan over MAX_FRAMES, a span or speed that is not a positive number.
 */
export function planFrames(spanMs: number, speed: number, fps = RECORD_FPS): RecordPlan {
  if (!(Number.isFinite(spanMs) && spanMs > 0))
    throw new Error('nothing has been simulated yet: play the run first')
  if (!(Number.isFinite(speed) && speed > 0))
    throw new Error(`the speed must be a positive number of ms per second, not ${speed}`)
  const step = speed / fps
  const steps = Math.ceil(spanMs / step - 1e-9)
  if (steps + 1 > MAX_FRAMES)
    throw new Error(
      `${steps + 1} frames is more than the ${MAX_FRAMES} a recording may have: choose a faster speed`,
    )
  const times: number[] = []
  for (let k = 0; k <= steps; k++) times.push(Math.min(k * step, spanMs))
  return { times, fps, speed }
}
