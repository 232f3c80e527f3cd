#!/usr/bin/env node
// The benchmark's workloads, shared by scripts/bench.mjs and e2e-bench/: the reference
// workload (the two-source WAN with S2 always on, 30 simulated seconds) and every library scenario
// as its file has it. Run directly, it prints them as JSON: [{ name, library, scenarioJson }].
import { readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

export const REFERENCE = 'reference-wan-both-on-30s'

/** The numbers of sources of the N-source workload. */
export const N_SOURCES = [2, 20, 50, 200]

/** The reference workload: two-source-wan with S2 persistent from 0 ms, for 30 s. */
export function referenceWorkload() {
  const s = JSON.parse(readFileSync(`${root}scenarios/two-source-wan.json`, 'utf8'))
  s.id = REFERENCE
  // A workload, not a lesson: the file's teaching keys go, so that older builds (--baseline)
  // that do not know them read the same workload.
  for (const key of ['tags', 'claims', 'things_to_try']) delete s[key]
  s.vcs[1].traffic = { kind: 'persistent', start_ms: 0 }
  s.run = { until_ms: 30000, seed: 1, sample_interval_ms: 10 }
  return s
}

/**
 * The N-source workload: the two-source WAN widened to `n` persistent sources S1…Sn,
 * each with its own 1000 km access link into SW1 and its own destination behind SW2, all sharing
 * the SW1→SW2 link for 10 simulated seconds, ERICA at both switches as in the two-source WAN. Each
 * starts at ICR = 140/n Mbit/s, its fair share of ERICA's target, so there is no start-up
 * transient and the sources emit about 3.3 M cells in all whatever n is: the cost per cell can be
 * compared across n.
 */
export function nSourceWorkload(n) {
  const base = JSON.parse(readFileSync(`${root}scenarios/two-source-wan.json`, 'utf8'))
  const ids = Array.from({ length: n }, (_, i) => i + 1)
  const link = (id, a, b) => ({ id, a, b, rate_mbps: 155.52, length_km: 1000 })
  const row = (i, x) => ({ x, y: 40 + (i * 400) / Math.max(1, n - 1) })
  return {
    format: base.format,
    version: base.version,
    id: `n-sources-${n}`,
    title: `${n} persistent sources sharing one bottleneck (ERICA, 10 s)`,
    explanation: `The benchmark's N-source workload: the two-source WAN with ${n} persistent sources, each starting at its fair share.`,
    run: { until_ms: 10000, seed: 1, sample_interval_ms: 10 },
    defaults: { ...base.defaults, vc: { ...base.defaults.vc, icr_mbps: 140 / n } },
    nodes: [
      ...ids.map((i) => ({ id: `S${i}`, kind: 'host', ...row(i - 1, 80) })),
      { id: 'SW1', kind: 'switch', x: 300, y: 240 },
      { id: 'SW2', kind: 'switch', x: 560, y: 240 },
      ...ids.map((i) => ({ id: `D${i}`, kind: 'host', ...row(i - 1, 780) })),
    ],
    links: [
      ...ids.map((i) => link(`a${i}`, `S${i}`, 'SW1')),
      link('trunk', 'SW1', 'SW2'),
      ...ids.map((i) => link(`b${i}`, 'SW2', `D${i}`)),
    ],
    vcs: ids.map((i) => ({
      id: `vc${i}`,
      path: [`S${i}`, 'SW1', 'SW2', `D${i}`],
      traffic: { kind: 'persistent', start_ms: 0 },
    })),
  }
}

/** [{ name, library, scenarioJson }]: the reference workload first, the N-source workloads, then the library by file name. */
export function benchCases() {
  const cases = [
    { name: REFERENCE, library: false, scenarioJson: JSON.stringify(referenceWorkload()) },
  ]
  for (const n of N_SOURCES)
    cases.push({
      name: `n-sources-${n}`,
      library: false,
      scenarioJson: JSON.stringify(nSourceWorkload(n)),
    })
  for (const f of readdirSync(`${root}scenarios`)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    cases.push({
      name: f.replace(/\.json$/, ''),
      library: true,
      scenarioJson: readFileSync(`${root}scenarios/${f}`, 'utf8'),
    })
  }
  return cases
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(JSON.stringify(benchCases()))
}
