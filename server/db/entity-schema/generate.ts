import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderEntitySchema } from './render.ts'

// `node server/db/entity-schema/generate.ts`, then `npm run db:generate`: after a change to contract/entities, rewrite
// the generated Drizzle tables and let drizzle-kit write the SQL migration for the difference.
export const GENERATED_SCHEMA = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'schema', 'entities.generated.ts')

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeFile(GENERATED_SCHEMA, renderEntitySchema())
  console.log(`wrote ${path.relative(process.cwd(), GENERATED_SCHEMA)}`)
}
