import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import type { Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import { precompressDir } from './server/spa-precompress.ts'

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

/**
 * Fails the build when a page that loads without the shell (an error page, the sign-in page's lazy parts, the guard)
 * would import the `shell` chunk: a new module shared with the shell needs its own group before 'shell' above.
 */
function shellStaysSignedIn(): Plugin {
  // The CRM's asides, custom fields and list tools are lazy from crmExtensions, which signed-in routes register.
  const signedInOnly =
    /[\\/]routes[\\/]\{-\$locale\}[\\/]_app[\\/]|[\\/]settingsGuard\.ts$|[\\/]features[\\/]crm[\\/](ClientAside|InteractionFiles|InteractionTypeTools|InteractionCustomFields)\.tsx$/
  return {
    name: 'atende:shell-stays-signed-in',
    apply: 'build',
    generateBundle(_, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])))
      const app = [...chunks.values()].find((c) => c.name === 'app')
      for (const file of app?.dynamicImports ?? []) {
        const entry = chunks.get(file)
        if (!entry || signedInOnly.test(entry.facadeModuleId ?? '')) continue
        const seen = new Set([file])
        const queue = [file]
        while (queue.length) {
          const chunk = chunks.get(queue.pop()!)
          if (chunk?.name === 'shell') this.error(`${entry.facadeModuleId} loads without the shell but imports the shell chunk (vite.config.ts groups)`)
          for (const next of chunk?.imports ?? []) {
            if (seen.has(next)) continue
            seen.add(next)
            queue.push(next)
          }
        }
      }
    },
  }
}

/** Brotli and gzip twins of every built file, made once here so the server never compresses per request. */
function precompress(): Plugin {
  let outDir = 'dist'
  return {
    name: 'atende:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    async closeBundle() {
      const done = await precompressDir(outDir)
      this.info(
        `precompressed ${done.files} files: ${(done.bytes / 1024).toFixed(0)} KB → ${(done.brotli / 1024).toFixed(0)} KB brotli, ${(done.gzip / 1024).toFixed(0)} KB gzip`,
      )
    },
  }
}

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      codeSplittingOptions: {
        // The sign-in page is where most visits start: its layout and form ship with the first chunk instead of two
        // more round trips. Routes that only render <Outlet /> are not worth a chunk of their own either.
        splitBehavior: ({ routeId }) =>
          routeId.startsWith('/{-$locale}/_login') || routeId === '/{-$locale}' || routeId === '/{-$locale}/_empty' ? [] : undefined,
      },
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/routeTree.gen.ts',
    }),
    react(),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
    shellStaysSignedIn(),
    precompress(),
  ],
  resolve: {
    alias: [
      // React 19 has useSyncExternalStore: skip the React 17 fallbacks that Lingui and TanStack Store still import.
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fileURLToPath(new URL('./src/app/syncExternalStore.ts', import.meta.url)) },
    ],
  },
  define: { __BUILD_DATE__: JSON.stringify(new Date().toISOString()) },
  server: { proxy: { '/api': apiTarget, '/ws': { target: apiTarget, ws: true }, '/media': apiTarget, '/recordings': apiTarget } },
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
            // A group takes the static imports of what it matches along. What loads before or without the shell comes
            // first, so the shell cannot take its modules: the toasts and the form errors (the sign-in page), the
            // error pages (EmptyLayout), the signed-in guard (it runs, and redirects a signed-out visit, before the shell).
            { name: 'alerts', test: /[\\/]src[\\/]components[\\/](form[\\/]FormErrors|toast[\\/]ToastList)\.tsx$/ },
            { name: 'errors', test: /[\\/]src[\\/]components[\\/](errors[\\/](?!UnauthorizedPage)|layout[\\/]EmptyLayout\.tsx$)/ },
            { name: 'guards', test: /[\\/]src[\\/]app[\\/]guards\.ts$/ },
            // The entity homes' guard (settings, clients, leads, interactions) runs before the shell too, with the registry.
            { name: 'entity-guard', test: /[\\/]src[\\/]entities[\\/]homeGuard\.ts$/ },
            // The signed-in shell (layout, menu, top bar, agent system) in one chunk instead of ~40 small ones: fewer
            // requests and ~14 KB less gzip than the same modules apart. shellStaysSignedIn() checks the order above.
            { name: 'shell', test: /[\\/]routes[\\/]\{-\$locale\}[\\/]_app[\\/]route\.tsx\?tsr-split=component$/ },
          ],
        },
      },
    },
  },
})
