import { describe, expect, it } from 'vitest'
import { chartSummary, chartTable } from './readout'

const series = [
  { key: 'vc.vc1.acr', label: 'vc1 ACR', color: '#000', x: [0, 50, 150], y: [10, 40, 70] },
  {
    key: 'vc.vc1.maxmin',
    label: 'vc1 max-min share',
    color: '#000',
    x: [0, 50, 150],
    y: [70, 70, 70],
    dash: '4 3',
  },
]

describe('chart readout', () => {
  it('says every series’ latest value at the latest time', () => {
    expect(chartSummary(series, 'Mbit/s')).toBe(
      'At t = 150.0 ms: vc1 ACR 70.0 Mbit/s, vc1 max-min share 70.0 Mbit/s.',
    )
    expect(chartSummary([], 'Mbit/s')).toBe('No data yet.')
  })

  it('tabulates the samples at evenly spaced times', () => {
    const table = chartTable(series, 4)
    expect(table.head).toEqual(['t', 'vc1 ACR', 'vc1 max-min share'])
    expect(table.body.map((r) => r[1])).toEqual(['10.0', '40.0', '40.0', '70.0'])
  })
})
