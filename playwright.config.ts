import { defineConfig } from '@playwright/test'
import { E2E_PORT, E2E_DATA_DIR } from './e2e/env.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_MEDIA_ARGS } from './e2e/chromium.ts'

// Browser tests run the built SPA against the real server and database (PGlite in a fresh DATA_DIR that
// e2e/serve.ts prepares before it starts the server), in Debian's Chromium. Never download browsers.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: 'pt-BR',
    viewport: { width: 1366, height: 800 },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS],
    },
  },
  webServer: {
    command: 'node e2e/serve.ts',
    url: `http://127.0.0.1:${E2E_PORT}/api/pre-session/`,
    reuseExistingServer: false,
    // Generous: on a loaded machine the first start (migrations, demo seed, engines) can take minutes.
    timeout: 300_000,
    stdout: 'pipe',
    // SIGTERM lets e2e/serve.ts close the app, which stops Kamailio and rtpengine (the engines' leash is the backstop).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: { PORT: String(E2E_PORT), HOST: '127.0.0.1', DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: 'warn' },
  },
})
