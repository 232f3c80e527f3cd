import { describe, expect, it } from 'vitest'
import { realEngine, scenarioText } from '../test/realEngine'
import { createEngineInfo, isAlgorithmScope } from './engineInfo'

describe('engine info', () => {
  const info = createEngineInfo(realEngine())

  it('reads the choices the engine accepts from the engine', () => {
    expect(info.choices.algorithms).toContain('erica')
    expect(info.choices.algorithms).toContain('none')
    expect(info.choices.queues).toContain('fifo')
    expect(info.choices.traffic).toEqual(expect.arrayContaining(['persistent', 'on_off']))
    expect(info.choices.startup).toEqual(expect.arrayContaining(['atm_forum', 'rate', 'rm']))
  })

  it('knows which traffic keys each traffic model reads', () => {
    expect(info.choices.trafficKeys.persistent).toEqual(['start_ms', 'stop_ms'])
    expect(info.choices.trafficKeys.on_off).toEqual(
      expect.arrayContaining(['start_ms', 'on_ms', 'off_ms']),
    )
    expect(info.choices.trafficKeys.on_off).not.toContain('rate_mbps')
  })

  it('has the registry, with every ABR parameter of Fahmy et al. Table 1', () => {
    const vc = info.params('vc').map((p) => p.key)
    for (const key of [
      'pcr_mbps',
      'mcr_mbps',
      'icr_mbps',
      'tcr_cps',
      'nrm',
      'mrm',
      'trm_ms',
      'rif',
      'rdf',
      'adtf_s',
      'tbe_cells',
      'cdf',
    ]) {
      expect(vc).toContain(key)
    }
    expect(info.param('vc', 'rif')?.kind).toBe('pow2')
    // Every algorithm kind's knobs sit in a scope of its name.
    for (const p of info.registry.filter((p) => isAlgorithmScope(p.scope))) {
      expect(info.choices.algorithms).toContain(p.scope)
    }
  })

  it('validates', () => {
    expect(info.validate(scenarioText('two-source-wan')).ok).toBe(true)
    const bad = info.validate('{"format":"abr-lab/scenario"}')
    expect(bad.ok).toBe(false)
  })
})
