/**
 * The Lab store with the real engine behind an in-process worker: an edit after the end of a run
 * replaces it by the one path (the run pinned, the status line says so, one undo brings back the
 * scenario and that run); an edit mid-run that the model takes live leaves the run going.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../scenario/paths'
import { openLab, until } from '../test/inProcess'
import type { Lab } from './lab'

async function labAtEnd(): Promise<Lab> {
  const lab = await openLab()
  lab.run.setSpeed(null)
  lab.run.play()
  await until(() => lab.run.get().status === 'finished')
  return lab
}

function withRif(doc: JsonObject, rif: number): JsonObject {
  const next = structuredClone(doc) as { vcs: { id: string; rif?: number }[] }
  next.vcs[0].rif = rif
  return next as unknown as JsonObject
}

describe('the Lab', () => {
  it('pins a finished run an edit replaces, and one undo brings back the scenario and that run', async () => {
    const lab = await labAtEnd()
    const doc = lab.get().scenario as JsonObject
    const endMs = lab.run.get().nowMs
    const acr = Array.from(lab.run.get().store?.series('vc.vc1.acr') ?? [])
    expect(acr.length).toBeGreaterThan(100)

    expect(lab.apply({ ok: true, scenario: withRif(doc, 1), label: 'RIF of vc1 = 1' })).toBeNull()
    await until(() => lab.get().pinned !== null && lab.run.get().status === 'paused')
    expect(lab.get().announcement?.text).toContain('restarted — the previous run is pinned')
    expect(lab.get().pinned?.label).toBe('Two-source WAN transient (ERICA, Nrm 32, RIF 1/16)')
    expect(Array.from(lab.get().pinned?.store.series('vc.vc1.acr') ?? [])).toEqual(acr)
    expect(lab.run.get().nowMs).toBe(0)

    lab.undo()
    expect(lab.get().scenario).toBe(doc)
    expect(lab.get().pinned).toBeNull()
    await until(() => lab.run.get().nowMs >= endMs)
    expect(Array.from(lab.run.get().store?.series('vc.vc1.acr') ?? [])).toEqual(acr)
    lab.run.dispose()
  })

  it('takes an edit the model can change mid-run live, without a pin', async () => {
    const lab = await openLab()
    const doc = lab.get().scenario as JsonObject
    lab.run.step(20)
    await until(() => lab.run.get().nowMs >= 20)

    expect(lab.apply({ ok: true, scenario: withRif(doc, 1), label: 'RIF of vc1 = 1' })).toBeNull()
    await until(() => lab.get().announcement !== null)
    expect(lab.get().announcement?.text).toContain('applied live at t = 20.0 ms')
    expect(lab.get().pinned).toBeNull()
    expect(lab.run.get().nowMs).toBe(20)
    expect(lab.get().history.past).toHaveLength(1)
    expect(lab.get().history.past[0].run).toBeUndefined()
    lab.run.dispose()
  })
})
