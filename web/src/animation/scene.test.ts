import { describe, expect, it } from 'vitest'
import { parseLayout, type Layout } from '../engine/layout'
import { realEngine, scenarioText } from '../test/realEngine'
import { TOPOLOGY_BOX } from '../topology/TopologyView'
import { describeTarget, hitTest, type HitTarget } from './draw'
import {
  advance,
  buildScene,
  cellPoint,
  fitTransform,
  LANE,
  MIN_CROSSING_WALL_MS,
  showsCells,
  slowestCellPace,
} from './scene'

function defaultLayout(): Layout {
  const engine = new (realEngine().Engine)(scenarioText('two-source-wan'))
  try {
    return parseLayout(engine.layout())
  } finally {
    engine.free()
  }
}

describe('animation scene', () => {
  const layout = defaultLayout()
  const scene = buildScene(layout, TOPOLOGY_BOX)

  it('gives every port a lane from the edge of its transmitter to the edge of its receiver', () => {
    expect(scene.ports).toHaveLength(layout.ports.length)
    const l3 = scene.ports.find((p) => p.id === 'l3')
    const rev = scene.ports.find((p) => p.id === 'l3:rev')
    if (!l3 || !rev) throw new Error('no l3')
    const sw1 = scene.positions.get('SW1')
    const sw2 = scene.positions.get('SW2')
    if (!sw1 || !sw2) throw new Error('no switches')
    // Starts outside SW1's square, ends outside SW2's, runs from SW1 towards SW2.
    expect(l3.start.x).toBeGreaterThan(sw1.x + TOPOLOGY_BOX.switchHalf)
    const end = cellPoint(l3, 1)
    expect(end.x).toBeLessThan(sw2.x - TOPOLOGY_BOX.switchHalf)
    expect(l3.dir.x).toBeCloseTo(1)
    // The two directions travel on opposite sides of the link.
    expect(cellPoint(l3, 0.5).y).toBeCloseTo(sw1.y - LANE)
    expect(cellPoint(rev, 0.5).y).toBeCloseTo(sw1.y + LANE)
    // 5 ms of propagation and one cell time at 155.52 Mbit/s.
    expect(l3.spanMs).toBeCloseTo(5 + 424 / 155.52e3, 9)
  })

  it('moves cells on at the simulated pace', () => {
    expect(advance(0.25, 1.25, 5)).toBeCloseTo(0.5)
    expect(advance(0.25, 0, 5)).toBe(0.25)
  })

  it('shows cells only while one takes a visible time to cross, and says when that is', () => {
    const l3 = scene.ports[0]
    expect(showsCells(l3, 1)).toBe(true)
    expect(showsCells(l3, 10)).toBe(true)
    // The default pace (50 ms per second) shows the 5 ms link's cells; twice as fast, a blur.
    expect(showsCells(l3, 50)).toBe(true)
    expect(showsCells(l3, 100)).toBe(false)
    expect(showsCells(l3, null)).toBe(false)
    const pace = slowestCellPace(l3)
    expect((l3.spanMs / pace) * 1000).toBeCloseTo(MIN_CROSSING_WALL_MS)
  })

  it('puts each source’s gauges on the side away from its ACR label', () => {
    const s1 = scene.sources.find((s) => s.node === 'S1')
    const s2 = scene.sources.find((s) => s.node === 'S2')
    expect(s1?.down).toBe(true)
    expect(s2?.down).toBe(false)
    expect(s1?.vcs.map((v) => v.id)).toEqual(['vc1'])
  })

  it('maps the drawing like the SVG’s default xMidYMid meet', () => {
    expect(fitTransform({ width: 560, height: 300 }, 1120, 900)).toEqual({
      scale: 2,
      dx: 0,
      dy: 150,
    })
  })
})

describe('hover targets', () => {
  const targets: HitTarget[] = [
    { kind: 'queue', x: 10, y: 10, port: 'SW1→SW2', cells: 7000 },
    {
      kind: 'rm',
      x: 14,
      y: 10,
      cell: 'BRM',
      vc: 'vc1',
      er: 70.04,
      ci: 0,
      ccr: 69.9,
      port: 'SW2→SW1',
    },
  ]

  it('prefers an RM cell to whatever else is near', () => {
    expect(hitTest(targets, 12, 10, 6)?.kind).toBe('rm')
    expect(hitTest(targets, 30, 10, 6)?.kind).toBe('queue')
    expect(hitTest(targets, 200, 200, 6)).toBeNull()
  })

  it('says what an RM cell carries', () => {
    expect(describeTarget(targets[1])).toBe(
      'BRM of vc1 on SW2→SW1 · ER 70.0 Mbit/s · CI 0 · CCR 69.9 Mbit/s',
    )
    expect(describeTarget(targets[0])).toBe('Queue at SW1→SW2: 7,000 cells')
  })
})
