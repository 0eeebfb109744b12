import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { tanstackRouter } from '@tanstack/router-plugin/vite'

const apiTarget = process.env.ATENDE_API ?? 'http://127.0.0.1:8080'

// Kept off the sign-in page (QUALITY.md: ≤ 150 KB): TanStack Query (created by the first signed-in page or the sign-in
// submit, src/app/lazyQueryClient.ts), valibot with the contract's field schemas and messages (the sign-in form loads
// them when first used, useSchemaForm.ts), Joy's Stack. Every signed-in page needs them all.
const SIGNED_IN_SHARED = [
  /[\\/]node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/,
  /[\\/]node_modules[\\/]valibot[\\/]/,
  /[\\/]node_modules[\\/]@mui[\\/](joy|system[\\/]esm)[\\/]Stack[\\/]/,
  /[\\/]contract[\\/](messages|api[\\/]fields|api[\\/]profile)\.ts$/,
  /[\\/]src[\\/]app[\\/]queryClient\.ts$/,
]

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
      treeshake: {
        // @emotion/react imports this CommonJS package bare (`import 'hoist-non-react-statics'`) for its withTheme, which
        // we never call; the package declares no sideEffects, so it (and its react-is copy) would ship on every page.
        moduleSideEffects: [{ test: /[\\/]node_modules[\\/]hoist-non-react-statics[\\/]/, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          groups: [
            // Everything every page needs (main.tsx's static graph) in one chunk instead of dozens of small ones.
            { name: 'app', tags: ['$initial'] },
            // What every signed-in page needs but the sign-in page loads only once its form is used: one chunk, not a dozen.
            { name: 'signed-in', test: (id) => SIGNED_IN_SHARED.some((re) => re.test(id)) },
          ],
        },
      },
    },
  },
})
