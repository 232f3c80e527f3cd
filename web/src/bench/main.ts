/**
 * The benchmark's page (web/bench.html, built only by vite.bench.config.ts): measures the wasm
 * engine in Chromium two ways, for e2e-bench/ to call through `window.__abrbench`:
 *
 *   - `workerRun`: the app's own engine worker (worker.ts → EngineHost) through the app's
 *     EngineClient and protocol, flat out (speed null), no animation cells: what the app's engine
 *     does when the user picks "as fast as possible", minus the page's drawing;
 *   - `rawRun`: the bare engine in a worker of its own (rawWorker.ts), in run_until calls of a
 *     fixed number of events, as scripts/bench.mjs runs it under Node.
 *
 * Each run gets a fresh worker, so its wasm memory figure belongs to that scenario alone.
 */
import { EngineClient, createEngineWorker } from '../engine/EngineClient'
import type { RunStatus, WorkerEvent } from '../engine/protocol'
import type { RawReply, RawRequest } from './rawWorker'

export interface WorkerRunResult {
  untilMs: number
  nowMs: number
  events: number
  /** Wall time from the play request to the `finished` status, ms. */
  wallMs: number
  /** The same for the first run in this worker, when the timed run was the second (`warm`). */
  coldWallMs: number | null
  /** `samples` messages the page received, and the sample rows in them. */
  messages: number
  rows: number
}

export type RawRunResult = Extract<RawReply, { ok: true }>

export interface AbrBenchApi {
  /** With `warm`, the timed run is the second in its worker (see `RawRequest.warm`). */
  rawRun(scenarioJson: string, eventsPerCall: number, warm?: boolean): Promise<RawRunResult>
  /**
   * Runs in a fresh app worker, which stays alive (for its memory to be read) until
   * `disposeWorker`. With `warm`, the scenario is loaded and played to its end once first and the
   * timed run is the second, reloaded in the same worker, as when the page plays it again.
   */
  workerRun(scenarioJson: string, warm?: boolean): Promise<WorkerRunResult>
  disposeWorker(): void
}

declare global {
  interface Window {
    __abrbench?: AbrBenchApi
  }
}

let client: EngineClient | null = null

function disposeWorker(): void {
  client?.dispose()
  client = null
}

async function workerRun(scenarioJson: string, warm = false): Promise<WorkerRunResult> {
  disposeWorker()
  const engine = new EngineClient(createEngineWorker)
  client = engine
  let messages = 0
  let rows = 0
  let columns = 1
  type End = { status: RunStatus; nowMs: number; events: number }
  let settle: ((end: End) => void) | null = null
  let fail: ((error: Error) => void) | null = null
  const nextEnd = () =>
    new Promise<End>((resolve, reject) => {
      settle = resolve
      fail = reject
    })
  engine.subscribe((event: WorkerEvent) => {
    if (event.type === 'samples') {
      messages += 1
      rows += event.rows.length / columns
    } else if (event.type === 'status' && event.status === 'finished') {
      settle?.(event)
    } else if (event.type === 'fatal') {
      fail?.(new Error(event.message))
    }
  })
  await engine.setSpeed(null)
  await engine.animate(0)
  /** Loads the scenario, then times the play request to `finished` (not the build, as natively). */
  const run = async () => {
    const loaded = await engine.load(scenarioJson)
    if (!loaded.ok)
      throw new Error(
        `${loaded.message}: ${loaded.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      )
    const layout = JSON.parse(loaded.layoutJson) as { until_ms: number; columns: unknown[] }
    columns = Math.max(1, layout.columns.length)
    messages = 0
    rows = 0
    const finished = nextEnd()
    const start = performance.now()
    await engine.play()
    const end = await finished
    return { untilMs: layout.until_ms, end, wallMs: performance.now() - start }
  }
  const cold = warm ? await run() : null
  const { untilMs, end, wallMs } = await run()
  return {
    untilMs,
    nowMs: end.nowMs,
    events: end.events,
    wallMs,
    coldWallMs: cold?.wallMs ?? null,
    messages,
    rows,
  }
}

function rawRun(scenarioJson: string, eventsPerCall: number, warm = false): Promise<RawRunResult> {
  const worker = new Worker(new URL('./rawWorker.ts', import.meta.url), {
    type: 'module',
    name: 'abr-bench-raw',
  })
  return new Promise<RawRunResult>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<RawReply>) => {
      worker.terminate()
      const reply = event.data
      if (reply.ok) resolve(reply)
      else reject(new Error(reply.message))
    }
    worker.onerror = (event) => {
      worker.terminate()
      reject(new Error(event.message || 'the benchmark worker failed'))
    }
    worker.postMessage({ scenarioJson, eventsPerCall, warm } satisfies RawRequest)
  })
}

window.__abrbench = { rawRun, workerRun, disposeWorker }
const status = document.getElementById('status')
if (status) status.textContent = 'ready'
