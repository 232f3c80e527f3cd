/**
 * The About tab's claims table judges the run that is playing with the engine's own evaluator: a
 * claim is pending until its window has passed, then ✓ or ✗; at the end of the run every figure
 * equals what `abrsim check --json` reports for the same file, natively.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { SampleStore } from '../engine/samples'
import { realEngine, scenarioText } from '../test/realEngine'
import { ClaimJudge, claimTotals, verdict, type ClaimCheckCtor, type ClaimRow } from './claims'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const abrsim = `${root}engine-wasm/target/release/abrsim`

/** Runs `id` in the wasm engine, judging its claims at each of `stops` (ms). */
function judgeAt(id: string, stops: number[]): ClaimRow[][] {
  const { Engine, ClaimCheck } = realEngine()
  const text = scenarioText(id)
  const engine = new Engine(text)
  try {
    const columns = (JSON.parse(engine.layout()) as { columns: string[] }).columns
    const store = new SampleStore(columns)
    const judge = new ClaimJudge(ClaimCheck as unknown as ClaimCheckCtor, text, columns)
    const out: ClaimRow[][] = []
    for (const stop of stops) {
      while (!engine.run_until(stop, 100_000)) store.append(engine.take_samples())
      store.append(engine.take_samples())
      out.push(judge.judge(store, engine.now_ms()))
    }
    judge.dispose()
    return out
  } finally {
    engine.free()
  }
}

describe('claims of the run that is playing', () => {
  it('are pending until their window has passed, then judged', () => {
    const [early, end] = judgeAt('two-source-wan', [100, 300])
    const byId = (rows: ClaimRow[], id: string): ClaimRow => {
      const row = rows.find((r) => r.id === id)
      if (!row) throw new Error(`no claim ${id}`)
      return row
    }
    // s1-alone-140 reads 60–95 ms: judged at 100 ms; the others read later windows.
    expect(byId(early, 's1-alone-140').status).toBe('held')
    expect(verdict(byId(early, 's1-alone-140'))).toBe('✓')
    for (const id of ['s1-shares-70', 's2-shares-70', 's1-back-140']) {
      expect(byId(early, id).status).toBe('pending')
      expect(verdict(byId(early, id))).toBe('pending')
    }
    // At the end nothing is pending, and no claim expected to hold fails.
    const totals = claimTotals(end)
    expect(totals.pending).toBe(0)
    expect(totals.failing).toBe(0)
    expect(totals.held + totals.expected_fail + totals.now_holds).toBe(end.length)
  })

  it('gives the figures abrsim check gives natively', () => {
    const [end] = judgeAt('erica-parking-lot', [400])
    const out = execFileSync(
      abrsim,
      ['check', '--json', `${root}scenarios/erica-parking-lot.json`],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    )
    const native = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ClaimRow)
    // The base run answers the claims without a variant; the ERICA+ one is another variant's.
    const base = end.filter((r) => r.status !== 'other_variant')
    expect(base.length).toBeGreaterThan(0)
    const others = new Set(end.filter((r) => r.status === 'other_variant').map((r) => r.variant))
    expect([...others]).toEqual(['erica-plus'])
    for (const row of base) {
      const twin = native.find((n) => n.id === row.id)
      if (!twin) throw new Error(`abrsim check did not report ${row.id}`)
      expect(row.value).toBe(twin.value)
      expect(row.status).toBe(twin.status)
    }
  })

  it('names a figure the run cannot give', () => {
    const { ClaimCheck } = realEngine()
    const scenario = JSON.parse(scenarioText('two-source-wan')) as { claims: { metric: string }[] }
    scenario.claims[0].metric = 'window.vcs.vc9.acr_mbps'
    expect(
      () =>
        new ClaimJudge(ClaimCheck as unknown as ClaimCheckCtor, JSON.stringify(scenario), ['t_ms']),
    ).toThrow(/claims\.s1-alone-140\.metric: this run has no sample column 'vc\.vc9\.acr_mean'/)
  })
})
