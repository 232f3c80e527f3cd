#!/usr/bin/env node
// The benchmark of issue 9: every library scenario (and the reference workload — the two-source
// WAN with S2 always on for 30 simulated seconds), natively (abrsim) and in wasm under Node (in
// run_until calls of 100,000 events, draining samples as the worker does). Prints events, source
// cells (data + RM cells the ABR sources emit), wall time, source cells per wall second and the
// real-time factor, and writes everything to bench/results.json. Figures are printed, never asserted.
//
//   node scripts/bench.mjs [--only NAME] [--skip-wasm] [--out bench/results.json]
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const abrsim = `${root}engine-wasm/target/release/abrsim`
const pkg = `${root}web/src/engine/pkg/`
const EVENTS_PER_CALL = 100_000

const args = { only: null, wasm: true, out: 'bench/results.json' }
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  if (a === '--only') args.only = process.argv[++i]
  else if (a === '--skip-wasm') args.wasm = false
  else if (a === '--out') args.out = process.argv[++i]
  else throw new Error(`unknown argument ${a}`)
}

function referenceWorkload() {
  const s = JSON.parse(readFileSync(`${root}scenarios/two-source-wan.json`, 'utf8'))
  s.id = 'reference-wan-both-on-30s'
  s.vcs[1].traffic = { kind: 'persistent', start_ms: 0 }
  s.run = { until_ms: 30000, seed: 1, sample_interval_ms: 10 }
  return s
}

const cases = [['reference-wan-both-on-30s', JSON.stringify(referenceWorkload())]]
for (const f of readdirSync(`${root}scenarios`).filter((f) => f.endsWith('.json')).sort()) {
  cases.push([f.replace(/\.json$/, ''), readFileSync(`${root}scenarios/${f}`, 'utf8')])
}

function native(text) {
  const tmp = `${os.tmpdir()}/abrlab-bench-${process.pid}.json`
  writeFileSync(tmp, text)
  const out = execFileSync(abrsim, ['run', tmp, '--limit', 'max_cell_slots=1e12'], { encoding: 'utf8', maxBuffer: 256 << 20 })
  const r = JSON.parse(out)
  return { until_ms: r.until_ms, events: r.stats.events, source_cells: r.stats.source_cells, wall_ms: r.stats.wall_ms }
}

let sim = null
async function wasm(text) {
  if (!sim) {
    sim = await import(`${pkg}sim_wasm.js`)
    sim.initSync({ module: readFileSync(`${pkg}sim_wasm_bg.wasm`) })
  }
  const engine = new sim.Engine(text)
  try {
    const layout = JSON.parse(engine.layout())
    const start = performance.now()
    while (!engine.run_until(layout.until_ms, EVENTS_PER_CALL)) engine.take_samples()
    engine.take_samples()
    const wall_ms = performance.now() - start
    return { until_ms: layout.until_ms, events: Number(engine.events()), source_cells: Number(engine.source_cells()), wall_ms }
  } finally {
    engine.free()
  }
}

const figures = (r) => ({ ...r, source_cells_per_s: r.source_cells / (r.wall_ms / 1000), realtime_factor: r.until_ms / r.wall_ms })
const results = []
const pad = (s, n) => String(s).padStart(n)
console.log(`${'scenario'.padEnd(28)} ${pad('engine', 7)} ${pad('events', 11)} ${pad('src cells', 10)} ${pad('wall ms', 9)} ${pad('Mcells/s', 9)} ${pad('x real', 8)}`)
for (const [name, text] of cases) {
  if (args.only && name !== args.only) continue
  const entry = { scenario: name, native: figures(native(text)) }
  if (args.wasm) entry.wasm = figures(await wasm(text))
  if (entry.wasm) entry.wasm_over_native = entry.wasm.source_cells_per_s / entry.native.source_cells_per_s
  results.push(entry)
  for (const kind of ['native', 'wasm']) {
    const r = entry[kind]
    if (!r) continue
    console.log(`${name.padEnd(28)} ${pad(kind, 7)} ${pad(r.events, 11)} ${pad(r.source_cells, 10)} ${pad(r.wall_ms.toFixed(0), 9)} ${pad((r.source_cells_per_s / 1e6).toFixed(2), 9)} ${pad(r.realtime_factor.toFixed(2), 8)}`)
  }
}
const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.arch()}` }
mkdirSync(`${root}${args.out.replace(/[^/]*$/, '')}`, { recursive: true })
writeFileSync(`${root}${args.out}`, JSON.stringify({ date: new Date().toISOString(), machine, results }, null, 2) + '\n')
console.log(`\nwritten to ${args.out} (${machine.cpus} × ${machine.model})`)
