import { describe, expect, it } from 'vitest'
import { parseLayout } from '../engine/layout'
import { realEngine, scenarioText } from '../test/realEngine'
import { TOPOLOGY_BOX } from '../topology/TopologyView'
import { drawAnimation } from './draw'
import { buildScene, CELL_KIND, CELL_ROW, cellPoint } from './scene'

/** A canvas context that records the discs drawn (arc) and the fill in force at each fill(). */
function recordingContext() {
  const discs: { x: number; y: number; fill: string }[] = []
  let pending: { x: number; y: number }[] = []
  const ctx: Record<string, unknown> = {
    arc: (x: number, y: number) => pending.push({ x, y }),
    beginPath: () => (pending = []),
    fill: () => {
      for (const p of pending) discs.push({ ...p, fill: ctx.fillStyle as string })
    },
  }
  const proxy = new Proxy(ctx, {
    get: (target, key) => (key in target ? target[key as string] : () => undefined),
    set: (target, key, value) => {
      target[key as string] = value
      return true
    },
  })
  return { ctx: proxy as unknown as CanvasRenderingContext2D, discs }
}

describe('connection set-up in the animation', () => {
  it('draws the long VC’s set-up as a disc travelling along its first link', () => {
    const engine = new (realEngine().Engine)(scenarioText('ma-two-switch'))
    try {
      const layout = parseLayout(engine.layout())
      // 4 ms in: vc1's set-up is half-way along the 8 ms link S1→SW1.
      engine.run_until(4, 1e9)
      const cells = new Float64Array(engine.cells_in_flight(1000))
      expect(cells.length).toBe(CELL_ROW)
      expect(cells[2]).toBe(CELL_KIND.setup)
      const scene = buildScene(layout, TOPOLOGY_BOX)
      const port = scene.ports.find((p) => p.index === cells[0])
      expect(port?.id).toBe('long1')
      if (!port) throw new Error('no port long1')
      expect(cells[1]).toBeCloseTo(0.5, 3)
      const { ctx, discs } = recordingContext()
      drawAnimation(ctx, {
        scene,
        layout,
        colors: new Map([['vc1', '#0072B2']]),
        cells,
        cellsAgeMs: 0,
        // Cell mode off everywhere: set-up messages are drawn all the same.
        cellMode: layout.ports.map(() => false),
        queue: () => 0,
        queueScale: 1000,
        util: () => 0,
        acr: () => 0,
        maxmin: () => 0,
        pcr: () => 155.52,
        wallMs: 0,
        fadeCells: false,
      })
      const at = cellPoint(port, cells[1])
      const disc = discs.find((d) => Math.abs(d.x - at.x) < 1e-9 && Math.abs(d.y - at.y) < 1e-9)
      expect(disc?.fill).toBe('#0072B2')
    } finally {
      engine.free()
    }
  })
})
