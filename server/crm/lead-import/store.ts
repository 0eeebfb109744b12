import { randomBytes } from 'node:crypto'
import path from 'node:path'

// Uploaded lead files and their error files, in DATA_DIR/imports/ under random names (never the client's).

export function importsDir(dataDir: string): string {
  return path.join(dataDir, 'imports')
}

export function newStoredName(): string {
  return `${randomBytes(16).toString('hex')}.csv`
}

export function uploadFile(dataDir: string, storedName: string): string {
  return path.join(importsDir(dataDir), storedName)
}

export function errorFile(dataDir: string, storedName: string): string {
  return path.join(importsDir(dataDir), storedName.replace(/\.csv$/, '.errors.csv'))
}
