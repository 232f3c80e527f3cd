import { beforeAll, describe, expect, it } from 'vitest'
import { parseLayout, type Layout } from '../engine/layout'
import { realEngine, scenarioText } from '../test/realEngine'
import { guideFor, parameterGuide, TRM_C, type RegistryDefault, type VcParams } from './guide'

let registry: RegistryDefault[]

function layoutOf(text: string): Layout {
  const engine = new (realEngine().Engine)(text)
  try {
    return parseLayout(engine.layout())
  } finally {
    engine.free()
  }
}

beforeAll(() => {
  registry = JSON.parse(realEngine().param_registry()) as RegistryDefault[]
})

const oc3: VcParams = {
  pcrMbps: 155.52,
  icrMbps: 140,
  nrm: 32,
  trmMs: 100,
  adtfS: 0.5,
  tbeCells: 16_777_215,
  cdf: 1 / 16,
  crm: null,
}

describe('Fahmy et al. guidelines', () => {
  it('gives Trm = 100 ms at OC-3 and the inter-RM times of Table 2', () => {
    const g = guideFor(oc3, 30, 0)
    const pcr = 155.52e6 / 424
    expect(g.pcrCellsPerS).toBeCloseTo(pcr, 6)
    expect((TRM_C / pcr) * 1000).toBeCloseTo(101, 0)
    expect(g.checks.find((c) => c.id === 'trm')?.verdict).toBe('ok')
    const nrm32 = g.interRm.find((r) => r.nrm === 32)
    expect(nrm32?.current).toBe(true)
    expect(nrm32?.ms).toBeCloseTo(0.0872, 4)
  })

  it('flags the satellite link’s CRM of 32 and asks for about 6,300 (Fahmy et al. §6.2.1: “6144”)', () => {
    const text = scenarioText('fahmy-satellite-crm')
    const [guide] = parameterGuide(text, layoutOf(text), registry)
    expect(guide.frttMs).toBeCloseTo(2 * (275 + 2 * 0.005), 6)
    const crm = guide.checks.find((c) => c.id === 'crm')
    expect(crm?.verdict).toBe('warn')
    expect(crm?.guideline).toMatch(/= 6,3\d\d$/)
    expect(crm?.current).toContain('CRM = 32 (set directly)')
    // ICR 140 Mbit/s against TBE (the default, 16,777,215 cells) over 550 ms: fine, the bound
    // written with its thousands grouped as every other count of the guide.
    const icr = guide.checks.find((c) => c.id === 'icr')
    expect(icr?.verdict).toBe('ok')
    expect(icr?.guideline).toMatch(/ = 12,930 Mbit\/s$/)
    // ADTF 0.5 s is shorter than the 550 ms round trip.
    expect(guide.checks.find((c) => c.id === 'adtf')?.verdict).toBe('warn')
  })

  it('flags ICR above TBE/FRTT in the TBE experiment and says what the source starts at', () => {
    const text = scenarioText('fahmy-tbe')
    const guides = parameterGuide(text, layoutOf(text), registry)
    expect(guides.flatMap((g) => g.vcs).sort()).toEqual(['vc1', 'vc2'])
    const icr = guides[0].checks.find((c) => c.id === 'icr')
    // TBE 128 cells over a 30 ms FRTT: 4,267 cells/s ≈ 1.81 Mbit/s.
    expect(icr?.verdict).toBe('warn')
    expect(icr?.note).toContain('1.809 Mbit/s')
  })

  it('groups VCs with the same figures and follows the default scenario without warnings', () => {
    const text = scenarioText('two-source-wan')
    const guides = parameterGuide(text, layoutOf(text), registry)
    expect(guides).toHaveLength(1)
    expect(guides[0].vcs).toEqual(['vc1', 'vc2'])
    expect(guides[0].frttMs).toBeCloseTo(30, 6)
    expect(guides[0].checks.filter((c) => c.verdict === 'warn')).toEqual([])
  })
})
