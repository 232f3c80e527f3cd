/**
 * Wall time, pacing and scheduling for the engine host: how long a slice of engine work runs and
 * how often its samples are posted; the clock is injectable, so that tests are not tied to a
 * browser, and the default runs the next slice as soon as the queued messages are handled.
 */

/** Wall-clock budget of one slice of engine work before yielding to the message loop. */
export const SLICE_MS = 8
/** Bounds on the events per `run_until` call; the budget adapts to the measured event rate. */
export const MIN_EVENTS_PER_CALL = 1_000
export const MAX_EVENTS_PER_CALL = 100_000
/**
 * Least wall time between two posts of samples while the engine runs ahead: two display frames.
 * Slices stay short so that requests are answered promptly, but posting after each of them made
 * the page handle more messages than it can draw: playing 500 VCs flat out, posting every slice
 * gave 48 frames/s, every 16 ms 52–54, every 32 ms 56 (the benchmark). Paced play posts
 * after every slice that catches up, so the charts follow the clock as before.
 */
export const FLUSH_MS = 32
/** How long to wait when paced play has caught up with the wall clock (about one display frame). */
export const PACED_IDLE_MS = 16

/** Wall time and scheduling, injectable so tests are not tied to a browser. */
export interface HostClock {
  now(): number
  /** Runs `fn` after `ms` milliseconds, letting queued messages be handled first. */
  later(fn: () => void, ms: number): void
}

/**
 * Runs `fn` as a new task, after the messages already queued. `setTimeout(fn, 0)` would too, but
 * browsers clamp nested timeouts to 4 ms (HTML "timer nesting level"): in a Chromium worker that
 * left the engine idle about a third of the time between 8 ms slices (the benchmark). A
 * MessageChannel message is not clamped. Its ports are unref'd where that exists (Node), so a
 * pending slice never keeps a test process alive.
 */
let immediateChannel: MessageChannel | null = null
const immediateQueue: Array<() => void> = []
function runSoon(fn: () => void): void {
  if (typeof MessageChannel === 'undefined') {
    setTimeout(fn, 0)
    return
  }
  if (immediateChannel === null) {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => immediateQueue.shift()?.()
    for (const port of [channel.port1, channel.port2]) (port as { unref?: () => void }).unref?.()
    immediateChannel = channel
  }
  immediateQueue.push(fn)
  immediateChannel.port2.postMessage(null)
}

/** The browser's (and Node's) clock. */
export const defaultClock: HostClock = {
  now: () => performance.now(),
  later: (fn, ms) => (ms <= 0 ? runSoon(fn) : void setTimeout(fn, ms)),
}
