import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { tanstackRouter } from '@tanstack/router-plugin/vite'

const apiTarget = process.env.ATENDE_API ?? 'http://127.0.0.1:8080'

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      codeSplittingOptions: {
        // The sign-in page is where most visits start: its layout and form ship with the first chunk instead of two
        // more round trips. Routes that only render <Outlet /> are not worth a chunk of their own either.
        splitBehavior: ({ routeId }) => (routeId.startsWith('/{-$locale}/_login') || routeId === '/{-$locale}' || routeId === '/{-$locale}/_empty' ? [] : undefined),
      },
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/routeTree.gen.ts',
    }),
    react(),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
  ],
  resolve: {
    alias: [
      // React 19 has useSyncExternalStore: skip the React 17 fallbacks that Lingui and TanStack Store still import.
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fileURLToPath(new URL('./src/app/syncExternalStore.ts', import.meta.url)) },
    ],
  },
  define: { __BUILD_DATE__: JSON.stringify(new Date().toISOString()) },
  server: { proxy: { '/api': apiTarget, '/ws': { target: apiTarget, ws: true }, '/media': apiTarget } },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // Every browser we support has <link rel="modulepreload">.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything every page needs (main.tsx's static graph) in one chunk instead of dozens of small ones.
            { name: 'app', tags: ['$initial'] },
          ],
        },
      },
    },
  },
})
