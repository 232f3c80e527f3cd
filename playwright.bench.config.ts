import { defineConfig } from '@playwright/test'
import base from './playwright.config'

/**
 * The benchmark's browser half (e2e-bench/), apart from the test suite: `npm test` runs
 * playwright.config.ts (testDir e2e) and never this. scripts/bench.mjs builds dist-bench/ (the app
 * and web/bench.html, vite.bench.config.ts), serves it and passes its address in BENCH_URL; run
 * alone, this config serves dist-bench/ itself on BENCH_PORT (default 4391).
 */
const PORT = Number(process.env.BENCH_PORT ?? 4391)
const url = process.env.BENCH_URL ?? `http://localhost:${PORT}`

export default defineConfig({
  ...base,
  testDir: 'e2e-bench',
  outputDir: 'test-results/bench',
  // Each part plays many workloads; none is a pass/fail test of speed.
  timeout: 30 * 60_000,
  use: { ...base.use, baseURL: url, trace: 'off', screenshot: 'off', video: 'off' },
  webServer: process.env.BENCH_URL
    ? undefined
    : {
        command: `npx vite preview -c vite.bench.config.ts --port ${PORT} --strictPort --host localhost`,
        url: `${url}/bench.html`,
        reuseExistingServer: false,
        timeout: 60_000,
        stdout: 'ignore',
        stderr: 'pipe',
      },
})
