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
  /**
   * Run the scenario once untimed first, in this worker, so that the timed run finds the engine's
   * code compiled and optimised, as native code is (V8 compiles wasm lazily, a baseline first and
   * the hot functions again later): the first run's wall time is reported beside.
   */
  warm?: boolean
}

export type RawReply =
  | {
      ok: true
      untilMs: number
      nowMs: number
      events: number
      sourceCells: number
      wallMs: number
      /** Wall time of the untimed first run (with `warm`), from the same start to the same end. */
      coldWallMs: number | null
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
      const { scenarioJson, eventsPerCall, warm } = event.data
      /** Builds the scenario, then times its run to the end (not the build, as natively). */
      const run = () => {
        const engine = new simWasm.Engine(scenarioJson)
        try {
          const untilMs = (JSON.parse(engine.layout()) as { until_ms: number }).until_ms
          const start = performance.now()
          while (!engine.run_until(untilMs, eventsPerCall)) engine.take_samples()
          engine.take_samples()
          const wallMs = performance.now() - start
          return {
            untilMs,
            nowMs: engine.now_ms(),
            events: engine.events(),
            sourceCells: engine.source_cells(),
            wallMs,
          }
        } finally {
          engine.free()
        }
      }
      const cold = warm ? run() : null
      scope.postMessage({
        ok: true,
        ...run(),
        coldWallMs: cold?.wallMs ?? null,
        wasmBytes: wasm.memory.buffer.byteLength,
      })
    })
    .catch((error: unknown) =>
      scope.postMessage({
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      }),
    )
})
