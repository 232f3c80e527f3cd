/**
 * The worker side, driven with the real wasm engine under Node: what the page receives is what
 * the engine produced.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { realEngine, scenarioText } from '../test/realEngine'
import { EngineHost, WASM_MEMORY_LIMIT_BYTES } from './engineHost'
import type { EngineModule } from './engineModule'
import { column, parseLayout, type Layout } from './layout'
import { documentDigest, type WorkerEvent, type WorkerMessage, type WorkerReply } from './protocol'
import { SampleStore } from './samples'
import { change, type Operation } from '../lab/operation'
import type { JsonObject } from '../scenario/paths'

const DEFAULT = 'two-source-wan'

/** Collects what a host posts and waits for particular messages. */
class Inbox {
  messages: WorkerMessage[] = []
  transfers: Transferable[][] = []
  private waiters: { match: (m: WorkerMessage) => boolean; resolve: (m: WorkerMessage) => void }[] =
    []

  post = (message: WorkerMessage, transfer: Transferable[]) => {
    this.messages.push(message)
    this.transfers.push(transfer)
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(message)) return true
      w.resolve(message)
      return false
    })
  }

  next(match: (m: WorkerMessage) => boolean, timeoutMs = 45_000): Promise<WorkerMessage> {
    const found = this.messages.find(match)
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('timed out waiting for a worker message')),
        timeoutMs,
      )
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer)
          resolve(m)
        },
      })
    })
  }

  reply(id: number): Promise<WorkerReply> {
    return this.next((m) => 'id' in m && m.id === id) as Promise<WorkerReply>
  }

  samples(): Extract<WorkerEvent, { type: 'samples' }>[] {
    return this.messages.filter(
      (m): m is Extract<WorkerEvent, { type: 'samples' }> => m.type === 'samples',
    )
  }
}

/** A host on `engine` with the default scenario loaded, and its reply to the load. */
async function loadedDefault(engine: EngineModule = realEngine()) {
  const inbox = new Inbox()
  const host = new EngineHost(engine, inbox.post)
  host.handle({ type: 'load', id: 1, scenarioJson: scenarioText(DEFAULT) })
  const loaded = await inbox.reply(1)
  return { inbox, host, loaded }
}

function loadedLayout(reply: WorkerReply): Layout {
  if (reply.type !== 'loaded') throw new Error(`expected loaded, got ${JSON.stringify(reply)}`)
  return parseLayout(reply.layoutJson)
}

describe('real engine, driven directly', () => {
  beforeAll(() => {
    realEngine()
  })

  it('runs the default scenario for 50 ms and returns rows of the layout column count', () => {
    const { Engine } = realEngine()
    const engine = new Engine(scenarioText(DEFAULT))
    try {
      const layout = parseLayout(engine.layout())
      const width = layout.columns.length
      expect(layout.columns[0]).toBe('t_ms')
      // t_ms, then per-VC and per-port columns, and run-wide ones such as the fairness index.
      const perVc = layout.columns.filter((c) => c.startsWith('vc.')).length
      const perPort = layout.columns.filter((c) => c.startsWith('port.')).length
      expect(perVc % layout.vcs.length).toBe(0)
      expect(perPort % layout.ports.length).toBe(0)
      expect(layout.columns).toContain('vc.vc1.acr')
      let reached = false
      for (let calls = 0; !reached && calls < 10_000; calls++)
        reached = engine.run_until(50, 100_000)
      expect(reached).toBe(true)
      expect(engine.now_ms()).toBeCloseTo(50, 6)
      const rows = engine.take_samples()
      expect(rows.length % width).toBe(0)
      const count = rows.length / width
      expect(Math.abs(count - 50 / layout.sample_interval_ms)).toBeLessThanOrEqual(1)
      expect(engine.events()).toBeGreaterThan(0)
      const frame = engine.frame()
      expect(frame.length).toBe(1 + layout.vcs.length + layout.ports.length)
      expect(frame[0]).toBeCloseTo(50, 6)
      // Taking again returns only what completed since: nothing, as time has not moved.
      expect(engine.take_samples().length).toBe(0)
    } finally {
      engine.free()
    }
  })

  it('validates the default scenario and rejects a bad one with a path', () => {
    const { validate_scenario } = realEngine()
    expect(JSON.parse(validate_scenario(scenarioText(DEFAULT)))).toMatchObject({ ok: true })
    const bad = { ...JSON.parse(scenarioText(DEFAULT)), no_such_key: 1 }
    const verdict = JSON.parse(validate_scenario(JSON.stringify(bad))) as {
      ok: boolean
      errors: { path: string }[]
    }
    expect(verdict.ok).toBe(false)
    expect(verdict.errors.map((e) => e.path)).toContain('no_such_key')
  })
})

describe('EngineHost with the real engine', () => {
  it('loads, plays to the end in time slices and streams every sample row', async () => {
    const { inbox, host, loaded } = await loadedDefault()
    const layout = loadedLayout(loaded)
    host.handle({ type: 'speed', id: 2, speed: null })
    expect(await inbox.reply(2)).toEqual({ type: 'ok', id: 2 })
    host.handle({ type: 'play', id: 3 })
    expect(await inbox.reply(3)).toEqual({ type: 'ok', id: 3 })
    await inbox.next((m) => m.type === 'status' && m.status === 'finished')

    const store = new SampleStore(layout.columns)
    const batches = inbox.samples()
    expect(batches.length).toBeGreaterThan(1) // it yielded between slices
    for (const batch of batches) store.append(batch.rows)
    expect(
      Math.abs(store.rowCount - layout.until_ms / layout.sample_interval_ms),
    ).toBeLessThanOrEqual(1)

    // Buffers are handed over for transfer, not copied.
    const lastIndex = inbox.messages.lastIndexOf(batches[batches.length - 1])
    expect(inbox.transfers[lastIndex]).toHaveLength(2)

    // Time goes forward, sample by sample.
    const t = store.series(column.time)
    for (let i = 1; i < t.length; i++) expect(t[i]).toBeGreaterThan(t[i - 1])
  })

  it('pauses promptly and resumes where it stopped', async () => {
    const { inbox, host } = await loadedDefault()
    host.handle({ type: 'speed', id: 2, speed: null })
    host.handle({ type: 'play', id: 3 })
    await inbox.next((m) => m.type === 'samples' && m.nowMs > 0)
    host.handle({ type: 'pause', id: 4 })
    await inbox.reply(4)
    const paused = inbox.messages.filter((m) => m.type === 'status' && m.status === 'paused').at(-1)
    expect(paused).toBeDefined()
    const pausedAt = (paused as { nowMs: number }).nowMs
    expect(pausedAt).toBeGreaterThan(0)
    await new Promise((r) => setTimeout(r, 50))
    const after = inbox.samples().at(-1)
    expect(after?.nowMs).toBe(pausedAt) // nothing ran while paused

    host.handle({ type: 'reset', id: 5 })
    const reply = await inbox.reply(5)
    expect(reply.type).toBe('loaded')
    expect(inbox.messages.at(-1)).toMatchObject({ type: 'status', status: 'paused', nowMs: 0 })
  })

  it('paces play by the requested speed', async () => {
    const { inbox, host } = await loadedDefault()
    host.handle({ type: 'speed', id: 2, speed: 20 }) // 20 simulated ms per wall second
    host.handle({ type: 'play', id: 3 })
    await new Promise((r) => setTimeout(r, 250))
    host.handle({ type: 'pause', id: 4 })
    await inbox.reply(4)
    const now = inbox.samples().at(-1)?.nowMs ?? 0
    // ~5 ms of simulated time in 250 ms of wall time; generous bounds for a loaded machine.
    expect(now).toBeGreaterThan(0.5)
    expect(now).toBeLessThan(12)
  })

  it('replies rejected, with paths, for a scenario the engine refuses', async () => {
    const inbox = new Inbox()
    const host = new EngineHost(realEngine(), inbox.post)
    host.handle({ type: 'load', id: 1, scenarioJson: '{"not": "a scenario"' })
    const reply = await inbox.reply(1)
    expect(reply.type).toBe('rejected')
    if (reply.type !== 'rejected') return
    expect(reply.errors.length).toBeGreaterThan(0)
    expect(reply.errors[0].message).toMatch(/JSON/i)

    host.handle({ type: 'play', id: 2 })
    expect(await inbox.reply(2)).toEqual({ type: 'failed', id: 2, message: 'no scenario loaded' })
  })

  it('swaps in a valid scenario, and keeps the run going when the engine refuses one', async () => {
    const { inbox, host } = await loadedDefault()
    host.handle({ type: 'step', id: 2, ms: 10 })
    await inbox.next((m) => m.type === 'status' && m.status === 'paused' && m.nowMs >= 10)
    const bad = JSON.parse(scenarioText(DEFAULT)) as { vcs: { rif?: number }[] }
    bad.vcs[0].rif = 0.3
    host.handle({ type: 'swap', id: 3, scenarioJson: JSON.stringify(bad) })
    const refused = await inbox.reply(3)
    expect(refused.type).toBe('rejected')
    if (refused.type === 'rejected') expect(refused.errors[0].path).toBe('vcs.vc1.rif')
    // The run refused a swap for is the one still there, where it was.
    host.handle({ type: 'step', id: 4, ms: 5 })
    await inbox.next((m) => m.type === 'status' && m.status === 'paused' && m.nowMs >= 15)

    host.handle({ type: 'keep', id: 5, scenarioJson: JSON.stringify(bad) })
    expect((await inbox.reply(5)).type).toBe('rejected')
    host.handle({ type: 'keep', id: 6, scenarioJson: scenarioText(DEFAULT) })
    expect(await inbox.reply(6)).toMatchObject({ type: 'kept', id: 6 })

    host.handle({ type: 'swap', id: 7, scenarioJson: scenarioText(DEFAULT) })
    expect((await inbox.reply(7)).type).toBe('loaded')
    expect(inbox.messages.at(-1)).toMatchObject({ type: 'status', status: 'paused', nowMs: 0 })
  })

  it("refuses, before building, a run over the cost limits (the engine's own check)", async () => {
    const inbox = new Inbox()
    const host = new EngineHost(realEngine(), inbox.post)
    const scenario = JSON.parse(scenarioText(DEFAULT))
    scenario.run.until_ms = 600_000
    host.handle({ type: 'load', id: 1, scenarioJson: JSON.stringify(scenario) })
    const reply = await inbox.reply(1)
    expect(reply.type).toBe('rejected')
    if (reply.type !== 'rejected') return
    expect(reply.errors[0].path).toMatch(/^vcs\./)
    expect(reply.errors[0].message).toContain('limits.max_events')
  })

  it('stops a run whose wasm memory passes the limit, with a message', async () => {
    const inbox = new Inbox()
    let bytes = 64 * 1024 * 1024
    const host = new EngineHost({ ...realEngine(), memoryBytes: () => bytes }, inbox.post)
    host.handle({ type: 'load', id: 1, scenarioJson: scenarioText(DEFAULT) })
    loadedLayout(await inbox.reply(1))
    host.handle({ type: 'speed', id: 2, speed: null })
    await inbox.reply(2)
    bytes = WASM_MEMORY_LIMIT_BYTES + 1
    host.handle({ type: 'play', id: 3 })
    const fatal = await inbox.next((m) => m.type === 'fatal')
    expect(fatal.type === 'fatal' && fatal.message).toMatch(/over its limit of 1024 MB/)
    expect(inbox.messages.some((m) => m.type === 'status' && m.status === 'finished')).toBe(false)
  })

  it('plays to a lecture stop and pauses exactly at its time, then on to the end', async () => {
    const { inbox, host, loaded } = await loadedDefault()
    const layout = loadedLayout(loaded)
    host.handle({ type: 'speed', id: 2, speed: null })
    host.handle({ type: 'play', id: 3, pauseAtMs: 37.25 })
    expect(await inbox.reply(3)).toEqual({ type: 'ok', id: 3 })
    await inbox.next((m) => m.type === 'status' && m.status === 'paused' && m.nowMs > 0)
    expect(inbox.messages.filter((m) => m.type === 'status').at(-1)).toMatchObject({
      status: 'paused',
      nowMs: 37.25,
    })
    const store = new SampleStore(layout.columns)
    for (const batch of inbox.samples()) store.append(batch.rows)
    // Samples come every 0.5 ms: the last one before the stop.
    expect(store.last(column.time)).toBe(37)
    // Playing on without a stop runs to the end; a stop already passed is ignored.
    host.handle({ type: 'play', id: 4, pauseAtMs: 10 })
    await inbox.next((m) => m.type === 'status' && m.status === 'finished')
  })

  it('steps a given stretch of simulated time and stays paused', async () => {
    const { inbox, host, loaded } = await loadedDefault()
    const layout = loadedLayout(loaded)
    host.handle({ type: 'step', id: 2, ms: 0.5 })
    expect(await inbox.reply(2)).toEqual({ type: 'ok', id: 2 })
    host.handle({ type: 'step', id: 3, ms: 0.5 })
    await inbox.reply(3)
    const statuses = inbox.messages.filter((m) => m.type === 'status')
    expect(statuses.at(-1)).toMatchObject({ status: 'paused', nowMs: 1 })
    const store = new SampleStore(layout.columns)
    for (const batch of inbox.samples()) store.append(batch.rows)
    expect(Array.from(store.series(column.time))).toEqual([0.5, 1])
    // A step past the end stops at the end.
    host.handle({ type: 'step', id: 4, ms: 10_000 })
    await inbox.reply(4)
    expect(inbox.messages.filter((m) => m.type === 'status').at(-1)).toMatchObject({
      status: 'finished',
      nowMs: layout.until_ms,
    })
  })

  it('changes parameters of the running simulation: live, restart, or refused with a path', async () => {
    const { inbox, host } = await loadedDefault()
    host.handle({ type: 'step', id: 2, ms: 20 })
    await inbox.reply(2)
    host.handle({ type: 'set', id: 3, path: 'vcs.vc1.rif', valueJson: '1' })
    const live = await inbox.reply(3)
    expect(live).toMatchObject({ type: 'param', applied: 'live', nowMs: 20 })
    host.handle({ type: 'set', id: 4, path: 'links.l3.rate_mbps', valueJson: '100' })
    expect(await inbox.reply(4)).toMatchObject({ type: 'param', applied: 'restart' })
    host.handle({ type: 'set', id: 5, path: 'vcs.vc1.rif', valueJson: '0.3' })
    const refused = await inbox.reply(5)
    expect(refused.type).toBe('rejected')
    if (refused.type === 'rejected') expect(refused.errors[0].path).toBe('vcs.vc1.rif')
    // Reset rebuilds the scenario as edited, live changes included.
    host.handle({ type: 'reset', id: 6 })
    expect((await inbox.reply(6)).type).toBe('loaded')
  })

  it('makes an operation on the document it runs: built when the engine runs it, else kept', async () => {
    const inbox = new Inbox()
    const host = new EngineHost(realEngine(), inbox.post)
    const doc = JSON.parse(scenarioText(DEFAULT)) as JsonObject
    host.handle({ type: 'load', id: 1, scenarioJson: JSON.stringify(doc) })
    await inbox.reply(1)
    host.handle({ type: 'step', id: 2, ms: 10 })
    await inbox.reply(2)
    const page = (from: JsonObject, op: Operation): JsonObject => {
      const outcome = change(from, op)
      if (outcome === null || 'refused' in outcome) throw new Error('the page refuses it')
      return outcome.scenario
    }
    const digest = (of: JsonObject) => documentDigest(JSON.stringify(of))

    // A stop: validated and kept, the run untouched.
    const stop: Operation = { op: 'addStop', tMs: 60, title: 'Q', text: 'Q.' }
    const withStop = page(doc, stop)
    host.handle({ type: 'edit', id: 3, op: stop })
    const kept = { type: 'edited', layoutJson: null, digest: digest(withStop) }
    expect(await inbox.reply(3)).toMatchObject(kept)
    host.handle({ type: 'step', id: 4, ms: 5 })
    await inbox.next((m) => m.type === 'status' && m.status === 'paused' && m.nowMs >= 15)

    // A VC removed: built in place of the run.
    const remove: Operation = { op: 'remove', selection: { kind: 'vc', id: 'vc2' } }
    host.handle({ type: 'edit', id: 5, op: remove })
    const built = await inbox.reply(5)
    expect(built).toMatchObject({ type: 'edited', digest: digest(page(withStop, remove)) })
    if (built.type !== 'edited' || built.layoutJson === null) throw new Error('not built')
    expect(parseLayout(built.layoutJson).vcs.map((v) => v.id)).not.toContain('vc2')
    expect(inbox.messages.at(-1)).toMatchObject({ type: 'status', status: 'paused', nowMs: 0 })

    // Refused, by the same function the page uses: nothing changed.
    host.handle({ type: 'edit', id: 6, op: remove })
    expect(await inbox.reply(6)).toMatchObject({ type: 'rejected' })

    // Reset rebuilds the document as edited: the stop kept, vc2 gone, a live value in it.
    host.handle({ type: 'set', id: 7, path: 'vcs.vc1.rif', valueJson: '1' })
    expect((await inbox.reply(7)).type).toBe('param')
    host.handle({ type: 'reset', id: 8 })
    const layout = loadedLayout(await inbox.reply(8))
    expect(layout.vcs.map((v) => v.id)).not.toContain('vc2')
    expect(layout.scenario.stops.map((s) => s.t_ms)).toContain(60)
  })

  it('posts rows in the buffers the page gives back, the same rows as in new ones', async () => {
    const run = async (mod: EngineModule, recycle: boolean) => {
      const { inbox, host } = await loadedDefault(mod)
      const rows: number[][] = []
      const buffers: ArrayBufferLike[] = []
      for (let id = 2; id < 8; id++) {
        host.handle({ type: 'step', id, ms: 5 })
        await inbox.reply(id)
        const sent = inbox.samples().at(-1)?.rows ?? new Float64Array(0)
        rows.push([...sent])
        buffers.push(sent.buffer)
        if (recycle && sent.buffer instanceof ArrayBuffer)
          host.handle({ type: 'recycle', id: 0, buffer: sent.buffer })
      }
      return { rows, buffers }
    }
    const mod = realEngine()
    // Buffers not given back: the host takes a new one for every post.
    const fresh = await run(mod, false)
    const reused = await run(mod, true)
    expect(reused.rows).toEqual(fresh.rows)
    expect(reused.rows.every((r) => r.length > 0)).toBe(true)
    // One buffer, handed back and forth.
    expect(new Set(reused.buffers).size).toBe(1)
    expect(new Set(fresh.buffers).size).toBe(fresh.buffers.length)
  })
})
