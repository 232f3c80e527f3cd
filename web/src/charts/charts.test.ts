import { curveLinear, curveStepAfter, line, scaleLinear } from 'd3'
import { beforeAll, describe, expect, it } from 'vitest'
import { column, parseLayout, portLabel, type Layout } from '../engine/layout'
import { SampleStore } from '../engine/samples'
import { realEngine, scenarioText } from '../test/realEngine'
import { acrChartModel, acrFromFirstCell, REFERENCE_DASH } from './acrChart'
import { colorMap, OKABE_ITO, seriesColor } from './palette'
import { bottleneckPorts, queueChartModel } from './queueChart'
import { chartScales, decimate, MARGIN, seriesPath, yDomainFrom, yTickFormat } from './timeSeries'

describe('time-series helpers', () => {
  it('maps the domains onto the plot area inside the margins', () => {
    const { x, y } = chartScales({ width: 500, height: 300, xDomain: [0, 300], yDomain: [0, 150] })
    expect(x(0)).toBe(MARGIN.left)
    expect(x(300)).toBe(500 - MARGIN.right)
    expect(y(0)).toBe(300 - MARGIN.bottom)
    expect(y(150)).toBe(MARGIN.top)
  })

  it('draws a path through every point when there are few', () => {
    const x = scaleLinear().domain([0, 2]).range([0, 200])
    const y = scaleLinear().domain([0, 10]).range([100, 0])
    expect(seriesPath({ x: [0, 1, 2], y: [0, 5, 10] }, x, y)).toBe('M0,100L100,50L200,0')
  })

  it('holds values between samples for step series', () => {
    const x = scaleLinear().domain([0, 2]).range([0, 200])
    const y = scaleLinear().domain([0, 10]).range([100, 0])
    expect(seriesPath({ x: [0, 1, 2], y: [0, 5, 10], curve: 'step' }, x, y)).toBe(
      'M0,100L100,100L100,50L200,50L200,0',
    )
  })

  it('breaks the line at non-finite values', () => {
    const x = scaleLinear().domain([0, 3]).range([0, 300])
    const y = scaleLinear().domain([0, 10]).range([100, 0])
    expect(seriesPath({ x: [0, 1, 2, 3], y: [0, Number.NaN, 10, 10] }, x, y)).toBe(
      'M0,100ZM200,0L300,0',
    )
  })

  it('writes the very path D3’s line generator writes', () => {
    const x = scaleLinear().domain([0, 500]).range([60, 737])
    const y = scaleLinear().domain([0, 155.52]).range([260, 12])
    let seed = 7
    const random = () => {
      seed = (seed * 16807) % 2147483647
      return seed / 2147483647
    }
    const xs = Float64Array.from({ length: 500 }, (_, i) => i + random() / 3)
    const ys = Float64Array.from({ length: 500 }, (_, i) =>
      i % 97 === 5 || i === 200 || i === 202 ? Number.NaN : random() * 155.52,
    )
    for (const curve of ['linear', 'step'] as const) {
      const d3Path = line<number>()
        .defined((i) => Number.isFinite(xs[i]) && Number.isFinite(ys[i]))
        .x((i) => x(xs[i]))
        .y((i) => y(ys[i]))
        .curve(curve === 'step' ? curveStepAfter : curveLinear)(xs.map((_, i) => i))
      expect(seriesPath({ x: xs, y: ys, curve }, x, y)).toBe(d3Path)
    }
  })

  it('decimates long series per pixel column but keeps the extremes', () => {
    const n = 10_000
    const xs = Float64Array.from({ length: n }, (_, i) => i)
    const ys = Float64Array.from({ length: n }, (_, i) =>
      i === 4321 ? 1000 : i === 8765 ? -1000 : Math.sin(i),
    )
    const scale = scaleLinear().domain([0, n]).range([0, 100])
    const kept = decimate(xs, ys, scale, 100)
    expect(kept.length).toBeLessThanOrEqual(4 * 101)
    expect(kept).toContain(4321)
    expect(kept).toContain(8765)
    expect(kept[0]).toBe(0)
    expect(kept.at(-1)).toBe(n - 1)
    for (let i = 1; i < kept.length; i++) expect(kept[i]).toBeGreaterThan(kept[i - 1])
  })

  it('writes large y ticks with SI prefixes so they fit the margin', () => {
    expect(yTickFormat(60_000)(50_000)).toBe('50k')
    expect(yTickFormat(7_500)(5_000)).toBe('5,000')
    expect(yTickFormat(1.05)(0.5)).toBe('0.5')
  })

  it('gives the y axis headroom and a floor', () => {
    expect(yDomainFrom(100, 10)).toEqual([0, 105])
    expect(yDomainFrom(-Infinity, 10)).toEqual([0, 10.5])
    expect(yDomainFrom(3, 10)).toEqual([0, 10.5])
  })
})

describe('acrFromFirstCell', () => {
  it('leaves a gap until the VC has sent its first cell', () => {
    const acr = new Float64Array([150, 150, 150, 140])
    const shown = acrFromFirstCell(acr, new Float64Array([0, 0, 3, 9]))
    expect(Array.from(shown)).toEqual([Number.NaN, Number.NaN, 150, 140])
    expect(Array.from(acr)).toEqual([150, 150, 150, 140]) // the samples themselves are untouched
  })

  it('draws everything when the VC sends from the start, or when sent is unknown', () => {
    const acr = new Float64Array([150, 140])
    expect(acrFromFirstCell(acr, new Float64Array([1, 2]))).toBe(acr)
    expect(acrFromFirstCell(acr, null)).toBe(acr)
  })
})

describe('palette', () => {
  it('cycles through Okabe–Ito colours', () => {
    expect(seriesColor(0)).toBe(OKABE_ITO[0])
    expect(seriesColor(OKABE_ITO.length)).toBe(OKABE_ITO[0])
    expect(colorMap(['vc1', 'vc2']).get('vc2')).toBe(OKABE_ITO[1])
  })
})

describe('the ACR axis', () => {
  it('spans the VCs’ rates, not their fast access links (Ma & Ramakrishnan, 500 VCs)', () => {
    const { Engine } = realEngine()
    const engine = new Engine(scenarioText('ma-500-vcs'))
    try {
      const layout = parseLayout(engine.layout())
      const store = new SampleStore(layout.columns)
      while (!engine.run_until(60, 100_000)) store.append(engine.take_samples())
      store.append(engine.take_samples())
      // The hosts' access links run at 2,488 Mbit/s; every VC's PCR is 155.52 Mbit/s.
      expect(Math.max(...layout.links.map((l) => l.rate_mbps))).toBeGreaterThan(2000)
      const model = acrChartModel(layout, store, colorMap(layout.vcs.map((v) => v.id)))
      const highest = Math.max(
        ...model.series.map((s) => Math.max(0, ...Array.from(s.y).filter(Number.isFinite))),
      )
      expect(highest).toBeGreaterThan(0)
      expect(model.yDomain[1]).toBeGreaterThanOrEqual(highest)
      expect(model.yDomain[1]).toBeLessThanOrEqual(155.52 * 1.05)
    } finally {
      engine.free()
    }
  })
})

describe('chart models from a real run of the default scenario', () => {
  let layout: Layout
  let store: SampleStore

  beforeAll(() => {
    const { Engine } = realEngine()
    const engine = new Engine(scenarioText('two-source-wan'))
    try {
      layout = parseLayout(engine.layout())
      store = new SampleStore(layout.columns)
      // Into S2's active period (100–200 ms), so both VCs and the bottleneck queue have history.
      while (!engine.run_until(150, 100_000)) store.append(engine.take_samples())
      store.append(engine.take_samples())
    } finally {
      engine.free()
    }
  })

  it('draws ACR and a dashed max-min share per VC, in the VC colour', () => {
    const colors = colorMap(layout.vcs.map((v) => v.id))
    const model = acrChartModel(layout, store, colors)
    expect(model.series.map((s) => s.key)).toEqual(
      layout.vcs.flatMap((v) => [column.acr(v.id), column.maxmin(v.id)]),
    )
    for (const vc of layout.vcs) {
      const acr = model.series.find((s) => s.key === column.acr(vc.id))
      const share = model.series.find((s) => s.key === column.maxmin(vc.id))
      expect(acr?.color).toBe(colors.get(vc.id))
      expect(share?.color).toBe(colors.get(vc.id))
      expect(share?.dash).toBe(REFERENCE_DASH)
      expect(acr?.x.length).toBe(store.rowCount)
    }
    // vc2 starts at 100 ms: no ACR line before its first cell.
    const vc2 = model.series.find((s) => s.key === column.acr('vc2'))
    const t = store.series(column.time)
    for (let i = 0; i < t.length; i++) {
      if (t[i] < 99) expect(vc2?.y[i]).toBeNaN()
      if (t[i] > 101) expect(vc2?.y[i]).not.toBeNaN()
    }
    expect(model.options.xDomain).toEqual([0, layout.until_ms])
    // The axis reaches at least the highest PCR, which no ACR exceeds.
    expect(model.yDomain[1]).toBeGreaterThanOrEqual(Math.max(...layout.vcs.map((v) => v.pcr_mbps)))
  })

  it('watches the switch port that queued most: SW1 towards SW2, the bottleneck', () => {
    const ports = bottleneckPorts(layout, store)
    expect(ports.length).toBeGreaterThan(0)
    expect(ports.every((p) => p.from_kind === 'switch')).toBe(true)
    const first = ports[0]
    expect([first.from, first.to]).toEqual(['SW1', 'SW2'])
    const maxOf = (id: string) => store.max(column.queueMax(id))
    for (const p of layout.ports.filter((q) => q.from_kind === 'switch'))
      expect(maxOf(first.id)).toBeGreaterThanOrEqual(maxOf(p.id))
    const model = queueChartModel(layout, store)
    expect(model.legend[0].label).toContain(portLabel(first))
    expect(model.series[0].key).toBe(column.queue(first.id))
  })
})
