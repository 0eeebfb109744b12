import { stat } from 'node:fs/promises'

/** True when the path names a regular file (missing paths and directories are false). */
export async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile()
  } catch {
    return false
  }
}
