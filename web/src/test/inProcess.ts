/**
 * The Lab store's tests' engine: the real engine behind a worker transport that hands each request
 * to an EngineHost in the same thread, a Lab with a library scenario open on it, and a wait for a
 * condition of the store.
 */
import { EngineClient, type WorkerLike } from '../engine/EngineClient'
import { EngineHost } from '../engine/engineHost'
import type { ClientRequest } from '../engine/protocol'
import { Lab } from '../lab/lab'
import { Run } from '../lab/run'
import { createEngineInfo } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'
import { realEngine, scenarioText } from './realEngine'

// The run publishes at most once per display frame; under Node a frame is a timer.
globalThis.requestAnimationFrame ??= (fn: FrameRequestCallback) =>
  setTimeout(() => fn(performance.now()), 0) as unknown as number
globalThis.cancelAnimationFrame ??= (id: number) => clearTimeout(id)

/**
 * A worker transport that hands each request to an EngineHost in the same thread (given to
 * `onHost`). Each message is delivered in a task of its own, in order, as between a page and its
 * worker.
 */
export function inProcessWorker(onHost?: (host: EngineHost) => void): WorkerLike {
  const later = (deliver: () => void) => setTimeout(deliver, 0)
  const worker: WorkerLike = {
    onmessage: null,
    onerror: null,
    postMessage: (message) => later(() => host.handle(message as ClientRequest)),
    terminate: () => undefined,
  }
  const host = new EngineHost(realEngine(), (msg) =>
    later(() => worker.onmessage?.({ data: msg } as MessageEvent<unknown>)),
  )
  onHost?.(host)
  return worker
}

/** Resolves once `check()` holds, polling; rejects after `timeoutMs`. */
export function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const start = Date.now()
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) resolve()
      else if (Date.now() - start > timeoutMs) reject(new Error('timed out'))
      else setTimeout(poll, 5)
    }
    poll()
  })
}

/**
 * A Lab on the real engine with the library scenario `id` open, its run built and paused at 0;
 * `onHost` is given the worker's side.
 */
export async function openLab(
  id = 'two-source-wan',
  onHost?: (host: EngineHost) => void,
): Promise<Lab> {
  const lab = new Lab(new Run(new EngineClient(() => inProcessWorker(onHost))))
  lab.setInfo(createEngineInfo(realEngine()))
  lab.open(JSON.parse(scenarioText(id)) as JsonObject, { kind: 'library', id })
  await until(() => lab.run.get().status === 'paused')
  return lab
}
