import { existsSync } from 'node:fs'
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

// A fresh PGlite data directory is created (initdb) and migrated in a short-lived child process: initdb's WASM
// instance and the migration's peak stay there, and the server starts on a ready directory, ~150 MB lighter than
// after doing it in process. The child runs pglite-init.ts.
const INIT_SCRIPT = fileURLToPath(new URL('./pglite-init.ts', import.meta.url))

export async function preparePgliteDir(dir: string): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [INIT_SCRIPT, dir], { stdio: ['ignore', 'inherit', 'inherit'] })
    child.once('error', reject)
    child.once('exit', resolve)
  })
  if (code !== 0) throw new Error(`preparing the PGlite directory ${dir} failed (exit ${code})`)
}
