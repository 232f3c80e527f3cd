/**
 * Determinism across platforms: every library scenario, run in the wasm engine under Node and
 * natively by `abrsim`, must give bit-identical sample series (the same hash over every
 * value's bits). Runs are cut at 100 ms of simulated time to keep the suite quick.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { realEngine, scenarioText } from '../test/realEngine'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const abrsim = `${root}engine-wasm/target/release/abrsim`
const scenarios = readdirSync(`${root}scenarios`)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
const UNTIL_MS = 100

function nativeHash(id: string): string {
  const out = execFileSync(
    abrsim,
    ['run', `${root}scenarios/${id}.json`, '--until', String(UNTIL_MS)],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  )
  return JSON.parse(out).stats.series_hash as string
}

function wasmHash(id: string): string {
  const { Engine } = realEngine()
  const engine = new Engine(scenarioText(id))
  try {
    while (!engine.run_until(UNTIL_MS, 100_000)) {
      engine.take_samples()
    }
    return engine.series_hash()
  } finally {
    engine.free()
  }
}

describe('native and wasm runs are bit-identical', () => {
  it.each(scenarios)(
    '%s',
    (id) => {
      expect(wasmHash(id)).toBe(nativeHash(id))
    },
    60_000,
  )
})
