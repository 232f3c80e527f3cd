/**
 * Wall time and scheduling for the engine host: injectable, so that tests are not tied to a
 * browser; the default runs the next slice as soon as the queued messages are handled.
 */

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
