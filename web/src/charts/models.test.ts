import { beforeAll, describe, expect, it } from 'vitest'
import { snapshotStore } from '../compare/snapshot'
import { column, parseLayout, type Layout } from '../engine/layout'
import { SampleStore } from '../engine/samples'
import { realEngine, scenarioText } from '../test/realEngine'
import { readout } from './interaction'
import type { ChartContext } from './chartContext'
import { chartKinds, chartModel, chartTitle, CHART_KINDS } from './models'
import { PINNED_OPACITY } from './overlay'
import { colorMap } from './palette'
import { defaultSelection, describeSelection, selectedPorts, selectedVcs } from './selection'

let layout: Layout
let store: SampleStore

function run(text: string, untilMs: number): { layout: Layout; store: SampleStore } {
  const engine = new (realEngine().Engine)(text)
  try {
    const l = parseLayout(engine.layout())
    const s = new SampleStore(l.columns)
    while (!engine.run_until(untilMs, 100_000)) s.append(engine.take_samples())
    s.append(engine.take_samples())
    return { layout: l, store: s }
  } finally {
    engine.free()
  }
}

beforeAll(() => {
  ;({ layout, store } = run(scenarioText('two-source-wan'), 150))
})

function context(overrides: Partial<ChartContext> = {}): ChartContext {
  const selection = defaultSelection(layout)
  return {
    layout,
    store,
    colors: colorMap(layout.vcs.map((v) => v.id)),
    vcs: selectedVcs(layout, selection),
    ports: selectedPorts(layout, selection),
    window: null,
    runLabel: 'RIF 1/16',
    pinned: null,
    ...overrides,
  }
}

describe('chart models', () => {
  it('builds every chart of the page from engine columns', () => {
    const keys = Object.fromEntries(
      CHART_KINDS.map((k) => [k, chartModel(k, context()).series.map((s) => s.key)]),
    )
    expect(keys.acr).toContain('vc.vc1.acr')
    expect(keys.queue).toEqual(['port.l3.queue'])
    expect(keys.util).toEqual(['port.l3.util'])
    expect(keys.received).toEqual(['vc.vc1.received', 'vc.vc2.received'])
    expect(keys.lost).toEqual(['lost.total'])
    expect(keys.fairness).toEqual(['fairness'])
    const received = chartModel('received', context())
    expect(received.legend.map((l) => l.label)).toEqual(['vc1 → D1', 'vc2 → D2'])
    expect(chartModel('fairness', context()).yDomain).toEqual([0, 1.05])
  })

  it('draws only the VCs and ports picked, and zooms to the window', () => {
    const ctx = context({
      vcs: layout.vcs.filter((v) => v.id === 'vc2'),
      ports: layout.ports.filter((p) => p.id === 'l1'),
      window: [100, 150],
    })
    expect(chartModel('acr', ctx).series.map((s) => s.key)).toEqual(['vc.vc2.acr', 'vc.vc2.maxmin'])
    expect(chartModel('queue', ctx).series.map((s) => s.key)).toEqual(['port.l1.queue'])
    expect(chartModel('util', ctx).options.xDomain).toEqual([100, 150])
  })

  it('overlays a pinned run faint behind the current one, with a legend naming both', () => {
    const pinned = { label: 'RIF 1', layout, store: snapshotStore(store) }
    const model = chartModel('acr', context({ pinned }))
    const copy = model.series.find((s) => s.key === 'pinned:vc.vc1.acr')
    expect(copy?.opacity).toBe(PINNED_OPACITY)
    expect(copy?.label).toBe('vc1 ACR (pinned)')
    expect(model.series.findIndex((s) => s.key === 'pinned:vc.vc1.acr')).toBeLessThan(
      model.series.findIndex((s) => s.key === 'vc.vc1.acr'),
    )
    // Which style is which run is said once for every chart, not in each chart's legend.
    expect(model.runLegend?.map((l) => l.label)).toEqual([
      'this run: RIF 1/16',
      'faint band: pinned RIF 1',
    ])
    expect(model.legend.map((l) => l.label)).not.toContain('this run: RIF 1/16')
  })

  it('reads every series at one time for the hover read-out', () => {
    const model = chartModel('acr', context())
    const rows = readout(model.series, 150)
    const t = store.series(column.time)
    const i = t.indexOf(150)
    expect(rows.find((r) => r.key === 'vc.vc1.acr')?.value).toBe(store.series('vc.vc1.acr')[i])
    // Before vc2's first cell its ACR line has a gap: nothing to read.
    expect(readout(model.series, 50).some((r) => r.key === 'vc.vc2.acr')).toBe(false)
  })

  it('describes the selection and keeps large scenarios to eight VCs by default', () => {
    expect(describeSelection(layout, defaultSelection(layout))).toBe(
      '2 of 2 VCs · ports: bottleneck',
    )
    const many = {
      vcs: Array.from({ length: 500 }, (_, i) => ({
        id: `vc${i}`,
        source: 'S',
        destination: 'D',
        path: [],
        pcr_mbps: 150,
        startup: 'atm_forum',
      })),
      ports: [],
    }
    expect(defaultSelection(many).vcs.size).toBe(8)
  })
})

describe('snapshotStore', () => {
  it('freezes a run: the copy does not grow with the original', () => {
    const s = new SampleStore(['t_ms', 'x'])
    s.append(new Float64Array([0.5, 1, 1, 2]))
    const copy = snapshotStore(s)
    s.append(new Float64Array([1.5, 3]))
    expect(Array.from(copy.series('x'))).toEqual([1, 2])
    expect(copy.max('x')).toBe(2)
  })
})

describe('packet-level charts (Pletka et al.)', () => {
  it('draw the class throughputs with the BAT references, the ratio and D_UDP, router queues, the weighted index', () => {
    const ip = run(scenarioText('pletka-clcc-tcp-udp'), 2000)
    expect(chartKinds(ip.layout)).toEqual(['classes', 'ratio', 'queue', 'util', 'lost', 'fairness'])
    expect(chartTitle('lost', ip.layout)).toBe('Packets lost')
    const ctx: ChartContext = {
      layout: ip.layout,
      store: ip.store,
      colors: new Map(),
      vcs: [],
      ports: 'auto',
      window: null,
      runLabel: 'BAT + CLCC',
      pinned: null,
    }
    const classes = chartModel('classes', ctx)
    expect(classes.series.map((s) => s.key)).toEqual([
      'class.tcp.throughput_mbps',
      'aqm.tcp.reference_mbps',
      'class.udp.throughput_mbps',
      'aqm.udp.reference_mbps',
    ])
    expect(classes.unit).toBe('Mbit/s')
    expect(chartModel('ratio', ctx).series.map((s) => s.key)).toEqual(['ratio', 'd_udp'])
    const queue = chartModel('queue', ctx)
    expect(queue.series.length).toBeGreaterThan(0)
    expect(queue.unit).toBe('packets')
    expect(
      ip.layout.ports.find((p) => `port.${p.id}.queue` === queue.series[0].key)?.from_kind,
    ).toBe('router')
    expect(chartModel('fairness', ctx).legend[0].label).toContain('weighted')
  })
})
