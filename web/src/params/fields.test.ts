import { describe, expect, it } from 'vitest'
import { createEngineInfo } from '../scenario/engineInfo'
import { type Assignment, assign } from '../scenario/assign'
import { getPath, type JsonObject } from '../scenario/paths'
import { realEngine, scenarioText } from '../test/realEngine'
import type { ChoiceField, NumberField, Section } from './field'
import { sectionsFor } from './fields'

const info = createEngineInfo(realEngine())
const wan = (): JsonObject => JSON.parse(scenarioText('two-source-wan')) as JsonObject

function field(sections: Section[], id: string): NumberField {
  const found = sections.flatMap((s) => s.fields).find((f) => f.id === id)
  if (found?.type !== 'number')
    throw new Error(
      `no number field ${id}: ${sections
        .flatMap((s) => s.fields)
        .map((f) => f.id)
        .join(', ')}`,
    )
  return found
}

function choice(sections: Section[], id: string): ChoiceField {
  const found = sections.flatMap((s) => s.fields).find((f) => f.id === id)
  if (found?.type !== 'choice') throw new Error(`no choice field ${id}`)
  return found
}

/** The document with the assignments made, checked whole by the engine. */
function valid(doc: JsonObject, sets: readonly Assignment[]): JsonObject {
  const { scenario } = assign(doc, sets)
  const verdict = info.validate(JSON.stringify(scenario))
  if (!verdict.ok) throw new Error(JSON.stringify(verdict.errors))
  return scenario
}

describe('parameter panel fields', () => {
  it('has a field for every VC parameter of the registry, with the value in force and where it comes from', () => {
    const sections = sectionsFor(wan(), info, { kind: 'vc', id: 'vc1' })
    const keys = sections[0].fields
      .filter((f) => f.type === 'number')
      .map((f) => (f as NumberField).spec.key)
    expect(keys).toEqual(info.params('vc').map((p) => p.key))
    expect(field(sections, 'vc-vc1-rif')).toMatchObject({
      value: 0.0625,
      origin: 'inherited',
      originText: 'from the scenario’s VC defaults',
    })
    expect(field(sections, 'vc-vc1-nrm').value).toBe(32)
    expect(field(sections, 'vc-vc1-mrm')).toMatchObject({ value: 2, origin: 'default' })
    expect(field(sections, 'vc-vc1-crm')).toMatchObject({ value: null, unsetText: '⌈TBE/Nrm⌉' })
    expect(choice(sections, 'vc-vc1-startup').options).toEqual(
      expect.arrayContaining(['atm_forum', 'rate', 'rm']),
    )
    expect(choice(sections, 'vc-vc1-traffic-kind').value).toBe('persistent')
    expect(field(sections, 'vc-vc1-traffic-start_ms').softMax).toBe(300)
  })

  it('sets one VC, or every VC, by the paths the field knows (each for set_param)', () => {
    const doc = wan()
    const rif = field(sectionsFor(doc, info, { kind: 'vc', id: 'vc2' }), 'vc-vc2-rif')
    expect(rif.assign(0.25)).toEqual([{ path: 'vcs.vc2.rif', value: 0.25 }])
    const one = valid(doc, rif.assign(0.25))
    expect(getPath(one, 'vcs.vc2.rif')).toBe(0.25)
    expect(rif.applyAll?.(1).map((s) => s.path)).toEqual(['vcs.vc1.rif', 'vcs.vc2.rif'])
    const own = field(sectionsFor(one, info, { kind: 'vc', id: 'vc2' }), 'vc-vc2-rif')
    expect(own.clear).toEqual([{ path: 'vcs.vc2.rif', value: undefined }])
    expect(getPath(valid(one, own.clear ?? []), 'vcs.vc2.rif')).toBeUndefined()
  })

  it('gives a port without its own algorithm a copy of the inherited one when a knob changes', () => {
    const doc = wan()
    const sections = sectionsFor(doc, info, { kind: 'link', id: 'l3' })
    expect(sections.map((s) => s.title)).toEqual([
      'Link l3: SW1–SW2',
      'Port SW1 → SW2 (l3)',
      'Port SW2 → SW1 (l3)',
    ])
    const target = field(sections, 'port-l3-a_to_b-erica-target_utilization')
    expect(target).toMatchObject({ value: 0.9, origin: 'inherited' })
    const sets = target.assign(0.8)
    const after = valid(doc, sets)
    expect(getPath(after, 'links.l3.a_to_b.algorithm')).toEqual({
      kind: 'erica',
      target_utilization: 0.8,
      interval_ms: 5,
    })
    expect(getPath(after, 'defaults.switch_port.algorithm.target_utilization')).toBe(0.9)
    // Spelled out for set_param: kind first, then each knob.
    expect(sets.map((s) => s.path)).toEqual([
      'links.l3.a_to_b.algorithm.kind',
      'links.l3.a_to_b.algorithm.target_utilization',
      'links.l3.a_to_b.algorithm.interval_ms',
    ])
    expect(choice(sections, 'port-l3-a_to_b-algorithm').options).toEqual(info.choices.algorithms)
    expect(field(sections, 'port-l3-a_to_b-buffer_cells').value).toBe(100000)
  })

  it('keeps a link’s length and delay exclusive', () => {
    const doc = wan()
    const sections = sectionsFor(doc, info, { kind: 'link', id: 'l1' })
    expect(field(sections, 'link-l1-length_km').value).toBe(1000)
    expect(field(sections, 'link-l1-delay_ms')).toMatchObject({
      value: 5,
      originText: 'from the length (5 µs per km)',
    })
    const after = valid(doc, field(sections, 'link-l1-delay_ms').assign(2))
    expect(getPath(after, 'links.l1.delay_ms')).toBe(2)
    expect(getPath(after, 'links.l1.length_km')).toBeUndefined()
  })

  it('lists a switch’s ports bottleneck-first: the port its VCs leave by comes first', () => {
    const sw1 = sectionsFor(wan(), info, { kind: 'node', id: 'SW1' })
    expect(sw1.map((s) => s.title)).toEqual([
      'Port SW1 → SW2 (l3)',
      'Port SW1 → S1 (l1)',
      'Port SW1 → S2 (l2)',
    ])
    // Toward the hosts, each port carries one VC; the port back toward SW1 carries none.
    const sw2 = sectionsFor(wan(), info, { kind: 'node', id: 'SW2' })
    expect(sw2.map((s) => s.title)).toEqual([
      'Port SW2 → D1 (l4)',
      'Port SW2 → D2 (l5)',
      'Port SW2 → SW1 (l3)',
    ])
  })

  it('says beside a knob when it has no effect as the port is configured', () => {
    const ma = JSON.parse(scenarioText('ma-two-switch')) as JsonObject
    const sections = sectionsFor(ma, info, { kind: 'node', id: 'SW1' })
    const setPoint = field(sections, 'port-trunk-a_to_b-explicit_maxmin-set_point_cells')
    expect(setPoint.noEffect).toBe('No effect while Queue management is off.')
    expect(field(sections, 'port-trunk-a_to_b-explicit_maxmin-capacity_interval_ms').noEffect).toBe(
      undefined,
    )
    const managed = valid(
      ma,
      field(sections, 'port-trunk-a_to_b-explicit_maxmin-queue_management').assign(1),
    )
    const after = sectionsFor(managed, info, { kind: 'node', id: 'SW1' })
    expect(field(after, 'port-trunk-a_to_b-explicit_maxmin-set_point_cells').noEffect).toBe(
      undefined,
    )
  })

  it('shows the run with nothing selected, and a switch’s output ports when it is selected', () => {
    expect(
      sectionsFor(wan(), info, null)[0].fields.map((f) => (f as NumberField).spec.key),
    ).toEqual(['until_ms', 'seed', 'sample_interval_ms'])
    const trm = JSON.parse(scenarioText('fahmy-trm')) as JsonObject
    expect(sectionsFor(trm, info, null).some((s) => s.title.startsWith('Background'))).toBe(true)
  })
})
