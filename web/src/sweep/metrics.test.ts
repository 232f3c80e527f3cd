/**
 * The browser's sweep figures against `abrsim sweep`'s: the same grid point must give the same
 * four numbers, computed by the wasm engine here and by the native runner there.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { realEngine, scenarioText } from '../test/realEngine'
import { SweepWindow } from '../engine/grammar'
import type { SweepSummary } from './metrics'
import type { SweepReply } from './protocol'
import { runPoint } from './runPoint'

const abrsim = fileURLToPath(new URL('../../../engine-wasm/target/release/abrsim', import.meta.url))
const scenarioFile = fileURLToPath(
  new URL('../../../scenarios/two-source-wan.json', import.meta.url),
)

function browserSummary(
  overrides: { path: string; raw: string }[],
  window: [number, number] | null,
  id = 'two-source-wan',
): SweepSummary {
  const replies: SweepReply[] = []
  // The worker applies the point's overrides to the scenario, as a sweep worker does.
  runPoint(
    realEngine(),
    { type: 'run', job: 0, scenarioJson: scenarioText(id), overrides, window },
    (r) => replies.push(r),
  )
  const done = replies.find((r) => r.type === 'done')
  if (done?.type !== 'done') throw new Error(JSON.stringify(replies.at(-1)))
  return done.summary
}

describe("SweepWindow (the engine's sweep figures)", () => {
  it('counts rows whose interval lies in the window, queue and utilisation at switch ports only', () => {
    realEngine()
    const columns = [
      't_ms',
      'port.a.queue_max',
      'port.a.util',
      'port.a.lost',
      'port.b.queue_max',
      'port.b.util',
      'port.b.lost',
      'fairness',
    ]
    const ports = [
      { id: 'a', from_kind: 'host' },
      { id: 'b', from_kind: 'switch' },
    ]
    const layout = { model: 'cell', sample_interval_ms: 1, columns, ports }
    const s = new SweepWindow(JSON.stringify(layout), [1, 3])
    s.add(
      new Float64Array([
        1, 99, 1, 0, 5, 0.5, 0, 0.5, 2, 99, 1, 2, 7, 0.7, 1, 0.9, 3, 99, 1, 2, 6, 0.9, 4, 0.7, 4,
        99, 1, 9, 50, 1, 9, 0.1,
      ]),
    )
    // Rows at t = 2 and 3 cover (1,2] and (2,3]; t = 1 covers (0,1], t = 4 covers (3,4]: out.
    expect(s.summary()).toEqual({
      max_queue: 7,
      utilization: 0.8,
      fairness: 0.8,
      cells_lost: 2 + 4,
    })
  })
})

describe('browser sweep figures match abrsim sweep', () => {
  it.skipIf(!existsSync(abrsim))('for the whole run and for a window, with overrides', () => {
    const overrides = [
      { path: 'run.until_ms', raw: '150' },
      { path: 'vcs.*.rif', raw: '1/4' },
    ]
    for (const window of [null, [110, 150] as [number, number]]) {
      const args = [
        'sweep',
        scenarioFile,
        '--param',
        'vcs.*.rif=1/4',
        '--until',
        '150',
        '--jobs',
        '1',
      ]
      if (window) args.push('--window', `${window[0]}:${window[1]}`)
      const native = spawnSync(abrsim, args, { encoding: 'utf8' })
      expect(native.status, native.stderr).toBe(0)
      const row = JSON.parse(native.stdout.trim()) as SweepSummary
      const mine = browserSummary(overrides, window)
      expect(mine).toEqual({
        max_queue: row.max_queue,
        utilization: row.utilization,
        fairness: row.fairness,
        cells_lost: row.cells_lost,
      })
      expect(mine.max_queue).toBeGreaterThan(0)
    }
  })
})

describe('browser sweep figures match abrsim sweep at packet level', () => {
  it.skipIf(!existsSync(abrsim))('for a BAT scenario of Pletka et al.', () => {
    const file = fileURLToPath(
      new URL('../../../scenarios/pletka-fmin-fairness.json', import.meta.url),
    )
    const path = 'links.bottleneck.a_to_b.aqm.flows.cbr2.f_min_mbps'
    const native = spawnSync(
      abrsim,
      ['sweep', file, '--param', `${path}=25`, '--until', '3000', '--jobs', '1'],
      { encoding: 'utf8' },
    )
    expect(native.status, native.stderr).toBe(0)
    const row = JSON.parse(native.stdout.trim()) as SweepSummary & { packets_lost: number }
    const mine = browserSummary(
      [
        { path: 'run.until_ms', raw: '3000' },
        { path, raw: '25' },
      ],
      null,
      'pletka-fmin-fairness',
    )
    expect(mine).toEqual({
      max_queue: row.max_queue,
      utilization: row.utilization,
      fairness: row.fairness,
      cells_lost: row.packets_lost,
    })
    expect(mine.utilization).toBeGreaterThan(0.5)
  })
})
