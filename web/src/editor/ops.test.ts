import { describe, expect, it } from 'vitest'
import { docLinks, docNodes, docVcs } from '../scenario/doc'
import { createEngineInfo } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'
import { realEngine, scenarioText } from '../test/realEngine'
import {
  addLink,
  addNode,
  addVc,
  freeSpot,
  moveNode,
  pathProblem,
  removeLink,
  removeNode,
  removeVc,
  shortestSwitchPath,
  type Edit,
} from './ops'

const info = createEngineInfo(realEngine())
const wan = (): JsonObject => JSON.parse(scenarioText('two-source-wan')) as JsonObject
const defaults = { rate_mbps: 155.52, length_km: 1000 }

/** The scenario an accepted edit made, checked by the engine as the page does. */
function accepted(edit: Edit): JsonObject {
  if (!edit.ok) throw new Error(`refused: ${edit.message}`)
  const verdict = info.validate(JSON.stringify(edit.scenario))
  if (!verdict.ok) throw new Error(`the engine rejects it: ${JSON.stringify(verdict.errors)}`)
  return edit.scenario
}

function refusal(edit: Edit): string {
  if (edit.ok) throw new Error(`accepted: ${edit.label}`)
  return edit.message
}

describe('topology edits', () => {
  it('moves a node without touching anything else', () => {
    const before = wan()
    const after = accepted(moveNode(before, 'S1', 12.345, 67.891))
    expect(docNodes(after).find((n) => n.id === 'S1')).toMatchObject({ x: 12.3, y: 67.9 })
    expect(docNodes(before).find((n) => n.id === 'S1')).toMatchObject({ x: 80, y: 90 })
    expect({ ...after, nodes: null }).toEqual({ ...before, nodes: null })
  })

  it('adds hosts and switches with fresh ids, clear of the others', () => {
    let doc = wan()
    const spot = freeSpot(doc)
    for (const n of docNodes(doc))
      expect(Math.hypot(n.x - spot.x, n.y - spot.y)).toBeGreaterThan(50)
    const added = addNode(doc, 'switch', spot)
    doc = accepted(added)
    expect(added.ok && added.select).toEqual({ kind: 'node', id: 'SW3' })
    doc = accepted(addNode(doc, 'host', freeSpot(doc)))
    expect(docNodes(doc).map((n) => n.id)).toContain('H1')
  })

  it('adds a link, refusing a loop or a second link between the same nodes', () => {
    const doc = accepted(addLink(wan(), 'S1', 'S2', defaults))
    expect(docLinks(doc).at(-1)).toEqual({ id: 'l6', a: 'S1', b: 'S2' })
    expect(refusal(addLink(wan(), 'SW1', 'SW1', defaults))).toMatch(/two different nodes/)
    expect(refusal(addLink(wan(), 'SW2', 'SW1', defaults))).toMatch(/already joined by link l3/)
    expect(refusal(addLink(wan(), 'SW1', 'X', defaults))).toMatch(/no node X/)
  })

  it('creates a VC along a valid path and refuses one with no path', () => {
    const doc = accepted(addVc(wan(), ['S1', 'SW1', 'SW2', 'D2']))
    expect(docVcs(doc).at(-1)).toEqual({ id: 'vc3', path: ['S1', 'SW1', 'SW2', 'D2'] })
    expect(refusal(addVc(wan(), ['S1']))).toMatch(/needs a path/)
    expect(refusal(addVc(wan(), ['SW1', 'SW2', 'D1']))).toMatch(/SW1 is a switch/)
    expect(refusal(addVc(wan(), ['S1', 'SW2', 'D1']))).toMatch(/no link joins S1 and SW2/)
    expect(refusal(addVc(wan(), ['S1', 'SW1', 'S1']))).toMatch(/on the path twice/)
    expect(refusal(addVc(wan(), ['S1', 'S2', 'SW1', 'D1']))).toMatch(/S2 is a host/)
    expect(pathProblem(wan(), ['S1', 'SW1', 'SW2', 'D1'])).toBeNull()
  })

  it('finds the shortest way through switches', () => {
    expect(shortestSwitchPath(wan(), 'S1', 'D2')).toEqual(['S1', 'SW1', 'SW2', 'D2'])
    expect(shortestSwitchPath(wan(), 'SW1', 'D1')).toEqual(['SW1', 'SW2', 'D1'])
    // Not through another host.
    expect(shortestSwitchPath(accepted(removeLink(wan(), 'l3')), 'S1', 'D1')).toBeNull()
  })

  it('removing a node takes its links and the VCs through it along', () => {
    const edit = removeNode(wan(), 'SW2')
    const doc = accepted(edit)
    expect(docNodes(doc).map((n) => n.id)).not.toContain('SW2')
    expect(docLinks(doc).map((l) => l.id)).toEqual(['l1', 'l2'])
    expect(docVcs(doc)).toEqual([])
    expect(edit.ok && edit.detail).toMatch(/links l3, l4, l5.*VCs vc1, vc2/)
  })

  it('removing a link or a VC drops the variants that named what went', () => {
    const rif = JSON.parse(scenarioText('fahmy-rif')) as JsonObject
    const variantsBefore = (rif.variants as unknown[]).length
    const edit = removeVc(rif, 'vc1')
    const doc = accepted(edit)
    const variantsAfter = Array.isArray(doc.variants) ? doc.variants.length : 0
    expect(variantsAfter).toBeLessThanOrEqual(variantsBefore)
    expect(refusal(removeVc(wan(), 'nope'))).toMatch(/no VC nope/)
    const cut = accepted(removeLink(wan(), 'l5'))
    expect(docVcs(cut).map((v) => v.id)).toEqual(['vc1'])
  })
})
