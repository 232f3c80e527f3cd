/**
 * The Lab store with the real engine behind an in-process worker: an edit after the end of a run
 * replaces it by the one path (the run pinned, the status line says so, one undo brings back the
 * scenario and that run); an edit mid-run that the model takes live leaves the run going; every
 * operation is validated by the worker's engine alone, and one undo restores the document exactly.
 */
import { describe, expect, it } from 'vitest'
import type { EngineHost } from '../engine/engineHost'
import type { EngineInfo } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'
import { openLab, until } from '../test/inProcess'
import type { Lab } from './lab'
import type { Operation } from './operation'

async function labAtEnd(): Promise<Lab> {
  const lab = await openLab()
  lab.run.setSpeed(null)
  lab.run.play()
  await until(() => lab.run.get().status === 'finished')
  return lab
}

const rif = (value: number): Operation => ({
  op: 'set',
  path: 'vcs.vc1.rif',
  value,
  label: `RIF of vc1 = ${value}`,
})

/** A knob given to a port that inherited its algorithm: the algorithm object is created. */
const portKnob: Operation = {
  op: 'assign',
  sets: [
    { path: 'links.l3.a_to_b.algorithm.kind', value: 'erica' },
    { path: 'links.l3.a_to_b.algorithm.target_utilization', value: 0.8 },
  ],
  label: 'Target utilisation of port SW1→SW2 = 0.8',
}

/** A link's delay in place of its length: one setting removed, another made. */
const delayForLength: Operation = {
  op: 'assign',
  sets: [
    { path: 'links.l1.length_km', value: undefined },
    { path: 'links.l1.delay_ms', value: 5 },
  ],
  label: 'Delay of l1 = 5 ms',
}

describe('the Lab', () => {
  it('pins a finished run an edit replaces, and one undo brings back the scenario and that run', async () => {
    const lab = await labAtEnd()
    const doc = lab.get().scenario as JsonObject
    const endMs = lab.run.get().nowMs
    const acr = Array.from(lab.run.get().store?.series('vc.vc1.acr') ?? [])
    expect(acr.length).toBeGreaterThan(100)

    expect(await lab.apply(rif(1))).toBeNull()
    await until(() => lab.get().pinned !== null && lab.run.get().status === 'paused')
    expect(lab.get().announcement?.text).toContain('restarted — the previous run is pinned')
    expect(lab.get().pinned?.label).toBe('Two-source WAN transient (ERICA, Nrm 32, RIF 1/16)')
    expect(Array.from(lab.get().pinned?.store.series('vc.vc1.acr') ?? [])).toEqual(acr)
    expect(lab.run.get().nowMs).toBe(0)

    expect(await lab.undo()).toBeNull()
    expect(JSON.stringify(lab.get().scenario)).toBe(JSON.stringify(doc))
    expect(lab.get().pinned).toBeNull()
    await until(() => lab.run.get().nowMs >= endMs)
    expect(Array.from(lab.run.get().store?.series('vc.vc1.acr') ?? [])).toEqual(acr)
    lab.run.dispose()
  })

  it('takes an edit the model can change mid-run live, without a pin', async () => {
    const lab = await openLab()
    lab.run.step(20)
    await until(() => lab.run.get().nowMs >= 20)

    expect(await lab.apply(rif(1))).toBeNull()
    expect(lab.get().announcement?.text).toContain('applied live at t = 20.0 ms')
    expect(lab.get().pinned).toBeNull()
    expect(lab.run.get().nowMs).toBe(20)
    expect(lab.get().history.past).toHaveLength(1)
    expect(lab.get().history.past[0].run).toBeUndefined()
    lab.run.dispose()
  })

  it('restores the exact document with one undo of each kind of operation', async () => {
    const lab = await openLab()
    lab.run.step(20)
    await until(() => lab.run.get().nowMs >= 20)
    const ops: Operation[] = [
      rif(0.25),
      portKnob,
      delayForLength,
      { op: 'addNode', kind: 'switch', at: { x: 10, y: 10 } },
      { op: 'remove', selection: { kind: 'vc', id: 'vc2' } },
      { op: 'moveNode', id: 'SW1', x: 1, y: 2 },
      { op: 'addStop', tMs: 60, title: 'Queue', text: 'The queue grows.' },
    ]
    for (const op of ops) {
      const before = JSON.stringify(lab.get().scenario)
      expect(await lab.apply(op), op.op).toBeNull()
      expect(JSON.stringify(lab.get().scenario), op.op).not.toBe(before)
      expect(await lab.undo()).toBeNull()
      expect(JSON.stringify(lab.get().scenario), op.op).toBe(before)
      expect(await lab.redo()).toBeNull()
      expect(await lab.undo()).toBeNull()
      expect(JSON.stringify(lab.get().scenario), op.op).toBe(before)
    }
    lab.run.dispose()
  })

  it('makes a dragged slider one undo step, sending only the latest of the steps waiting', async () => {
    const lab = await openLab()
    lab.run.step(20)
    await until(() => lab.run.get().nowMs >= 20)
    const before = JSON.stringify(lab.get().scenario)
    const steps = [0.125, 0.25, 0.5, 1].map((v) => lab.apply(rif(v), 'vc-vc1-rif'))
    expect(await Promise.all(steps)).toEqual([null, null, null, null])
    expect(lab.get().history.past).toHaveLength(1)
    expect(lab.get().liveMarks.length).toBeLessThan(4)
    expect(await lab.undo()).toBeNull()
    expect(JSON.stringify(lab.get().scenario)).toBe(before)
    lab.run.dispose()
  })

  it('keeps the worker’s copy of the scenario in step with a stop edit, without a new run', async () => {
    const lab = await openLab()
    const layout = lab.run.get().layout
    expect(await lab.apply({ op: 'addStop', tMs: 60, title: 'Q', text: 'Q.' })).toBeNull()
    expect(lab.run.get().layout).toBe(layout)
    // Reset before anything ran rebuilds from the engine's own copy: the stop is in it.
    lab.restart()
    await until(() => lab.run.get().layout !== layout && lab.run.get().layout !== null)
    expect(lab.run.get().layout?.scenario.stops.map((s) => s.t_ms)).toContain(60)
    lab.run.dispose()
  })

  it('leaves document and history as they were when the engine refuses a set, and says why', async () => {
    const hosts: EngineHost[] = []
    const lab = await openLab('two-source-wan', (host) => hosts.push(host))
    lab.run.step(20)
    await until(() => lab.run.get().nowMs >= 20)
    const { scenario, history } = lab.get()
    const refused = await lab.apply(rif(0.3))
    expect(refused).toMatch(/^vcs\.vc1\.rif: /)
    expect(lab.get().scenario).toBe(scenario)
    expect(lab.get().history).toBe(history)
    expect(lab.run.get().nowMs).toBe(20)
    expect(lab.get().pinned).toBeNull()
    // Refused after a value that made a setting: the worker's document is the page's again.
    const badKnob: Operation = {
      ...portKnob,
      sets: [portKnob.sets[0], { path: portKnob.sets[1].path, value: 5 }],
    }
    expect(await lab.apply(badKnob)).toMatch(/target_utilization/)
    expect(lab.get().scenario).toBe(scenario)
    expect(JSON.stringify(hosts[0].document.current)).toBe(JSON.stringify(scenario))
    // The run goes on with the document: a valid value is still taken live.
    expect(await lab.apply(rif(1))).toBeNull()
    expect(lab.get().announcement?.text).toContain('applied live at t = 20.0 ms')
    lab.run.dispose()
  })

  it('asks the page thread’s engine nothing about an edit: the worker validates it', async () => {
    const lab = await openLab()
    const info = lab.get().info as EngineInfo
    const refuse = () => {
      throw new Error('an edit was validated on the page thread')
    }
    lab.setInfo({ ...info, validate: refuse })
    lab.run.step(20)
    await until(() => lab.run.get().nowMs >= 20)
    expect(await lab.apply(rif(1))).toBeNull()
    expect(await lab.apply({ op: 'addStop', tMs: 60, title: 'Q', text: 'Q.' })).toBeNull()
    expect(await lab.apply({ op: 'remove', selection: { kind: 'vc', id: 'vc2' } })).toBeNull()
    expect(await lab.apply(rif(0.3))).toMatch(/vcs\.vc1\.rif/)
    expect(await lab.undo()).toBeNull()
    expect(lab.get().history.past.map((e) => e.label)).toEqual([
      'RIF of vc1 = 1',
      'Add stop “Q” at 60 ms',
    ])
    lab.run.dispose()
  })

  it('keeps the worker’s document the same as the page’s through sets, stops and structural edits', async () => {
    const hosts: EngineHost[] = []
    const sent: string[] = []
    const lab = await openLab('two-source-wan', (h) => {
      hosts.push(h)
      const handle = h.handle.bind(h)
      h.handle = (request) => {
        sent.push(request.type)
        handle(request)
      }
    })
    // A step that replaced the run is rebuilt after it resolves: the worker has its document then.
    const same = async (what: string) => {
      const worker = () => JSON.stringify(hosts[0].document.current)
      const page = JSON.stringify(lab.get().scenario)
      await until(() => worker() === page, 5_000).catch(() => undefined)
      expect(worker(), what).toBe(page)
    }
    lab.run.step(20)
    await until(() => lab.run.get().nowMs >= 20)
    await same('loaded')
    const positions = new Map([
      ['S1', { x: 10, y: 20 }],
      ['SW1', { x: 40, y: 20 }],
    ])
    const ops: Operation[] = [
      rif(0.25),
      portKnob,
      delayForLength,
      { op: 'addStop', tMs: 60, title: 'Queue', text: 'The queue grows.' },
      { op: 'editStop', index: 0, title: 'First', text: 'Look here.' },
      { op: 'moveNode', id: 'SW1', x: 50, y: 30, positions },
      { op: 'addNode', kind: 'switch', at: { x: 70, y: 70 } },
      { op: 'addLink', a: 'SW2', b: 'SW3', defaults: { rate_mbps: 155, length_km: 1 } },
      { op: 'addVc', path: ['S1', 'SW1', 'SW2', 'D2'] },
      { op: 'remove', selection: { kind: 'vc', id: 'vc2' } },
      { op: 'removeStop', index: 0 },
      rif(1),
    ]
    sent.length = 0
    for (const op of ops) {
      const before = JSON.stringify(lab.get().scenario)
      expect(await lab.apply(op), op.op).toBeNull()
      expect(JSON.stringify(lab.get().scenario), op.op).not.toBe(before)
      await same(op.op)
    }
    // Values go as sets, every other operation as it is: no document was sent for them.
    expect(sent.filter((type) => type === 'edit')).toHaveLength(9)
    expect(sent).not.toContain('swap')
    expect(sent).not.toContain('keep')
    for (const op of [...ops].reverse()) {
      expect(await lab.undo(), `undo ${op.op}`).toBeNull()
      await same(`undo ${op.op}`)
    }
    for (const op of ops.slice(0, 6)) {
      expect(await lab.redo(), `redo ${op.op}`).toBeNull()
      await same(`redo ${op.op}`)
    }
    lab.run.dispose()
  })

  it('refuses an edit whose result differs in the worker, says so and rebuilds from the page’s', async () => {
    const hosts: EngineHost[] = []
    const lab = await openLab('two-source-wan', (host) => hosts.push(host))
    const doc = lab.get().scenario as JsonObject
    const [worker] = hosts
    worker.document.keep(JSON.stringify({ ...doc, title: 'Another title' }))
    const refused = await lab.apply({ op: 'remove', selection: { kind: 'vc', id: 'vc2' } })
    expect(refused).toMatch(/differs from the page’s|differs from the page's/)
    expect(lab.get().scenario).toBe(doc)
    expect(lab.get().announcement?.tone).toBe('error')
    await until(() => worker.document.current?.title === doc.title)
    expect(JSON.stringify(worker.document.current)).toBe(JSON.stringify(doc))
    lab.run.dispose()
  })
})
