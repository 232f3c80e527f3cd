import { defineConfig } from '@playwright/test'

/**
 * Port of the production build served for the tests; apart from `npm start`'s 4173. E2E_PORT
 * moves it, so that two checkouts on one machine do not test each other's build (outside CI an
 * existing server on the port is reused).
 */
const PORT = Number(process.env.E2E_PORT ?? 4317)

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 90_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    viewport: { width: 1280, height: 720 },
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium (scripts/setup.sh installs it): Playwright's own browser download is not used.
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // The production build (npm test runs `vite build` first).
    command: `npx vite preview --port ${PORT} --strictPort --host localhost`,
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
