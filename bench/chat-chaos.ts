import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

// QUALITY.md test 13 / issue 13 "a crash after the 200 loses nothing; a restart of PostgreSQL or Redis mid-burst loses
// and duplicates nothing", for real: a burst of signed WhatsApp webhooks (Meta's envelope, X-Hub-Signature-256) at a
// real server process while this script SIGKILLs the server and starts it again, restarts PostgreSQL (immediate
// shutdown: a crash for the server's connections) and SIGKILLs Redis and starts it again. The sender behaves like
// Meta: anything but a 200 (or no answer) is delivered again, and some deliveries are sent twice on purpose. At the
// end every wamid must be exactly one message.
//
// It never touches the machine's PostgreSQL or Redis: it runs its own cluster (Debian's initdb + pg_ctl in a temp
// dir) and its own redis-server, on CHAOS_PORT_BASE (8340) + 0, 1; the server listens on + 2.
//
//   npm exec -- node bench/chat-chaos.ts        (CHAOS_MESSAGES=1500, CHAOS_RATE=150 per second)
//
// Not part of the test run: it takes about a minute and restarts processes (see server/chat/README.md).

const MESSAGES = Number(process.env.CHAOS_MESSAGES ?? 1500)
const RATE = Number(process.env.CHAOS_RATE ?? 150)
const PORT_BASE = Number(process.env.CHAOS_PORT_BASE ?? 8340)
const PG_PORT = PORT_BASE
const REDIS_PORT = PORT_BASE + 1
const SERVER_PORT = PORT_BASE + 2
const SELF = fileURLToPath(import.meta.url)
const APP_SECRET = 'chaos-app-secret'
const PHONE_NUMBER_ID = '300000000000777'
const CUSTOMERS = 300

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const log = (...args: unknown[]) => console.log(`[${(performance.now() / 1000).toFixed(1).padStart(6)} s]`, ...args)

/** PostgreSQL refuses to run as root: its commands run as the postgres user then (who owns the cluster's dir). */
const AS_ROOT = process.getuid?.() === 0
function pgRun(name: string, args: string[]): void {
  const [cmd, argv] = AS_ROOT ? ['runuser', ['-u', 'postgres', '--', pgBin(name), ...args]] : [pgBin(name), args]
  execFileSync(cmd as string, argv as string[], { stdio: 'ignore' })
}

function pgBin(name: string): string {
  const versions = execFileSync('ls', ['/usr/lib/postgresql']).toString().trim().split('\n').sort()
  return `/usr/lib/postgresql/${versions.at(-1)}/bin/${name}`
}

// ------------------------------------------------------------------------------------------------ private services
type Services = { dir: string; pgDir: string; pgData: string; redis: ChildProcess | null; databaseUrl: string }

function startPostgres(s: Services): void {
  pgRun('pg_ctl', ['-D', s.pgData, '-l', join(s.pgDir, 'pg.log'), '-w', '-o', `-p ${PG_PORT} -k ${s.pgDir} -c listen_addresses=127.0.0.1`, 'start'])
}
function stopPostgres(s: Services, mode: 'immediate' | 'fast'): void {
  pgRun('pg_ctl', ['-D', s.pgData, '-m', mode, '-w', 'stop'])
}
async function startRedis(s: Services): Promise<void> {
  s.redis = spawn('redis-server', ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', s.dir], {
    stdio: 'ignore',
  })
  for (let i = 0; i < 100; i++) {
    try {
      execFileSync('redis-cli', ['-p', String(REDIS_PORT), 'ping'], { stdio: 'ignore' })
      return
    } catch {
      await sleep(50)
    }
  }
  throw new Error('redis did not start')
}
async function killRedis(s: Services): Promise<void> {
  const redis = s.redis
  if (!redis) return
  const exited = new Promise((resolve) => redis.once('exit', resolve))
  redis.kill('SIGKILL')
  await exited
  s.redis = null
}

async function startServices(): Promise<Services> {
  const dir = mkdtempSync(join(tmpdir(), 'atende-chaos-'))
  const pgDir = join(dir, 'pg')
  mkdirSync(pgDir)
  if (AS_ROOT) {
    chmodSync(dir, 0o755)
    execFileSync('chown', ['postgres', pgDir])
  }
  const pgData = join(pgDir, 'data')
  pgRun('initdb', ['-D', pgData, '-U', 'atende', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  const s: Services = { dir, pgDir, pgData, redis: null, databaseUrl: `postgres://atende@127.0.0.1:${PG_PORT}/atende` }
  startPostgres(s)
  const admin = new pg.Client({ connectionString: `postgres://atende@127.0.0.1:${PG_PORT}/postgres` })
  await admin.connect()
  await admin.query('CREATE DATABASE atende')
  await admin.end()
  await startRedis(s)
  return s
}

async function stopServices(s: Services): Promise<void> {
  await killRedis(s).catch(() => {})
  try {
    stopPostgres(s, 'fast')
  } catch {}
  rmSync(s.dir, { recursive: true, force: true })
}

// ------------------------------------------------------------------------------------------------ the server
async function prepare(databaseUrl: string): Promise<number> {
  const { openDatabase } = await import('../server/db/client.ts')
  const { seedDemoIfEmpty } = await import('../server/seed/demo-seed.ts')
  const schema = await import('../server/db/schema/index.ts')
  const database = await openDatabase({ databaseUrl })
  await seedDemoIfEmpty(database.db, { port: 8080 })
  const [site] = await database.db.select().from(schema.sites).limit(1)
  const [channel] = await database.db
    .insert(schema.chatChannels)
    .values({
      siteId: site!.id,
      description: 'WhatsApp chaos',
      type: 'whatsapp',
      phoneNumber: '5511999997777',
      phoneNumberId: PHONE_NUMBER_ID,
      wabaId: '400000000000777',
      accessToken: 'chaos-token',
      appSecret: APP_SECRET,
      verifyToken: 'chaos-verify',
      apiVersion: 'v23.0',
      // Nothing listens here: no send is part of this test.
      graphUrl: `http://127.0.0.1:${PORT_BASE + 3}`,
    })
    .returning()
  await database.close()
  return channel!.id
}

/** Starts the server as a process manager would: again when it exits before listening (PostgreSQL still restarting). */
async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(env)
    } catch (error) {
      if (attempt >= 10) throw error
      log(`server start ${attempt} failed (${(error as Error).message}); starting it again`)
      await sleep(1000)
    }
  }
}

function startServerOnce(env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(SELF, ['serve'], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
    child.on('message', (m: { type: string }) => {
      if (m.type === 'listening') resolve(child)
    })
  })
}

async function killServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

// ------------------------------------------------------------------------------------------------ the sender (Meta)
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 })

function post(path: string, body: string, signature: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: SERVER_PORT,
        path,
        method: 'POST',
        agent,
        timeout: 15_000,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-hub-signature-256': signature },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => resolve(0))
    req.end(body)
  })
}

function webhook(n: number): { body: string; signature: string; wamid: string } {
  const from = `55119${String(30_000_000 + (n % CUSTOMERS))}`
  const wamid = `wamid.chaos.${n}`
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '5511999997777', phone_number_id: PHONE_NUMBER_ID },
    contacts: [{ profile: { name: `Cliente ${n % CUSTOMERS}` }, wa_id: from }],
    messages: [{ from, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: `caos ${n}` } }],
  }
  const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '400000000000777', changes: [{ field: 'messages', value }] }] })
  return { body, signature: `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`, wamid }
}

async function run(): Promise<void> {
  const services = await startServices()
  let server: ChildProcess | null = null
  let failed = false
  try {
    log(`private PostgreSQL on ${PG_PORT}, Redis on ${REDIS_PORT}`)
    const channelId = await prepare(services.databaseUrl)
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      DATA_DIR: join(services.dir, 'data'),
      DATABASE_URL: services.databaseUrl,
      REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
      PORT: String(SERVER_PORT),
      LOG_LEVEL: 'fatal',
    }
    server = await startServer(env)
    log('server up')
    const path = `/webhooks/whatsapp/${channelId}/`
    let acknowledged = 0
    let redelivered = 0
    /** Delivers until answered 200, like Meta; `twice`: also once more after the 200 (Meta's duplicates). */
    const deliver = async (n: number, twice: boolean) => {
      const w = webhook(n)
      for (let attempt = 0; ; attempt++) {
        const status = await post(path, w.body, w.signature)
        if (status === 200) break
        redelivered++
        await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 4)))
      }
      acknowledged++
      if (twice) while ((await post(path, w.body, w.signature)) !== 200) await sleep(200)
    }
    const pending: Promise<void>[] = []
    // One fault at a time: each waits for the one before to be over (the server back, the database up).
    let faulting: Promise<void> = Promise.resolve()
    const start = performance.now()
    const faults = [
      {
        at: Math.floor(MESSAGES * 0.2),
        name: 'SIGKILL the server, start it again',
        act: async () => {
          await killServer(server!)
          server = await startServer(env)
        },
      },
      {
        at: Math.floor(MESSAGES * 0.45),
        name: 'restart PostgreSQL (immediate shutdown)',
        act: async () => {
          stopPostgres(services, 'immediate')
          await sleep(300)
          startPostgres(services)
        },
      },
      {
        at: Math.floor(MESSAGES * 0.7),
        name: 'SIGKILL Redis, start it again',
        act: async () => {
          await killRedis(services)
          await sleep(300)
          await startRedis(services)
        },
      },
    ]
    for (let n = 0; n < MESSAGES; n++) {
      const fault = faults.find((f) => f.at === n)
      if (fault) {
        log(`${n} sent: ${fault.name} (once the fault before is over)`)
        // The burst goes on while the fault happens.
        faulting = faulting.then(async () => {
          log(`${fault.name}: now`)
          await fault.act()
          log(`${fault.name}: done`)
        })
        pending.push(faulting)
      }
      pending.push(deliver(n, n % 10 === 0))
      const due = start + ((n + 1) * 1000) / RATE
      const wait = due - performance.now()
      if (wait > 0) await sleep(wait)
    }
    await Promise.all(pending)
    await faulting
    log(`${acknowledged} webhooks acknowledged (${redelivered} deliveries answered other than 200 and sent again)`)

    // Everything acknowledged must end up processed: the sweep finishes what a crash left (events older than 10 s).
    const check = new pg.Client({ connectionString: services.databaseUrl })
    await check.connect()
    const deadline = Date.now() + 120_000
    let counts = { messages: 0, distinct: 0, unprocessed: 0 }
    for (;;) {
      const { rows } = await check.query(`
        select (select count(*)::int from chat_room_messages where external_id like 'wamid.chaos.%') as messages,
               (select count(distinct external_id)::int from chat_room_messages where external_id like 'wamid.chaos.%') as distinct,
               (select count(*)::int from chat_webhook_events where processed_at is null) as unprocessed`)
      counts = rows[0]
      if ((counts.distinct >= MESSAGES && counts.unprocessed === 0) || Date.now() > deadline) break
      await sleep(500)
    }
    const rooms = await check.query(`select count(*)::int as open, count(distinct contact)::int as contacts from chat_rooms where ended_at is null`)
    await check.end()
    log(
      `messages ${counts.messages}, distinct wamids ${counts.distinct} of ${MESSAGES}, unprocessed events ${counts.unprocessed}; ` +
        `open rooms ${rooms.rows[0].open} for ${rooms.rows[0].contacts} customers (${CUSTOMERS} wrote)`,
    )
    const lost = MESSAGES - counts.distinct
    const duplicated = counts.messages - counts.distinct
    const roomDuplicates = rooms.rows[0].open - rooms.rows[0].contacts
    failed = lost !== 0 || duplicated !== 0 || roomDuplicates !== 0 || counts.unprocessed !== 0
    console.log(
      failed
        ? `FAIL: ${lost} lost, ${duplicated} duplicated, ${roomDuplicates} duplicate rooms, ${counts.unprocessed} events unprocessed`
        : `PASS: nothing lost, nothing duplicated (${MESSAGES} messages, ${((performance.now() - start) / 1000).toFixed(0)} s)`,
    )
  } finally {
    if (server) await killServer(server).catch(() => {})
    agent.destroy()
    await stopServices(services)
  }
  process.exit(failed ? 1 : 0)
}

// ------------------------------------------------------------------------------------------------ the server child
async function serve(): Promise<void> {
  const { loadConfig } = await import('../server/config.ts')
  const { startServer } = await import('../server/startup.ts')
  const config = { ...loadConfig({ ...process.env, TELEPHONY: 'off', WA_SIMULATOR: 'off' }), port: SERVER_PORT, host: '127.0.0.1', logLevel: 'fatal' }
  await startServer(config)
  process.send!({ type: 'listening' })
}

if (process.argv[2] === 'serve') await serve()
else await run()
