#!/usr/bin/env node
// Benchmarks the wasm engine under Node on a scenario, and with --native also the native runner,
// printing events/s and simulated ms per wall ms side by side. Figures are printed, not asserted.
//
//   node scripts/bench-wasm.mjs [--native] [--scenario scenarios/two-source-wan.json] [--until MS]
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const pkg = `${root}web/src/engine/pkg/`
const EVENTS_PER_CALL = 100_000

function parseArgs(argv) {
  const args = { native: false, scenario: 'scenarios/two-source-wan.json', until: null }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--native') args.native = true
    else if (arg === '--scenario') args.scenario = argv[++i]
    else if (arg === '--until') args.until = Number(argv[++i])
    else throw new Error(`unknown argument ${arg}`)
  }
  return args
}

async function benchWasm(scenarioPath, untilArg) {
  let sim
  try {
    sim = await import(`${pkg}sim_wasm.js`)
  } catch (error) {
    throw new Error(`the wasm engine is not built (run: bash scripts/build-wasm.sh): ${error.message}`)
  }
  sim.initSync({ module: readFileSync(`${pkg}sim_wasm_bg.wasm`) })
  const engine = new sim.Engine(readFileSync(`${root}${scenarioPath}`, 'utf8'))
  try {
    const layout = JSON.parse(engine.layout())
    const until = untilArg ?? layout.until_ms
    let calls = 0
    let rows = 0
    const start = performance.now()
    for (;;) {
      const reached = engine.run_until(until, EVENTS_PER_CALL)
      // Drain samples as the worker does, so their cost is part of the figure.
      rows += engine.take_samples().length / layout.columns.length
      calls++
      if (reached) break
    }
    const wallMs = performance.now() - start
    return { untilMs: until, events: Number(engine.events()), wallMs, calls, rows }
  } finally {
    engine.free()
  }
}

function benchNative(scenarioPath, until) {
  const out = execFileSync(
    'cargo',
    ['run', '--release', '-q', '--manifest-path', 'engine-wasm/Cargo.toml', '--bin', 'abrsim', '--',
      'run', scenarioPath, '--until', String(until)],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 },
  )
  const report = JSON.parse(out)
  return { untilMs: until, events: report.stats.events, wallMs: report.stats.wall_ms }
}

function row(name, r) {
  const eventsPerS = r.events / (r.wallMs / 1000)
  const factor = r.untilMs / r.wallMs
  return [
    name.padEnd(8),
    String(r.events).padStart(12),
    r.wallMs.toFixed(1).padStart(10),
    (eventsPerS / 1e6).toFixed(2).padStart(10),
    factor.toFixed(3).padStart(16),
  ].join('  ')
}

const args = parseArgs(process.argv.slice(2))
const wasm = await benchWasm(args.scenario, args.until)
const results = [['wasm', wasm]]
if (args.native) results.unshift(['native', benchNative(args.scenario, wasm.untilMs)])

console.log(`scenario ${args.scenario}, ${wasm.untilMs} ms simulated` +
  ` (wasm: ${wasm.calls} run_until calls of up to ${EVENTS_PER_CALL} events, ${wasm.rows} sample rows)`)
console.log(['engine'.padEnd(8), 'events'.padStart(12), 'wall ms'.padStart(10), 'M events/s'.padStart(10),
  'sim ms / wall ms'.padStart(16)].join('  '))
for (const [name, r] of results) console.log(row(name, r))
if (args.native) {
  const [, native] = results[0]
  const ratio = (wasm.wallMs / wasm.events) / (native.wallMs / native.events)
  console.log(`wasm takes ${ratio.toFixed(2)}× the native time per event`)
}
