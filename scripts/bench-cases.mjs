#!/usr/bin/env node
// The benchmark's workloads (issue 9), shared by scripts/bench.mjs and e2e-bench/: the reference
// workload (the two-source WAN with S2 always on, 30 simulated seconds) and every library scenario
// as its file has it. Run directly, it prints them as JSON: [{ name, library, scenarioJson }].
import { readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

export const REFERENCE = 'reference-wan-both-on-30s'

/** The reference workload of issue 9: two-source-wan with S2 persistent from 0 ms, for 30 s. */
export function referenceWorkload() {
  const s = JSON.parse(readFileSync(`${root}scenarios/two-source-wan.json`, 'utf8'))
  s.id = REFERENCE
  s.vcs[1].traffic = { kind: 'persistent', start_ms: 0 }
  s.run = { until_ms: 30000, seed: 1, sample_interval_ms: 10 }
  return s
}

/** [{ name, library, scenarioJson }]: the reference workload first, then the library by file name. */
export function benchCases() {
  const cases = [{ name: REFERENCE, library: false, scenarioJson: JSON.stringify(referenceWorkload()) }]
  for (const f of readdirSync(`${root}scenarios`).filter((f) => f.endsWith('.json')).sort()) {
    cases.push({ name: f.replace(/\.json$/, ''), library: true, scenarioJson: readFileSync(`${root}scenarios/${f}`, 'utf8') })
  }
  return cases
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(JSON.stringify(benchCases()))
}
