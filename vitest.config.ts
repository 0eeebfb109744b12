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
          test: { name: 'server', include: ['tests/server/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 },
        },
        { extends: true, test: { name: 'src', include: ['tests/src/**/*.test.{ts,tsx}'], environment: 'jsdom' } },
      ],
    },
  }),
)
