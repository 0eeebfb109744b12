import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import path from 'node:path'
import readline from 'node:readline'
import { and, eq, inArray } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.ts'
import { REPO_ROOT } from '../config.ts'
import { chatChannels } from '../db/schema/index.ts'
import { LEASH_SCRIPT } from '../telephony/engines/supervisor.ts'
import { syncTemplates } from '../channels/whatsapp/templates.ts'

// `npm start` outside production: the WhatsApp Cloud API simulator (simulator/whatsapp/) runs on loopback as a child
// of the server when some active WhatsApp channel's Graph address points at it (the demo channel does), so a newcomer
// can chat as a customer (the simulator's page) and as an agent at once. Each such channel becomes a business number
// of the simulator with the channel's own stored credentials, its webhook being this server's
// /webhooks/whatsapp/<channel>/. The simulator runs on the engines' leash: it ends with the server however the server
// ends (SIGKILL included).

export type DemoSimulator = { url: string; pid: number | null; stop(): Promise<void> }

const PID_LINE = /^ATENDE_ENGINE_PID (\d+)$/

/** The simulator's business numbers: the WhatsApp channels whose Graph address is the simulator's. */
export async function simulatedChannels(app: FastifyInstance, config: Config, serverPort: number) {
  const { host, port } = config.whatsappSimulator
  // The server as the simulator reaches it: loopback, unless it listens on one address only.
  const webhookHost = ['0.0.0.0', '::', '', '127.0.0.1', 'localhost'].includes(config.host)
    ? '127.0.0.1'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host
  const urls = [`http://${host}:${port}`, `http://localhost:${port}`].flatMap((url) => [url, `${url}/`])
  const rows = await app.deps.db
    .select()
    .from(chatChannels)
    .where(and(eq(chatChannels.type, 'whatsapp'), eq(chatChannels.isActive, true), inArray(chatChannels.graphUrl, urls)))
  return rows
    .filter((row) => row.phoneNumberId && row.accessToken && row.appSecret)
    .map((row) => ({
      phone_number_id: row.phoneNumberId,
      waba_id: row.wabaId || row.phoneNumberId,
      access_token: row.accessToken,
      app_secret: row.appSecret,
      verify_token: row.verifyToken,
      webhook_url: `http://${webhookHost}:${serverPort}/webhooks/whatsapp/${row.id}/`,
      display_phone_number: row.phoneNumber || '5511999990000',
      verified_name: row.description || 'Atende Demo',
    }))
}

export async function startDemoSimulator(app: FastifyInstance, config: Config): Promise<DemoSimulator | null> {
  if (config.production || config.whatsappSimulator.mode === 'off') return null
  const address = app.server.address()
  const serverPort = typeof address === 'object' && address ? address.port : config.port
  const numbers = await simulatedChannels(app, config, serverPort)
  if (numbers.length === 0) return null
  const { host, port } = config.whatsappSimulator
  const main = path.join(REPO_ROOT, 'simulator', 'whatsapp', 'main.ts')
  const child: ChildProcess = spawn('/bin/sh', ['-c', LEASH_SCRIPT, 'sh', process.execPath, main], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, WA_SIM_HOST: host, WA_SIM_PORT: String(port), WA_SIM_NUMBERS: JSON.stringify(numbers), WA_SIM_VERIFY: '1', WA_SIM_CONFIG: '' },
  })
  // The leash's end of the pipe stays open (never written) for as long as this server lives.
  child.stdin?.on('error', () => {})
  const log = app.log.child({ component: 'whatsapp-simulator' })
  const simulator: DemoSimulator = { url: `http://${host}:${port}`, pid: null, stop: async () => {} }
  let exited = false
  let stopping = false
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true
      if (!stopping) log.error({ code, signal }, 'the WhatsApp simulator stopped')
      resolve()
    }),
  )
  child.once('error', (error) => log.error({ err: error.message }, 'the WhatsApp simulator could not be started'))
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue
    readline.createInterface({ input: stream }).on('line', (line) => {
      const pid = PID_LINE.exec(line)
      if (pid) simulator.pid = Number(pid[1])
      else if (line.trim()) log[stream === child.stderr ? 'warn' : 'info'](line.trim())
    })
  }
  simulator.stop = async () => {
    stopping = true
    if (exited) return
    const target = simulator.pid ?? child.pid
    try {
      if (target) process.kill(target, 'SIGTERM')
    } catch {
      // gone
    }
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // gone
      }
    }, 3000)
    await gone
    clearTimeout(timer)
  }
  void syncDemoTemplates(app, config, serverPort, log)
  return simulator
}

/**
 * The demo's template dialog lists the simulator's approved templates: synced once the simulator answers (the seed
 * has no way to: the simulator starts after it). A few tries a second apart, then the admin's save syncs them.
 */
async function syncDemoTemplates(app: FastifyInstance, config: Config, serverPort: number, log: FastifyInstance['log']): Promise<void> {
  const { host, port } = config.whatsappSimulator
  const urls = [`http://${host}:${port}`, `http://localhost:${port}`].flatMap((url) => [url, `${url}/`])
  const rows = await app.deps.db
    .select({ id: chatChannels.id })
    .from(chatChannels)
    .where(and(eq(chatChannels.type, 'whatsapp'), eq(chatChannels.isActive, true), inArray(chatChannels.graphUrl, urls)))
  for (const row of rows) {
    for (let attempt = 1; attempt <= 20; attempt++) {
      try {
        await syncTemplates(app.deps, row.id)
        break
      } catch (error) {
        if (attempt === 20) log.warn({ err: (error as Error).message, channel: row.id, serverPort }, 'demo templates not synced')
        else await new Promise((resolve) => setTimeout(resolve, 500))
      }
    }
  }
}
