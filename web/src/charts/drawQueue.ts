/**
 * Chart redraws, one chart per task.
 *
 * Drawing every chart inside React's commit made one long task of them all: with 500 VCs and the
 * engine flat out, 30–100 ms during which a key press or the engine's answer to a parameter change
 * waited. Each chart's redraw is queued here instead, and the queue draws one chart per task (a
 * `MessageChannel` message, which Chromium runs without the 4 ms clamp of nested timers), so that
 * whatever else the page has to do gets in between. A chart queued again before its turn is drawn
 * once, with its latest options.
 *
 * The queue also keeps the charts' share of the page's time: a batch of redraws that took `d` ms
 * in all makes the next streamed rows wait at least `d × (1 / CHART_SHARE − 1)` ms after it
 * (`chartsReadyAt`).
 */

/**
 * The most of the page's time the charts may take while samples stream in. Redrawing every chart
 * on every display frame is cheap for a few VCs, but with hundreds of them (and the engine flat
 * out on the other core) it filled the page's thread.
 */
export const CHART_SHARE = 0.25

type Draw = () => void

const pending = new Map<object, Draw>()
let scheduled = false
let channel: MessageChannel | null = null
/** `performance.now()` before which streamed rows should not be drawn. */
let readyAt = 0
/** Milliseconds the redraws queued since the queue was last empty have taken. */
let batchMs = 0

function schedule(): void {
  if (scheduled || pending.size === 0) return
  scheduled = true
  if (typeof MessageChannel === 'undefined') {
    setTimeout(runOne, 0)
    return
  }
  if (channel === null) {
    channel = new MessageChannel()
    channel.port1.onmessage = runOne
  }
  channel.port2.postMessage(null)
}

function runOne(): void {
  scheduled = false
  const next = pending.entries().next()
  if (next.done) return
  const [key, draw] = next.value
  pending.delete(key)
  const start = performance.now()
  try {
    draw()
  } finally {
    const end = performance.now()
    batchMs += end - start
    if (pending.size === 0) {
      readyAt = end + batchMs * (1 / CHART_SHARE - 1)
      batchMs = 0
    }
    schedule()
  }
}

/** Queues (or replaces) the redraw of the chart `key`. */
export function queueDraw(key: object, draw: Draw): void {
  pending.set(key, draw)
  schedule()
}

/** Drops a queued redraw (the chart went away). */
export function cancelDraw(key: object): void {
  pending.delete(key)
}

/** When the charts may next be given new rows (`performance.now()` time). */
export function chartsReadyAt(): number {
  return readyAt
}

/** Whether any chart is waiting for its redraw. */
export function drawsPending(): boolean {
  return pending.size > 0
}
