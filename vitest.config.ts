import { defineConfig, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.ts'

// One vitest run covers every layer but the browser: machines and contract (node), the server API (node, PGlite by
// default; PostgreSQL when TEST_DATABASE_URL is set), and the SPA units (jsdom).
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      projects: [
        { extends: true, test: { name: 'contract', include: ['tests/contract/**/*.test.ts'], environment: 'node' } },
        { extends: true, test: { name: 'machines', include: ['tests/machines/**/*.test.ts'], environment: 'node' } },
        {
          extends: true,
          // A file's set-up migrates (or copies) a database and hashes the demo passwords with argon2: on a loaded
          // 2-core machine that took over a minute. Timeouts are ceilings for a hung test, not speed checks.
          test: {
            name: 'server',
            include: ['tests/server/**/*.test.ts', 'tests/simulator/**/*.test.ts'],
            environment: 'node',
            testTimeout: 60_000,
            hookTimeout: 180_000,
          },
        },
        {
          extends: true,
          // Whole pages render in jsdom, and the first test of a file also transforms the lazy chunks it opens: on a
          // busy machine seconds, so every wait is for a condition, with room (tests/src/setup.ts for Testing Library).
          test: {
            name: 'src',
            include: ['tests/src/**/*.test.{ts,tsx}'],
            environment: 'jsdom',
            setupFiles: ['tests/src/setup.ts'],
            testTimeout: 30_000,
            hookTimeout: 60_000,
            expect: { poll: { timeout: 10_000 } },
          },
        },
      ],
    },
  }),
)
