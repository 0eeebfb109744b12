import { and, eq } from 'drizzle-orm'
import WebSocket from 'ws'
import type { FastifyInstance } from 'fastify'
import type { VisitorServerMessage, VisitorSession } from '../../../../contract/realtime/visitor-socket.ts'
import { chatChannels } from '../../../../server/db/schema/index.ts'
import type { Db } from '../../../../server/db/client.ts'
import { randomIp } from '../../helper.ts'

// The visitor's side of the website chat for tests: the demo webchat channel, sessions and a real websocket.

export async function demoChannel(db: Db): Promise<{ id: number; siteId: number }> {
  const [row] = await db
    .select({ id: chatChannels.id, siteId: chatChannels.siteId })
    .from(chatChannels)
    .where(and(eq(chatChannels.type, 'webchat'), eq(chatChannels.description, 'Chat do site')))
  if (!row) throw new Error('no demo webchat channel')
  return row
}

export async function newSession(app: FastifyInstance, token: string, body: unknown = { name: 'Ana', email: 'ana@example.com' }, ip = randomIp()) {
  const response = await app.inject({
    method: 'POST',
    url: `/widget/sessions/${token}`,
    headers: { host: 'localhost', 'content-type': 'application/json' },
    remoteAddress: ip,
    payload: JSON.stringify(body),
  })
  if (response.statusCode !== 201) throw new Error(`session: ${response.statusCode} ${response.body}`)
  return response.json() as VisitorSession
}

export class Visitor {
  readonly ws: WebSocket
  readonly received: VisitorServerMessage[] = []
  private waiters: { match: (m: VisitorServerMessage) => boolean; resolve: (m: VisitorServerMessage) => void }[] = []
  readonly opened: Promise<void>
  readonly closed: Promise<{ code: number }>

  constructor(url: string, origin?: string) {
    this.ws = new WebSocket(url, origin ? { origin } : {})
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve())
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)))
      this.ws.once('error', reject)
    })
    this.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as VisitorServerMessage
      const waiter = this.waiters.find((w) => w.match(frame))
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter)
        waiter.resolve(frame)
      } else this.received.push(frame)
    })
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve({ code })))
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  next<A extends VisitorServerMessage['action']>(
    action: A,
    where: (m: Extract<VisitorServerMessage, { action: A }>) => boolean = () => true,
    timeoutMs = 5000,
  ) {
    const match = (m: VisitorServerMessage) => m.action === action && where(m as Extract<VisitorServerMessage, { action: A }>)
    const index = this.received.findIndex(match)
    if (index >= 0) return Promise.resolve(this.received.splice(index, 1)[0] as Extract<VisitorServerMessage, { action: A }>)
    return new Promise<Extract<VisitorServerMessage, { action: A }>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${action} within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`)), timeoutMs)
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer)
          resolve(m as Extract<VisitorServerMessage, { action: A }>)
        },
      })
    })
  }

  close(): void {
    this.ws.close()
  }
}

/** Opens the socket and says hello; answers once `messages` (the history) arrived. */
export async function connectVisitor(base: string, channelToken: string, visitorToken: string, cursor: number | null = null) {
  const visitor = new Visitor(`${base}/widget/socket/${channelToken}`)
  await visitor.opened
  visitor.send({ action: 'hello', token: visitorToken, cursor })
  await visitor.next('ready')
  const history = await visitor.next('messages')
  return { visitor, history: history.messages }
}

export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5e1d62c0000000049454e44ae426082',
  'hex',
)

export function multipart(field: string, filename: string, bytes: Buffer, type = 'application/octet-stream') {
  const boundary = `----atende${Math.random().toString(16).slice(2)}`
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`
  const body = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)])
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}
