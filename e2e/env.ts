import { join } from 'node:path'
import { tmpdir } from 'node:os'

// One fixed port and data folder per run: global-setup empties the folder and prepares the database before the
// web server starts on it.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181)
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? join(tmpdir(), `atende-e2e-${E2E_PORT}`)
