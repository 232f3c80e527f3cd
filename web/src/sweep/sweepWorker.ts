/** A sweep worker: its own wasm engine, running one grid point after another as asked. */
import init, * as simWasm from '../engine/pkg/sim_wasm.js'
import type { SweepReply, SweepRequest } from './protocol'
import { runPoint } from './runPoint'

interface WorkerScope {
  postMessage(message: SweepReply): void
  addEventListener(type: 'message', listener: (event: MessageEvent<SweepRequest>) => void): void
}

const scope = self as unknown as WorkerScope
const ready = init()

scope.addEventListener('message', (event) => {
  const request = event.data
  ready.then(
    () => runPoint(simWasm, request, (reply) => scope.postMessage(reply)),
    (cause: unknown) =>
      scope.postMessage({
        type: 'failed',
        job: request.job,
        message: `could not load the wasm engine: ${cause instanceof Error ? cause.message : String(cause)}`,
        errors: [],
      }),
  )
})
