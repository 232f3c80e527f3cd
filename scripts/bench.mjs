#!/usr/bin/env node
// The benchmark (`npm run bench`). Figures are printed and recorded, never asserted.
//
// 1. Every workload (scripts/bench-cases.mjs: the reference workload — the two-source WAN with S2
//    always on for 30 simulated seconds — and every library scenario) natively (abrsim, with its
//    peak resident memory) and in the wasm engine under Node (run_until calls of 100,000 events,
//    draining samples as the worker does): events, source cells (data + RM cells the ABR sources
//    emit; data packets in the IP model), wall time, source cells per wall second, real-time factor.
// 2. In headless Chromium (e2e-bench/ through playwright.bench.config.ts, against a production build
//    of the app plus web/bench.html served by `vite preview` on a free port): the engine bare in a
//    worker and through the app's own worker and protocol; the app's frame times playing 500 VCs;
//    how soon a slider moved while the engine runs flat out is shown and applied; how soon the
//    default scenario shows cells after the click on Play; the page's memory after playing each
//    workload to its end.
// 3. Writes bench/results.json (with the machine it ran on) and, after a full run, the tables in
//    docs/performance.md (scripts/bench-report.mjs), so the two never disagree.
//
//   node scripts/bench.mjs [--only NAME[,NAME…]] [--skip-wasm] [--skip-browser] [--parts a,b,...]
//                          [--port N] [--out bench/results.json] [--no-page]
//                          [--baseline PATH/TO/abrsim] [--pairs N] [--skip-python]
//
// Natively the CPU time of each run is taken too (/usr/bin/time), so that the cost per source cell
// can be compared across the N-source workloads on a busy machine. --baseline names the
// abrsim of another build (e.g. an older commit built in a worktree of its own): the reference and
// N-source workloads then run --pairs times each (default 7) alternately with it and with this
// build, and the speed-up is the median of the pairs' CPU-time ratios, so load on the machine
// cancels out; the CPU time per source cell is then the median of every run of this build. On a
// shared 2-core virtual machine single runs of 0.3-1 s vary by up to a factor of 1.5 and three
// pairs' ratios spread from 1.4 to 3.1: seven pairs' median holds within a few per cent.
//
// --parts picks browser parts (throughput, frames, slider, start, memory). --only, --skip-* and
// --parts make a partial run, which writes --out but leaves docs/performance.md alone.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { benchCases, N_SOURCES, REFERENCE } from './bench-cases.mjs'
import { markdown, printSummary, updatePage } from './bench-report.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const abrsim = `${root}engine-wasm/target/release/abrsim`
const pkg = `${root}web/src/engine/pkg/`
const EVENTS_PER_CALL = 100_000
const BROWSER_PARTS = ['throughput', 'frames', 'slider', 'start', 'memory']

const args = {
  only: null,
  wasm: true,
  browser: true,
  parts: BROWSER_PARTS,
  port: null,
  out: 'bench/results.json',
  page: true,
  baseline: null,
  pairs: 7,
  python: true,
}
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  if (a === '--only') args.only = process.argv[++i]
  else if (a === '--skip-wasm') args.wasm = false
  else if (a === '--skip-browser') args.browser = false
  else if (a === '--skip-python') args.python = false
  else if (a === '--parts') args.parts = process.argv[++i].split(',').map((p) => p.trim())
  else if (a === '--port') args.port = Number(process.argv[++i])
  else if (a === '--out') args.out = process.argv[++i]
  else if (a === '--no-page') args.page = false
  else if (a === '--baseline') args.baseline = resolve(process.argv[++i])
  else if (a === '--pairs') args.pairs = Math.max(1, Number(process.argv[++i]))
  else throw new Error(`unknown argument ${a}`)
}
for (const p of args.parts)
  if (!BROWSER_PARTS.includes(p))
    throw new Error(`--parts: unknown part ${p} (${BROWSER_PARTS.join(', ')})`)
const partial =
  args.only !== null || !args.wasm || !args.browser || args.parts.length < BROWSER_PARTS.length

const loadStart = os.loadavg()

// How busy the rest of the machine was (Linux): the whole machine's CPU time (/proc/stat) minus
// this benchmark's. Ours is counted two ways, each of which can only miss some of it: this
// process and its reaped children (/proc/self/stat), and every process of our tree seen by a
// sampler every 500 ms (Chromium's processes are not all reaped by the time we look). The larger
// is taken, so the figure for the others errs high, never low. In USER_HZ ticks.
function readStat(path) {
  const text = readFileSync(path, 'utf8')
  // proc(5): the fields after the parenthesised command name start with field 3 (state).
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return {
    ppid: Number(f[1]),
    utime: Number(f[11]),
    stime: Number(f[12]),
    cutime: Number(f[13]),
    cstime: Number(f[14]),
    start: f[19],
  }
}
function machineBusy() {
  const t = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number)
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  return t[0] + t[1] + t[2] + t[5] + t[6] + (t[7] ?? 0)
}
/** CPU ticks of each of our descendants (by pid and start time), as last seen. */
const treeTicks = new Map()
function sampleTree() {
  const procs = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      procs.set(Number(name), readStat(`/proc/${name}/stat`))
    } catch {
      // Gone meanwhile.
    }
  }
  const children = new Map()
  for (const [pid, p] of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid])
  const queue = [...(children.get(process.pid) ?? [])]
  while (queue.length > 0) {
    const pid = queue.pop()
    const p = procs.get(pid)
    treeTicks.set(`${pid}:${p.start}`, p.utime + p.stime)
    queue.push(...(children.get(pid) ?? []))
  }
}
function cpuTicks() {
  try {
    const self = readStat('/proc/self/stat')
    const sampled = [...treeTicks.values()].reduce((a, b) => a + b, 0)
    return {
      busy: machineBusy(),
      own: self.utime + self.stime + Math.max(self.cutime + self.cstime, sampled),
      at: performance.now(),
    }
  } catch {
    return null
  }
}
const ticksStart = cpuTicks()
const sampler = ticksStart ? setInterval(sampleTree, 500) : null
const only = args.only?.split(',').map((n) => n.trim())
const cases = benchCases().filter((c) => !only || only.includes(c.name))
if (cases.length === 0) throw new Error(`--only ${args.only}: no such workload`)

// ---- native and wasm under Node ------------------------------------------------------------

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null

/** Runs `binary` (an abrsim) on the scenario text; its report, with its CPU time when /usr/bin/time is there. */
function runAbrsim(binary, text) {
  const tmp = `${os.tmpdir()}/abrlab-bench-${process.pid}.json`
  writeFileSync(tmp, text)
  try {
    const argv = [binary, 'run', tmp, '--limit', 'max_cell_slots=1e12']
    const run = TIME
      ? spawnSync(TIME, ['-f', 'abrlab-cpu %U %S', ...argv], {
          encoding: 'utf8',
          maxBuffer: 256 << 20,
        })
      : spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 256 << 20 })
    if (run.status !== 0) throw new Error(`${binary} failed (status ${run.status}): ${run.stderr}`)
    const cpu = /abrlab-cpu ([\d.]+) ([\d.]+)/.exec(run.stderr ?? '')
    return {
      report: JSON.parse(run.stdout),
      cpu_ms: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null,
    }
  } finally {
    rmSync(tmp, { force: true })
  }
}

function native(text) {
  const { report: r, cpu_ms } = runAbrsim(abrsim, text)
  const ip = r.model === 'ip'
  return {
    model: ip ? 'ip' : 'cell',
    result: {
      until_ms: r.until_ms,
      events: r.stats.events,
      source_cells: ip ? r.stats.packets_sent : r.stats.source_cells,
      wall_ms: r.stats.wall_ms,
      cpu_ms,
      peak_rss_mb: r.stats.peak_rss_mb ?? null,
    },
  }
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
    return {
      until_ms: layout.until_ms,
      events: Number(engine.events()),
      source_cells: Number(engine.source_cells()),
      wall_ms,
    }
  } finally {
    engine.free()
  }
}

const figures = (r) => ({
  ...r,
  source_cells_per_s: r.source_cells / (r.wall_ms / 1000),
  realtime_factor: r.until_ms / r.wall_ms,
})
const pad = (s, n) => String(s).padStart(n)
const results = []
console.log(
  `${'workload'.padEnd(28)} ${pad('engine', 7)} ${pad('events', 11)} ${pad('src cells', 10)} ${pad('wall ms', 9)} ${pad('Mcells/s', 9)} ${pad('x real', 8)} ${pad('peak MB', 8)}`,
)
for (const { name, scenarioJson } of cases) {
  const { model, result } = native(scenarioJson)
  const entry = {
    scenario: name,
    model,
    unit: model === 'ip' ? 'packets' : 'cells',
    native: figures(result),
  }
  if (args.wasm) {
    entry.wasm = figures(await wasm(scenarioJson))
    entry.wasm_over_native = entry.wasm.source_cells_per_s / entry.native.source_cells_per_s
  }
  results.push(entry)
  for (const kind of ['native', 'wasm']) {
    const r = entry[kind]
    if (!r) continue
    const peak = r.peak_rss_mb == null ? '' : r.peak_rss_mb.toFixed(1)
    console.log(
      `${name.padEnd(28)} ${pad(kind, 7)} ${pad(r.events, 11)} ${pad(r.source_cells, 10)} ${pad(r.wall_ms.toFixed(0), 9)} ${pad((r.source_cells_per_s / 1e6).toFixed(2), 9)} ${pad(r.realtime_factor.toFixed(2), 8)} ${pad(peak, 8)}`,
    )
  }
}

// ---- the cost per source cell across N, and against a baseline build ---------------------------

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0
    ? null
    : s.length % 2
      ? s[(s.length - 1) / 2]
      : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
/** Every CPU time (ms) of this build's runs of each N-source workload: the run above, then its pairs'. */
const ourCpuMs = Object.fromEntries(
  results
    .filter((r) => /^n-sources-\d+$/.test(r.scenario) && r.native.cpu_ms != null)
    .map((r) => [r.scenario, [r.native.cpu_ms]]),
)
/**
 * Runs `other` and this build on a workload alternately, `count` times (alternating which goes
 * first, so neither always meets the machine in the same state); the pairs' CPU-time ratios
 * (other ÷ this build, so above 1 when this build is faster) and their median. `onOurs` sees each
 * of this build's runs.
 */
function interleave(other, c, count, what, onOurs = () => {}) {
  const ratios = []
  for (let k = 0; k < count; k++) {
    const order = k % 2 === 0 ? [other, abrsim] : [abrsim, other]
    const runs = Object.fromEntries(order.map((b) => [b, runAbrsim(b, c.scenarioJson)]))
    const theirs = runs[other]
    const ours = runs[abrsim]
    if (theirs.report.stats.series_hash !== ours.report.stats.series_hash) {
      console.log(
        `  ${c.name}: ${what}'s series differ from this build's (${theirs.report.stats.series_hash} vs ${ours.report.stats.series_hash})`,
      )
    }
    if (theirs.cpu_ms && ours.cpu_ms) ratios.push(theirs.cpu_ms / ours.cpu_ms)
    if (ours.cpu_ms) onOurs(ours.cpu_ms)
  }
  const m = median(ratios)
  console.log(
    `  ${c.name}: this build is ${m?.toFixed(2)}× the speed of ${what} (CPU-time ratios ${ratios.map((x) => x.toFixed(2)).join(', ')})`,
  )
  return { scenario: c.name, ratios: ratios.map((x) => Math.round(x * 1000) / 1000), speedup: m }
}

let baseline = null
if (args.baseline) {
  const names = [REFERENCE, ...N_SOURCES.map((n) => `n-sources-${n}`)]
  const pairs = cases
    .filter((c) => names.includes(c.name))
    .map((c) =>
      interleave(args.baseline, c, args.pairs, 'the baseline', (ms) => ourCpuMs[c.name]?.push(ms)),
    )
  // Named by the commit its checkout is at, when it is in a git worktree.
  const commit = version('git', ['-C', dirname(args.baseline), 'rev-parse', '--short', 'HEAD'])
  baseline = { label: commit ? `commit ${commit}` : 'the baseline build', pairs }
}

// ---- the native runner's optimisation profile ----------------------------------------------------
// The runner is compiled with a profile of the library's runs (profile-guided optimisation,
// engine-wasm/pgo/); the wasm engine cannot use it (a profile names functions by their symbols, which
// differ between targets). Built once more without it, side by side, this says what the profile is
// worth, and so what the wasm engine is measured against.
let profile = null
if (existsSync(`${root}engine-wasm/pgo/abrsim.profdata`)) {
  const unguidedDir = `${root}engine-wasm/target/unguided`
  const built = spawnSync(
    'cargo',
    [
      'build',
      '--release',
      '-q',
      '--manifest-path',
      `${root}engine-wasm/Cargo.toml`,
      '--bin',
      'abrsim',
      '--target-dir',
      unguidedDir,
    ],
    { encoding: 'utf8', env: { ...process.env, RUSTC_WORKSPACE_WRAPPER: '' } },
  )
  if (built.status !== 0) {
    console.log(`\nthe runner without its profile did not build: ${built.stderr}`)
  } else {
    const unguided = `${unguidedDir}/release/abrsim`
    console.log('\nThe runner with its optimisation profile against the same build without it:')
    const pairs = cases
      .filter((c) => [REFERENCE, 'n-sources-50'].includes(c.name))
      .map((c) => interleave(unguided, c, Math.min(args.pairs, 5), 'the build without it'))
    profile = { pairs }
  }
}

const nSources = results
  .filter((r) => ourCpuMs[r.scenario])
  .map((r) => ({
    n: Number(r.scenario.slice('n-sources-'.length)),
    scenario: r.scenario,
    cpu_ns_per_cell: (median(ourCpuMs[r.scenario]) * 1e6) / r.native.source_cells,
    cpu_runs: ourCpuMs[r.scenario].length,
    events_per_cell: r.native.events / r.native.source_cells,
  }))
if (nSources.length > 0) {
  console.log("\nN-source workload, native: CPU time per source cell (median of this build's runs)")
  for (const x of nSources)
    console.log(
      `  N = ${pad(x.n, 3)}: ${x.cpu_ns_per_cell.toFixed(0)} ns per source cell (${x.cpu_runs} runs), ${x.events_per_cell.toFixed(2)} events per source cell`,
    )
}

// ---- Chromium --------------------------------------------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, 'localhost', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

function version(cmd, argv) {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

async function browserBench() {
  if (!existsSync('/usr/bin/chromium')) {
    throw new Error(
      'the browser part drives /usr/bin/chromium: install it (npm run setup:test) or pass --skip-browser',
    )
  }
  console.log('\n==> Chromium: building the app and the benchmark page (vite.bench.config.ts)')
  execFileSync('npx', ['vite', 'build', '-c', 'vite.bench.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  })
  let port = args.port
  // Never the ports of `npm start` (4173) and the e2e tests (4317).
  while (port === null || port === 4173 || port === 4317) port = await freePort()
  const url = `http://localhost:${port}`
  const dir = mkdtempSync(`${os.tmpdir()}/abrlab-bench-`)
  writeFileSync(`${dir}/cases.json`, JSON.stringify(cases))
  console.log(`==> Chromium: serving dist-bench/ at ${url}`)
  const server = spawn(
    'npx',
    [
      'vite',
      'preview',
      '-c',
      'vite.bench.config.ts',
      '--port',
      String(port),
      '--strictPort',
      '--host',
      'localhost',
    ],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const stop = () => {
    try {
      process.kill(-server.pid, 'SIGTERM')
    } catch {
      // Already gone.
    }
  }
  process.once('SIGINT', () => {
    stop()
    process.exit(130)
  })
  const browser = { parts: args.parts }
  try {
    await waitForHttp(`${url}/bench.html`, 60_000)
    // Not spawnSync: the CPU sampler keeps running meanwhile.
    const run = await new Promise((resolve, reject) => {
      const child = spawn('npx', ['playwright', 'test', '-c', 'playwright.bench.config.ts'], {
        cwd: root,
        stdio: 'inherit',
        env: {
          ...process.env,
          BENCH_URL: url,
          BENCH_CASES: `${dir}/cases.json`,
          BENCH_OUT_DIR: `${dir}/out`,
          BENCH_PARTS: args.parts.join(','),
          ...(args.only ? { BENCH_ONLY: args.only } : {}),
        },
      })
      child.once('error', reject)
      child.once('exit', (status) => resolve({ status }))
    })
    if (run.status !== 0)
      browser.error = `playwright exited with status ${run.status}; the parts it finished are recorded`
    const part = (name) =>
      existsSync(`${dir}/out/${name}.json`)
        ? JSON.parse(readFileSync(`${dir}/out/${name}.json`, 'utf8'))
        : null
    const throughput = part('throughput')
    const memory = part('memory')
    for (const entry of results) {
      const t = throughput?.find((x) => x.scenario === entry.scenario)
      if (t) {
        entry.chromium = { bare: t.raw, worker: t.worker }
        entry.chromium_over_native = {
          bare: t.raw.source_cells_per_s / entry.native.source_cells_per_s,
          worker: t.worker.source_cells_per_s / entry.native.source_cells_per_s,
        }
        // The timed run is the second in its worker; the first one meets V8 still compiling.
        if (t.worker.first_run_source_cells_per_s != null)
          entry.chromium_first_run_over_native = {
            bare: t.raw.first_run_source_cells_per_s / entry.native.source_cells_per_s,
            worker: t.worker.first_run_source_cells_per_s / entry.native.source_cells_per_s,
          }
      }
      const m = memory?.find((x) => x.scenario === entry.scenario)
      if (m) entry.page = m
    }
    browser.frames = part('frames')
    browser.slider = part('slider')
    browser.start = part('start')
  } finally {
    stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return browser
}

const browser = args.browser ? await browserBench() : null

// ---- the record --------------------------------------------------------------------------------

const osRelease = existsSync('/etc/os-release')
  ? /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1]
  : null
const cpuModel = existsSync('/proc/cpuinfo')
  ? /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]
  : null
const machine = {
  cpu_model: cpuModel ?? os.cpus()[0]?.model ?? null,
  cores: os.cpus().length,
  ram_gb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  os: `${osRelease ?? os.type()} (${os.platform()} ${os.release()} ${os.arch()})`,
  node: process.version,
  rustc: version('rustc', ['--version']),
  chromium: args.browser
    ? (version('/usr/bin/chromium', ['--version'])?.replace(/ built on .*$/, '') ?? null)
    : null,
  playwright: JSON.parse(readFileSync(`${root}node_modules/@playwright/test/package.json`, 'utf8'))
    .version,
}
const loadEnd = os.loadavg()
if (sampler) {
  clearInterval(sampler)
  sampleTree()
}
const ticksEnd = cpuTicks()
let otherCpu = null
if (ticksStart && ticksEnd) {
  const hz = Number(version('getconf', ['CLK_TCK'])) || 100
  const seconds = (ticksEnd.at - ticksStart.at) / 1000
  const other = Math.max(0, ticksEnd.busy - ticksStart.busy - (ticksEnd.own - ticksStart.own)) / hz
  otherCpu = {
    wall_s: Math.round(seconds),
    cpu_s: Math.round(other * 10) / 10,
    share_of_machine: Math.round((other / (seconds * os.cpus().length)) * 1000) / 1000,
  }
}
const round2 = (xs) => xs.map((x) => Math.round(x * 100) / 100)
const doc = {
  date: new Date().toISOString(),
  machine,
  // 1-, 5- and 15-minute load averages before the benchmark began and when it ended (its own work
  // included); a start well above 0 means something else was running.
  load_average: { start: round2(loadStart), end: round2(loadEnd) },
  // CPU time other processes used while the benchmark ran (an upper bound, see cpuTicks), and
  // their share of all the machine's cores over the run.
  other_processes_cpu: otherCpu,
  partial,
  results,
  n_sources: nSources,
  profile,
  baseline,
  browser,
}
const outPath = resolve(root, args.out)
mkdirSync(dirname(outPath), { recursive: true })
writeFileSync(outPath, `${JSON.stringify(doc, null, 2)}\n`)
console.log()
if (args.browser) console.log(markdown(doc).split('\n').slice(1, -1).join('\n'), '\n')
printSummary(doc)
console.log(
  `\nwritten to ${args.out} (${machine.cores} × ${machine.cpu_model}, load average at start ${doc.load_average.start.join(' ')})`,
)
if (args.page && !partial) {
  updatePage(doc, `${root}docs/performance.md`)
  console.log('docs/performance.md: tables rewritten from it')
} else if (args.page) {
  console.log('a partial run: docs/performance.md left alone')
}
if (browser?.error) {
  console.error(`\nbench: ${browser.error}`)
  process.exitCode = 1
}
// The Python package's sweep throughput (process pools, Dask) and its cost per point over
// `abrsim sweep`: python/bench/sweep_throughput.py, figures in bench/python.json.
if (args.python && args.only === null) {
  console.log('\nPython package (abrlab): sweep throughput')
  const py = spawnSync('bash', [`${root}scripts/python-bench.sh`], { stdio: 'inherit' })
  if (py.status !== 0) {
    console.error('bench: the Python sweep benchmark failed')
    process.exitCode = 1
  }
}
