import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { tanstackRouter } from '@tanstack/router-plugin/vite'

const apiTarget = process.env.ATENDE_API ?? 'http://127.0.0.1:8080'

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/routeTree.gen.ts' }),
    react(),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
  ],
  define: { __BUILD_DATE__: JSON.stringify(new Date().toISOString()) },
  server: { proxy: { '/api': apiTarget, '/ws': { target: apiTarget, ws: true }, '/media': apiTarget } },
  build: { outDir: 'dist', sourcemap: false },
})
