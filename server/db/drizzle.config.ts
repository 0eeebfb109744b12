import { defineConfig } from 'drizzle-kit'

// `npm run db:generate` writes SQL migrations from the schema; the same files run on PGlite and PostgreSQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
})
