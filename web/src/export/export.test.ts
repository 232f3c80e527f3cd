import { describe, expect, it } from 'vitest'
import { SampleStore } from '../engine/samples'
import { svgSize } from './chartImage'
import { slug } from './download'
import { csvField, samplesCsv, seriesCsv, seriesJson } from './series'

const t = new Float64Array([0.5, 1, 1.5])
const series = [
  {
    key: 'vc.vc1.acr',
    label: 'vc1 ACR',
    color: '#0072B2',
    x: t,
    y: new Float64Array([150, 140, 140]),
  },
  {
    key: 'vc.vc2.acr',
    label: 'vc2 ACR',
    color: '#D55E00',
    x: t,
    y: new Float64Array([Number.NaN, 70, 70.5]),
  },
  {
    key: 'pinned:vc.vc1.acr',
    label: 'vc1 ACR (pinned)',
    color: '#0072B2',
    x: new Float64Array([0.5]),
    y: new Float64Array([150]),
  },
]

describe('exports', () => {
  it('writes the series on one time axis as CSV, gaps empty', () => {
    expect(seriesCsv(series)).toBe('t_ms,vc.vc1.acr,vc.vc2.acr\n0.5,150,\n1,140,70\n1.5,140,70.5\n')
  })

  it('writes every series with its own time axis as JSON, gaps null', () => {
    const json = seriesJson('ACR', 'Mbit/s', series)
    expect(json.series).toHaveLength(3)
    expect(json.series[1].values).toEqual([null, 70, 70.5])
    expect(json.series[2].t_ms).toEqual([0.5])
    expect(JSON.parse(JSON.stringify(json))).toEqual(json)
  })

  it('exports every sample column of a run', () => {
    const store = new SampleStore(['t_ms', 'fairness'])
    store.append(new Float64Array([0.5, 1, 1, 0.98]))
    expect(samplesCsv(store)).toBe('t_ms,fairness\n0.5,1\n1,0.98\n')
  })

  it('quotes what CSV needs quoted and names files plainly', () => {
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(slug('Allowed cell rate per VC')).toBe('allowed-cell-rate-per-vc')
    expect(slug('Queue per port')).toBe('queue-per-port')
    expect(svgSize('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="380">')).toEqual({
      width: 640,
      height: 380,
    })
  })
})
