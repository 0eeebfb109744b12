import { spawn } from 'node:child_process'
import path from 'node:path'
import { REPO_ROOT } from './config.ts'
import { isFile } from './http/files.ts'

/** Builds the SPA with `npx vite build` when dist/index.html is missing; true when the SPA is there afterwards. */
export async function ensureSpaBuilt(spaDir: string): Promise<boolean> {
  const index = path.join(spaDir, 'index.html')
  if (await isFile(index)) return true
  console.log('dist/index.html is missing: running vite build…')
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('npx', ['vite', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' })
    child.on('exit', resolve)
    child.on('error', () => resolve(null))
  })
  if (code !== 0) console.error('vite build failed: the API runs, the SPA pages answer 404 until a build succeeds.')
  return isFile(index)
}
