/**
 * The widget's tie between the notebook's model and the Lab, with the real engine in process: a
 * `set` from Python is applied as `abrsim --set` reads it (live mid-run) and the document goes
 * back to Python; a refused one says why, naming the path; the samples pushed to Python are the
 * store's rows exactly; a scenario assigned in Python replaces the run.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../scenario/paths'
import { openLab, until } from '../test/inProcess'
import { connectModel, pushInterval, samplesPayload, type WidgetModel } from './model'

/** The anywidget model as the widget sees it: traits, change events and custom messages. */
class FakeModel implements WidgetModel {
  readonly traits = new Map<string, unknown>()
  saves = 0
  private readonly handlers = new Map<string, Set<(...args: unknown[]) => void>>()
  get(name: string): unknown {
    return this.traits.get(name)
  }
  set(name: string, value: unknown): void {
    this.traits.set(name, value)
  }
  save_changes(): void {
    this.saves += 1
  }
  on(event: string, callback: (...args: unknown[]) => void): void {
    const set = this.handlers.get(event) ?? new Set()
    set.add(callback)
    this.handlers.set(event, set)
  }
  off(event: string, callback: (...args: unknown[]) => void): void {
    this.handlers.get(event)?.delete(callback)
  }
  /** What Python does: a trait assigned there, or `widget.send(...)`. */
  fromPython(event: string, ...args: unknown[]): void {
    for (const h of this.handlers.get(event) ?? []) h(...args)
  }
}

const vcRifs = (doc: unknown) => (doc as { vcs: { rif?: unknown }[] }).vcs.map((vc) => vc.rif)

describe('the widget model', () => {
  it('applies a set from Python live and sends the document back; a bad path is refused by name', async () => {
    const lab = await openLab()
    const model = new FakeModel()
    model.set('scenario', lab.get().scenario)
    const disconnect = connectModel(lab, model)
    lab.run.step(20)
    await until(() => lab.run.get().nowMs >= 20)

    model.fromPython('msg:custom', { type: 'set', path: 'vcs.*.rif', raw: '1/4' })
    // The engine's answer comes back from the worker: the document changes once it accepted.
    await until(() => vcRifs(lab.get().scenario)[0] === 0.25)
    expect(vcRifs(lab.get().scenario)).toEqual([0.25, 0.25])
    expect(vcRifs(model.get('scenario'))).toEqual([0.25, 0.25])
    await until(() => String(model.get('status')).includes('applied live'))
    expect(lab.run.get().nowMs).toBe(20)

    model.fromPython('msg:custom', { type: 'set', path: 'vcs.nope.rif', raw: '1' })
    await until(() => String(model.get('status')).startsWith('Refused'))
    expect(String(model.get('status'))).toMatch(/^Refused: vcs\.nope/)
    expect(vcRifs(lab.get().scenario)).toEqual([0.25, 0.25])

    // The pace both ways: set in Python, and from the transport back to Python.
    model.set('speed', 10)
    model.fromPython('change:speed')
    expect(lab.run.get().speed).toBe(10)
    lab.run.setSpeed(null)
    expect(model.get('speed')).toBeNull()

    // A scenario the engine refuses leaves the lab's document, which goes back to Python.
    const kept = lab.get().scenario
    model.set('scenario', { ...kept, vcs: 'none' })
    model.fromPython('change:scenario')
    await until(() => String(model.get('status')).includes('refused'))
    expect(String(model.get('status'))).toMatch(/^The scenario from Python was refused: .*vcs/)
    expect(model.get('scenario')).toBe(kept)
    expect(lab.get().scenario).toBe(kept)
    disconnect()
    lab.run.dispose()
  })

  it('pushes the rows the page holds when the run ends, and opens a scenario assigned in Python', async () => {
    const lab = await openLab()
    const model = new FakeModel()
    model.set('scenario', lab.get().scenario)
    const disconnect = connectModel(lab, model)
    lab.run.setSpeed(null)
    lab.run.play()
    await until(() => lab.run.get().status === 'finished')
    const store = lab.run.get().store
    if (!store) throw new Error('no store')
    const columns = model.get('_columns') as string[]
    const bytes = model.get('_samples') as DataView
    expect(columns).toEqual([...store.columns])
    const values = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8)
    expect(values.length).toBe(store.rowCount * columns.length)
    const acr = columns.indexOf('vc.vc1.acr')
    const pushed = Array.from(
      { length: store.rowCount },
      (_, r) => values[r * columns.length + acr],
    )
    expect(pushed).toEqual(Array.from(store.series('vc.vc1.acr')))

    const next = structuredClone(lab.get().scenario) as JsonObject & { title: string }
    next.title = 'From the notebook'
    model.set('scenario', next)
    model.fromPython('change:scenario')
    await until(() => lab.run.get().layout?.scenario.title === 'From the notebook')
    disconnect()
    lab.run.dispose()
  })

  it('pushes samples while running once a second, less often when they are many MB', () => {
    expect(pushInterval(8 * 1000 * 100)).toBe(1000)
    expect(pushInterval(40_000_000)).toBe(10_000)
  })

  it('lays the samples out row by row, one float64 a column', () => {
    const store = {
      columns: ['t_ms', 'x'],
      rowCount: 2,
      series: (name: string) => (name === 't_ms' ? [0.5, 1] : [Number.NaN, 3]),
    }
    const { columns, bytes } = samplesPayload(store)
    expect(columns).toEqual(['t_ms', 'x'])
    expect(Array.from(new Float64Array(bytes.buffer))).toEqual([0.5, Number.NaN, 1, 3])
  })
})
