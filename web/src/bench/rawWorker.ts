/**
 * The benchmark's bare engine worker: the wasm engine alone, in a Chromium worker, driven exactly
 * as scripts/bench.mjs drives it under Node (run_until calls of `eventsPerCall` events, draining the
 * samples after each), with no protocol, pacing or messages in between. Beside the app's own worker
 * (worker.ts) it separates the engine's speed from the host's overhead. Not used by the app.
 */
import init, * as simWasm from '../engine/pkg/sim_wasm.js'

export interface RawRequest {
  scenarioJson: string
  eventsPerCall: number
}

export type RawReply =
  | {
      ok: true
      untilMs: number
      nowMs: number
      events: number
      sourceCells: number
      wallMs: number
      wasmBytes: number
    }
  | { ok: false; message: string }

interface WorkerScope {
  postMessage(message: RawReply): void
  addEventListener(type: 'message', listener: (event: MessageEvent<RawRequest>) => void): void
}

const scope = self as unknown as WorkerScope
const ready = init()

scope.addEventListener('message', (event) => {
  ready
    .then((wasm) => {
      const { scenarioJson, eventsPerCall } = event.data
      const engine = new simWasm.Engine(scenarioJson)
      try {
        const untilMs = (JSON.parse(engine.layout()) as { until_ms: number }).until_ms
        const start = performance.now()
        while (!engine.run_until(untilMs, eventsPerCall)) engine.take_samples()
        engine.take_samples()
        const wallMs = performance.now() - start
        scope.postMessage({
          ok: true,
          untilMs,
          nowMs: engine.now_ms(),
          events: engine.events(),
          sourceCells: engine.source_cells(),
          wallMs,
          wasmBytes: wasm.memory.buffer.byteLength,
        })
      } finally {
        engine.free()
      }
    })
    .catch((error: unknown) =>
      scope.postMessage({
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      }),
    )
})
