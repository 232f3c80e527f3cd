import { describe, expect, it } from 'vitest'
import { parseFrame } from '../engine/frame'
import { parseLayout, type Layout } from '../engine/layout'
import { realEngine, scenarioText } from '../test/realEngine'
import { nodeDetails } from './nodeDetails'

/** The layout of a library scenario and its engine's frame after `ms` of simulated time. */
function runFor(id: string, ms: number) {
  const engine = new (realEngine().Engine)(scenarioText(id))
  try {
    const layout: Layout = parseLayout(engine.layout())
    while (!engine.run_until(ms, 100_000)) {
      // until the event budget reaches `ms`
    }
    engine.take_samples()
    return { layout, frame: parseFrame(engine.frame(), layout) }
  } finally {
    engine.free()
  }
}

describe('a node’s details in words', () => {
  it('names a source host’s VC with its ACR from the frame, and a switch’s queues', () => {
    const { layout, frame } = runFor('two-source-wan', 50)
    const s1 = nodeDetails(layout, frame, 'S1')
    const acr = frame.acrMbps.get('vc1') ?? Number.NaN
    expect(s1).toBe(
      `Host S1 at t = ${frame.nowMs.toFixed(1)} ms: sends vc1 at ACR ${acr.toFixed(1)} Mbit/s.`,
    )
    const sw1 = nodeDetails(layout, frame, 'SW1')
    expect(sw1).toMatch(/^Switch SW1 at t = [\d.]+ ms: queues: .*SW1→SW2 \d+ cells/)
    expect(nodeDetails(layout, frame, 'D1')).toMatch(/^Host D1 .*: receives vc1\.$/)
    expect(nodeDetails(layout, frame, 'nowhere')).toBe('')
  })

  it('calls the packet model’s routers routers and counts packets', () => {
    const { layout, frame } = runFor('pletka-bat-tcp-udp', 200)
    expect(nodeDetails(layout, frame, 'R1')).toMatch(
      /^Router R1 at t = [\d.]+ ms: queues: R1→R2 [1-9]\d* packets, /,
    )
    expect(nodeDetails(layout, null, 'UDP')).toMatch(/^Host UDP: sends \S+ \(udp\)\.$/)
  })

  it('names at most four ports or VCs and counts the rest', () => {
    const { layout } = runFor('ma-500-vcs', 0)
    expect(nodeDetails(layout, null, 'SL')).toMatch(
      /^Host SL: sends L001 at ACR .+ and 246 more\.$/,
    )
  })
})
