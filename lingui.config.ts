import { defineConfig } from '@lingui/cli'
import { formatter } from '@lingui/format-po'

// pt-BR is the source language: messages are written in Portuguese at the call site.
export default defineConfig({
  sourceLocale: 'pt-BR',
  locales: ['pt-BR', 'en-US', 'es-ES'],
  fallbackLocales: { default: 'pt-BR' },
  catalogs: [{ path: '<rootDir>/locales/{locale}/messages', include: ['src', 'contract', 'machines'] }],
  format: formatter({ lineNumbers: false }),
})
