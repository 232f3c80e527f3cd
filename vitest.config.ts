import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['web/src/**/*.test.ts'],
    environment: 'node',
    // The real wasm engine, initialised for every file (the page asks it the path grammar).
    setupFiles: ['web/src/test/setup.ts'],
    // The real-engine tests compile a wasm module and run simulated time: give them room on 2 cores.
    testTimeout: 60_000,
  },
})
