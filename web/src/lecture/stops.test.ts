import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../scenario/paths'
import {
  addStop,
  editStop,
  nextPause,
  presentingWith,
  readStops,
  removeStop,
  stopAt,
  stopChart,
} from './stops'

const doc = (): JsonObject => ({
  id: 'x',
  stops: [
    { id: 'b', t_ms: 100, title: 'Second', text: 'Later.' },
    { t_ms: 20, title: 'First', text: 'Early.', view: { chart: 'acr' } },
  ],
  questions: [{ id: 'q', before: 'b' }],
})

describe('lecture stops', () => {
  it('reads the stops in time order, keeping their place in the file', () => {
    const stops = readStops(doc())
    expect(stops.map((s) => [s.t_ms, s.index])).toEqual([
      [20, 1],
      [100, 0],
    ])
    expect(stops[0].view).toEqual({ selection: null, chart: 'acr', magnify: null })
  })

  it('pauses next at the first stop or question after now, never at now', () => {
    const stops = readStops(doc())
    expect(nextPause(stops, 0)).toBe(20)
    expect(nextPause(stops, 20)).toBe(100)
    expect(nextPause(stops, 20, [60])).toBe(60)
    expect(nextPause(stops, 100)).toBeUndefined()
    expect(stopAt(stops, 100)?.title).toBe('Second')
    expect(stopAt(stops, 99.5)).toBeNull()
  })

  it('adds, edits and removes a stop as a new document, leaving the old one as it was', () => {
    const before = doc()
    const added = addStop(before, 50.0004, 'Mine', 'A note.')
    if (!added.ok) throw new Error(added.message)
    expect(readStops(added.scenario).map((s) => s.t_ms)).toEqual([20, 50, 100])
    expect(readStops(before)).toHaveLength(2)
    expect(addStop(before, 1, ' ', 'x')).toEqual({
      ok: false,
      message: 'a stop needs a title and a note',
    })

    const edited = editStop(before, 1, 'Start', 'Now.')
    if (!edited.ok) throw new Error(edited.message)
    expect(readStops(edited.scenario)[0]).toMatchObject({ title: 'Start', text: 'Now.', t_ms: 20 })

    // Removing a stop a question is asked at leaves the question asked where its window begins.
    const removed = removeStop(before, 0)
    if (!removed.ok) throw new Error(removed.message)
    expect(readStops(removed.scenario).map((s) => s.title)).toEqual(['First'])
    expect(removed.scenario.questions).toEqual([{ id: 'q' }])
    // The last stop removed takes the key with it.
    const none = removeStop(removed.scenario, 0)
    expect(none.ok && 'stops' in none.scenario).toBe(false)
  })

  it('brings forward the chart a stop names, when the run has it', () => {
    const [first, second] = readStops(doc())
    const kinds = ['acr', 'queue', 'util'] as const
    expect(stopChart(first, kinds)).toBe('acr')
    expect(stopChart(second, kinds)).toBeNull()
    expect(stopChart(first, ['queue'])).toBeNull()
    // Presenting two charts: one already shown stays put; another comes first.
    expect(presentingWith(['queue', 'acr'], 'acr')).toEqual(['queue', 'acr'])
    expect(presentingWith(['acr', 'queue'], 'util')).toEqual(['util', 'acr'])
  })
})
