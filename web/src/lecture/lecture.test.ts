/**
 * The lecture on the Lab store, with the real engine behind an in-process worker: playing pauses
 * exactly at each narrated stop; adding, removing or undoing a stop is one undo step of the
 * document that never restarts the run, and a parameter changed after it is still taken live; a
 * stop added ahead of a playing run is where it pauses.
 */
import { describe, expect, it } from 'vitest'
import type { Lab } from '../lab/lab'
import type { JsonObject } from '../scenario/paths'
import { openLab, until } from '../test/inProcess'

/** Plays on to the next stop and waits until the run has paused past `fromMs`. */
async function playToNextStop(lab: Lab, fromMs: number): Promise<number> {
  lab.lecture.playOn()
  await until(() => lab.run.get().status === 'paused' && lab.run.get().nowMs > fromMs)
  return lab.run.get().nowMs
}

const lastTime = (lab: Lab) => {
  const t = lab.run.get().store?.series('t_ms') ?? new Float64Array()
  return t[t.length - 1]
}

const scenarioOf = (lab: Lab) => lab.get().scenario as JsonObject

describe('the lecture on the Lab', () => {
  it('pauses exactly at each stop; stop edits are undoable and never restart the run', async () => {
    const lab = await openLab()
    lab.run.setSpeed(null)
    expect(lab.lecture.nextPauseMs()).toBe(20)
    expect(await playToNextStop(lab, 0)).toBe(20)
    expect(lastTime(lab)).toBe(20)
    const layout = lab.run.get().layout

    // A stop of the lecturer's own at 60 ms: one undo step, the run untouched.
    expect(
      await lab.apply({ op: 'addStop', tMs: 60, title: 'Queue', text: 'The queue grows.' }),
    ).toBeNull()
    expect(lab.get().history.past.map((e) => e.label)).toEqual(['Add stop “Queue” at 60 ms'])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(lab.run.get().layout).toBe(layout)
    expect(lab.run.get().nowMs).toBe(20)
    expect(lab.get().pinned).toBeNull()
    expect(await playToNextStop(lab, 20)).toBe(60)
    expect(lastTime(lab)).toBe(60)

    // A parameter changed now is taken live: the stop is no difference the engine is offered.
    expect(
      await lab.apply({ op: 'set', path: 'vcs.vc1.rif', value: 1, label: 'RIF of vc1 = 1' }),
    ).toBeNull()
    await until(() => lab.get().announcement !== null)
    expect(lab.get().announcement?.text).toContain('applied live at t = 60.0 ms')

    // Removing a stop, and undoing that, leave the run where it is too.
    const index = (scenarioOf(lab).stops as JsonObject[]).findIndex((s) => s.t_ms === 100)
    expect(await lab.apply({ op: 'removeStop', index })).toBeNull()
    expect(lab.lecture.nextPauseMs()).toBe(200)
    expect(await lab.undo()).toBeNull()
    expect(lab.lecture.nextPauseMs()).toBe(100)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(lab.run.get().layout).toBe(layout)
    expect(lab.run.get().nowMs).toBe(60)
    expect(lab.get().announcement?.tone).toBe('live')
    expect(await playToNextStop(lab, 60)).toBe(100)
    lab.run.dispose()
  })

  it('pauses at a stop added ahead of the playing run, and plays through with stops off', async () => {
    const lab = await openLab()
    lab.lecture.setPauseAtStops(false)
    expect(lab.lecture.nextPauseMs()).toBeUndefined()
    // Ten simulated ms per second: slow enough to add a stop ahead of the run.
    lab.run.setSpeed(10)
    lab.lecture.playOn()
    await until(() => lab.run.get().status === 'running' && lab.run.get().nowMs > 0.5)
    const at = Math.ceil(lab.run.get().nowMs) + 3
    lab.lecture.setPauseAtStops(true)
    expect(
      await lab.apply({ op: 'addStop', tMs: at, title: 'Here', text: 'Right here.' }),
    ).toBeNull()
    await until(() => lab.run.get().status === 'paused')
    expect(lab.run.get().nowMs).toBe(at)
    expect(lastTime(lab)).toBeLessThanOrEqual(at)
    lab.run.dispose()
  })
})
