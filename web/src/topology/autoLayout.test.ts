import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { autoPositions, collides, placeNodes } from './autoLayout'
import { fitDrawing } from './geometry'
import { intersects, LabelPlacer, textBox } from './labels'

const BOX = { width: 560, height: 300, padding: 56, hostRadius: 20, switchHalf: 22 }

function scenario(id: string) {
  const doc = JSON.parse(
    readFileSync(new URL(`../../../scenarios/${id}.json`, import.meta.url), 'utf8'),
  )
  const paths: string[][] = (doc.vcs ?? doc.flows ?? []).map((v: { path: string[] }) => v.path)
  return {
    nodes: doc.nodes as { id: string; kind: string; x: number; y: number }[],
    links: doc.links as { a: string; b: string }[],
    paths,
  }
}

describe('automatic layout', () => {
  it('keeps stored positions that do not collide (two-source-wan)', () => {
    const s = scenario('two-source-wan')
    expect(collides(s.nodes, s.links, BOX)).toBe(false)
    expect(autoPositions(s.nodes, s.links, s.paths, BOX)).toBeNull()
  })

  for (const id of ['ma-gfc', 'ohsaki-lan-fast-decrease', 'erica-parking-lot']) {
    it(`lays out ${id}, whose stored positions collide, with every node apart`, () => {
      const s = scenario(id)
      expect(collides(s.nodes, s.links, BOX)).toBe(true)
      const placed = placeNodes(s.nodes, s.links, s.paths, BOX)
      const fit = fitDrawing(placed, BOX.width, BOX.height, BOX.padding)
      const at = placed.map((n) => fit.place(n))
      for (let i = 0; i < at.length; i++)
        for (let j = i + 1; j < at.length; j++)
          expect(Math.hypot(at[i].x - at[j].x, at[i].y - at[j].y)).toBeGreaterThanOrEqual(
            2 * BOX.switchHalf,
          )
      // Traffic runs left to right: every path's source is left of its destination.
      const x = new Map(placed.map((n) => [n.id, n.x]))
      for (const p of s.paths)
        expect(x.get(p[0]) ?? Number.NaN).toBeLessThan(x.get(p[p.length - 1]) ?? Number.NaN)
    })
  }

  it('places a network once for as long as its nodes, links and paths stay the same', () => {
    const s = scenario('ma-gfc')
    const first = autoPositions(s.nodes, s.links, s.paths, BOX)
    const again = scenario('ma-gfc')
    expect(autoPositions(again.nodes, again.links, again.paths, BOX)).toBe(first)
    const moved = again.nodes.map((n, i) => (i === 0 ? { ...n, x: n.x + 1 } : n))
    const other = autoPositions(moved, again.links, again.paths, BOX)
    expect(other).not.toBe(first)
    expect(other?.size).toBe(first?.size)
  })
})

describe('label placement', () => {
  it('gives a label the first clear spot and refuses one with none', () => {
    const placer = new LabelPlacer([{ x: 0, y: 0, w: 40, h: 40 }], { x: 0, y: 0, w: 200, h: 100 })
    const onNode = textBox('vc1 70.0 Mbit/s', 12, { x: 20, y: 20 })
    const clear = textBox('vc1 70.0 Mbit/s', 12, { x: 120, y: 60 })
    expect(placer.place([onNode, clear])).toBe(1)
    expect(placer.place([clear])).toBe(-1)
    expect(intersects(onNode, clear)).toBe(false)
  })
})
