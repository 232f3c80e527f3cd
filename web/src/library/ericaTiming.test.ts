import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../scenario/paths'
import { ericaTimings } from './ericaTiming'

function chain(algorithm: JsonObject, own?: JsonObject): JsonObject {
  return {
    defaults: { switch_port: { algorithm } },
    nodes: [
      { id: 'H1', kind: 'host' },
      { id: 'SW1', kind: 'switch' },
      { id: 'SW2', kind: 'switch' },
    ],
    links: [
      { id: 'l1', a: 'H1', b: 'SW1' },
      { id: 'l2', a: 'SW1', b: 'SW2', ...(own ? { a_to_b: { algorithm: own } } : {}) },
    ],
  }
}

describe('ericaTimings', () => {
  it('names the default and the basic timing by their kinds', () => {
    expect(ericaTimings(chain({ kind: 'erica' }))).toEqual([
      'ERICA with the default timing: CCR from forward RM cells, averaged over the interval the load was measured on, ER on forward and backward RM cells, RM cells sent before queued data',
    ])
    expect(ericaTimings(chain({ kind: 'erica_basic' }))).toEqual([
      'ERICA with basic timing: CCR from backward RM cells, ER on backward RM cells only, RM cells queued with data',
    ])
  })

  it('reads explicit options and a port of its own, and skips other algorithms', () => {
    const mixed = ericaTimings(chain({ kind: 'erica', forward_er: false }, { kind: 'erica_basic' }))
    expect(mixed).toHaveLength(2)
    expect(mixed[0]).toContain('ER on backward RM cells only, RM cells sent before queued data')
    expect(mixed[1]).toContain('basic timing')
    const latest = ericaTimings(chain({ kind: 'erica', ccr_interval_mean: false }))
    expect(latest[0]).toContain("CCR from each VC's latest forward RM cell")
    expect(ericaTimings(chain({ kind: 'explicit_maxmin' }))).toEqual([])
    expect(ericaTimings({})).toEqual([])
  })
})
