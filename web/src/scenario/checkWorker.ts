/**
 * The scenario checker's Web Worker: reads text from outside the page — a link's hash, a loaded
 * file — with the engine's validator, off the page's thread (scenario/check.ts).
 */
import init, * as simWasm from '../engine/pkg/sim_wasm.js'
import type { CheckReply, CheckRequest } from './check'
import { createEngineInfo } from './engineInfo'
import { readScenario, restoreFromHash } from './restore'

interface WorkerScope {
  postMessage(message: CheckReply): void
  addEventListener(type: 'message', listener: (event: MessageEvent<CheckRequest>) => void): void
}

const scope = self as unknown as WorkerScope
const ready = init().then(() => createEngineInfo(simWasm))

scope.addEventListener('message', (event) => {
  const request = event.data
  ready
    .then(async (info): Promise<CheckReply> => {
      if (request.type === 'hash') {
        const restored = await restoreFromHash(
          request.hash,
          info.validate,
          undefined,
          info.maxInputBytes,
        )
        return { type: 'hash', restored }
      }
      return { type: 'text', read: readScenario(request.text, info.validate, info.maxInputBytes) }
    })
    .then(
      (reply) => scope.postMessage(reply),
      (error: unknown) =>
        scope.postMessage({
          type: 'failed',
          message: error instanceof Error ? error.message : String(error),
        }),
    )
})
