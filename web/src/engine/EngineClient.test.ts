import { describe, expect, it } from 'vitest'
import { EngineCallError, EngineClient, type WorkerLike } from './EngineClient'
import type { ClientRequest, WorkerEvent, WorkerMessage } from './protocol'

/**
 * An in-memory stand-in for the Worker transport: it records what the client posts and lets the
 * test answer. It carries protocol messages only; the engine itself is tested with the real wasm
 * module in engineHost.test.ts.
 */
class TransportStandIn implements WorkerLike {
  posted: ClientRequest[] = []
  terminated = false
  onmessage: ((event: MessageEvent<unknown>) => void) | null = null
  onerror: ((event: ErrorEvent) => void) | null = null

  postMessage(message: unknown): void {
    this.posted.push(message as ClientRequest)
  }

  terminate(): void {
    this.terminated = true
  }

  send(message: WorkerMessage): void {
    this.onmessage?.({ data: message } as MessageEvent<unknown>)
  }
}

/** Lets queued promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function clientWithWorkers() {
  const workers: TransportStandIn[] = []
  const client = new EngineClient(() => {
    const worker = new TransportStandIn()
    workers.push(worker)
    return worker
  })
  return { client, workers }
}

describe('EngineClient serial queue', () => {
  it('posts a request only after the previous one is answered', async () => {
    const { client, workers } = clientWithWorkers()
    const loaded = client.load('{"scenario":1}')
    const played = client.play()
    await settle()
    const worker = workers[0]
    expect(worker.posted).toEqual([{ type: 'load', id: 1, scenarioJson: '{"scenario":1}' }])

    worker.send({ type: 'loaded', id: 1, layoutJson: '{"columns":["t_ms"]}', warnings: [] })
    await expect(loaded).resolves.toEqual({
      ok: true,
      layoutJson: '{"columns":["t_ms"]}',
      warnings: [],
    })
    await settle()
    expect(worker.posted.map((m) => m.type)).toEqual(['load', 'play'])
    expect(worker.posted[1].id).toBe(2)

    worker.send({ type: 'ok', id: 2 })
    await expect(played).resolves.toBeUndefined()
  })

  it('reports a rejected scenario with its errors, and the queue moves on', async () => {
    const { client, workers } = clientWithWorkers()
    const loaded = client.load('{}')
    const paused = client.pause()
    await settle()
    const errors = [{ path: 'vcs.vc2.rif', message: 'not a power of two' }]
    workers[0].send({
      type: 'rejected',
      id: 1,
      message: 'the engine rejected this scenario',
      errors,
    })
    await expect(loaded).resolves.toEqual({
      ok: false,
      message: 'the engine rejected this scenario',
      errors,
    })
    await settle()
    workers[0].send({ type: 'failed', id: 2, message: 'no scenario loaded' })
    await expect(paused).rejects.toThrow(new EngineCallError('no scenario loaded'))
  })

  it('drops a call aborted while it waits in the queue', async () => {
    const { client, workers } = clientWithWorkers()
    const first = client.play()
    const abort = new AbortController()
    const second = client.pause(abort.signal)
    const third = client.setSpeed(20)
    abort.abort()
    await settle()
    workers[0].send({ type: 'ok', id: 1 })
    await first
    await expect(second).rejects.toMatchObject({ name: 'AbortError' })
    await settle()
    expect(workers[0].posted.map((m) => m.type)).toEqual(['play', 'speed'])
    expect(workers[0].posted[1]).toEqual({ type: 'speed', id: 2, speed: 20 })
    workers[0].send({ type: 'ok', id: 2 })
    await third
  })

  it('passes events to subscribers', async () => {
    const { client, workers } = clientWithWorkers()
    const seen: WorkerEvent[] = []
    client.subscribe((e) => seen.push(e))
    const played = client.play()
    await settle()
    const rows = new Float64Array([0, 1, 2, 3])
    workers[0].send({ type: 'samples', rows, frame: new Float64Array([0]), nowMs: 0.5, events: 10 })
    workers[0].send({ type: 'status', status: 'running', nowMs: 0.5, events: 10 })
    workers[0].send({ type: 'ok', id: 1 })
    await played
    expect(seen.map((e) => e.type)).toEqual(['samples', 'status'])
  })
})

describe('EngineClient crash handling', () => {
  it('rejects pending calls, terminates the worker and rebuilds the last good scenario on reset', async () => {
    const { client, workers } = clientWithWorkers()
    const seen: WorkerEvent[] = []
    client.subscribe((e) => seen.push(e))

    const loaded = client.load('{"good":true}')
    await settle()
    workers[0].send({ type: 'loaded', id: 1, layoutJson: '{}', warnings: [] })
    await loaded

    const played = client.play()
    await settle()
    workers[0].send({ type: 'fatal', message: 'the engine crashed: unreachable' })
    await expect(played).rejects.toThrow('the engine crashed: unreachable')
    expect(workers[0].terminated).toBe(true)
    expect(seen).toEqual([{ type: 'fatal', message: 'the engine crashed: unreachable' }])

    const reset = client.reset()
    await settle()
    expect(workers).toHaveLength(2)
    expect(workers[1].posted).toEqual([{ type: 'load', id: 3, scenarioJson: '{"good":true}' }])
    const warnings = [{ path: 'vcs.vc1.icr_mbps', message: 'above TBE/FRTT' }]
    workers[1].send({ type: 'loaded', id: 3, layoutJson: '{"again":true}', warnings })
    await expect(reset).resolves.toEqual({ ok: true, layoutJson: '{"again":true}', warnings })
  })

  it('rebuilds the last scenario that loaded after a crash', async () => {
    const { client, workers } = clientWithWorkers()
    const loaded = client.load('{"rif":0.0625}')
    await settle()
    workers[0].send({ type: 'loaded', id: 1, layoutJson: '{}', warnings: [] })
    await loaded
    const set = client.setParam('rif', '1')
    await settle()
    workers[0].send({ type: 'param', id: 2, applied: 'live', nowMs: 5 })
    await expect(set).resolves.toEqual({ ok: true, applied: 'live', nowMs: 5 })
    workers[0].send({ type: 'fatal', message: 'the engine crashed: unreachable' })
    void client.reset().catch(() => undefined)
    await settle()
    // The page's Lab holds the scenario with the live changes and rebuilds that after a crash.
    expect(workers[1].posted).toEqual([{ type: 'load', id: 3, scenarioJson: '{"rif":0.0625}' }])
  })

  it('treats a worker error (e.g. the wasm failed to load) as a crash', async () => {
    const { client, workers } = clientWithWorkers()
    const seen: WorkerEvent[] = []
    client.subscribe((e) => seen.push(e))
    const loaded = client.load('{}')
    await settle()
    workers[0].onerror?.({ message: 'NetworkError', preventDefault: () => undefined } as ErrorEvent)
    await expect(loaded).rejects.toThrow('the engine worker failed: NetworkError')
    expect(seen[0]).toEqual({ type: 'fatal', message: 'the engine worker failed: NetworkError' })
  })

  it('rejects everything pending on dispose', async () => {
    const { client, workers } = clientWithWorkers()
    const played = client.play()
    await settle()
    client.dispose()
    await expect(played).rejects.toThrow('disposed')
    expect(workers[0].terminated).toBe(true)
  })
})
