/**
 * The engine's Web Worker: loads the wasm module once, then hands every request to an EngineHost.
 * Requests that arrive while the module is still loading wait for it, in order.
 */
import init, * as simWasm from './pkg/sim_wasm.js'
import { EngineHost } from './engineHost'
import { isClientRequest, type ClientRequest, type Post, type WorkerMessage } from './protocol'

/** The slice of the dedicated-worker global this file uses (the DOM lib types `self` as a Window). */
interface WorkerScope {
  postMessage(message: WorkerMessage, transfer: Transferable[]): void
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void
}

const scope = self as unknown as WorkerScope
const post: Post = (msg, transfer) => scope.postMessage(msg, transfer)

const ready: Promise<EngineHost> = init().then((wasm) => {
  // Read-only, for the benchmark (scripts/bench.mjs reads it through Playwright): the size of the
  // engine's wasm memory, which only ever grows, so it is also its peak. The page never uses it.
  ;(self as unknown as { __abrlabWasmBytes?: () => number }).__abrlabWasmBytes = () =>
    wasm.memory.buffer.byteLength
  return new EngineHost({ ...simWasm, memoryBytes: () => wasm.memory.buffer.byteLength }, post)
})

ready.catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  post({ type: 'fatal', message: `could not load the wasm engine: ${message}` }, [])
})

scope.addEventListener('message', (event) => {
  const request = event.data
  if (!isClientRequest(request)) {
    const id = (request as { id?: unknown } | null)?.id
    if (typeof id === 'number') {
      post({ type: 'failed', id, message: `malformed request: ${JSON.stringify(request)}` }, [])
    }
    return
  }
  ready.then(
    (host) => host.handle(request as ClientRequest),
    () => post({ type: 'failed', id: request.id, message: 'the wasm engine did not load' }, []),
  )
})
