import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

// Shared by the benchmark scripts: start the real server on a fresh database, sign in, stop it.

export type Running = { url: string; pid: number; stop: () => Promise<void> }

export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://atende:atende@127.0.0.1:5432/atende_test'

/** A fresh PostgreSQL database for one bench run: its URL, and `drop` to remove it afterwards. */
export async function scratchDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}`
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(PG_ADMIN_URL)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/** The node flags of `npm start` (package.json), so the figures are the product's. */
const START_FLAGS = ['--max-semi-space-size=8', '--optimize-for-size']

/** Starts `server/start.ts` on a free-ish port with a fresh DATA_DIR (PGlite) or a fresh PostgreSQL database. */
export async function startServer(opts: { port: number; postgres?: boolean }): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-'))
  // No SIP engines unless a bench asks (bench/telephony.ts starts its own on ports apart from `npm start`'s).
  const env: Record<string, string> = { ...process.env, PORT: String(opts.port), HOST: '127.0.0.1', DATA_DIR: dataDir, TELEPHONY: 'off' } as Record<
    string,
    string
  >
  let dropDb = async () => {}
  if (opts.postgres) {
    const scratch = await scratchDatabase('atende_bench')
    env.DATABASE_URL = scratch.url
    dropDb = scratch.drop
  }
  // The log goes to a file, as in production: a pipe the busy bench reads late would hold the server's lines in its
  // memory (and the bench's), and the RSS figures would count them.
  const logFile = join(dataDir, 'server.log')
  const out = openSync(logFile, 'w')
  const child: ChildProcess = spawn(process.execPath, [...START_FLAGS, 'server/start.ts'], { env, stdio: ['ignore', out, out] })
  closeSync(out)
  const log = () => readFileSync(logFile, 'utf8').slice(-20_000)
  const url = `http://127.0.0.1:${opts.port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log()}`)
    try {
      const res = await fetch(`${url}/api/pre-session/`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log()}`)
    await new Promise((r) => setTimeout(r, 300))
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
      rmSync(dataDir, { recursive: true, force: true })
      await dropDb()
    },
  }
}

/** Token sign-in (the token strategy needs no CSRF cookie). */
export async function tokenFor(url: string, username = 'admin', password = 'gestor2025'): Promise<string> {
  const res = await fetch(`${url}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ username, password }),
  })
  if (!res.ok) throw new Error(`token login failed: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/** Resident memory of a process, from /proc (Linux), in bytes. */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = /^VmRSS:\s+(\d+)/m.exec(status)?.[1]
  return Number(kib ?? 0) * 1024
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
