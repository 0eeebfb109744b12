import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

// The built SPA is compressed once, at build time (vite.config.ts), at the highest levels: the server then sends the
// .br or .gz twin a browser asks for (@fastify/static `preCompressed`, server/routes/spa-routes.ts) without
// compressing anything per request.
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml|wasm|ico|map)$/
/** Below this a compressed twin saves less than its own headers. */
const MIN_BYTES = 1024

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

export type Precompressed = { files: number; bytes: number; brotli: number; gzip: number }

/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` (recursively) where they are smaller. */
export async function precompressDir(dir: string): Promise<Precompressed> {
  const totals: Precompressed = { files: 0, bytes: 0, brotli: 0, gzip: 0 }
  const names = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
  for (const entry of names) {
    const file = path.join(entry.parentPath, entry.name)
    const data = await readFile(file)
    if (data.length < MIN_BYTES) continue
    const [br, gzipped] = await Promise.all([
      brotli(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
      gz(data, { level: 9 }),
    ])
    totals.files++
    totals.bytes += data.length
    if (br.length < data.length) {
      await writeFile(`${file}.br`, br)
      totals.brotli += br.length
    }
    if (gzipped.length < data.length) {
      await writeFile(`${file}.gz`, gzipped)
      totals.gzip += gzipped.length
    }
  }
  return totals
}
