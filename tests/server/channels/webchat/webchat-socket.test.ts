import { beforeAll, describe, expect, it } from 'vitest'
import { VISITOR_CLOSE_CODES } from '../../../../contract/realtime/visitor-socket.ts'
import type { MemoryConversations } from '../../../../server/channels/webchat/conversations.ts'
import { signVisitorToken } from '../../../../server/channels/webchat/visitor-token.ts'
import { MAX_SOCKETS_PER_ADDRESS } from '../../../../server/channels/webchat/socket.ts'
import { chatChannels } from '../../../../server/db/schema/index.ts'
import { ALL_MODULES_ON, MODULES_PATH } from '../../../../contract/modules.ts'
import { randomIp, signedIn, useTestApp } from '../../helper.ts'
import { listen } from '../../realtime/ws-helper.ts'
import { Visitor, connectVisitor, demoChannel, newSession } from './visitor-helper.ts'

// The visitor socket: who may open it (Origin of the channel's allowed domains, a visitor token of this channel),
// frames validated by their schema, messages idempotent by uid and rate-limited, and what the agent side sends
// (name, typing, read state, end) reaching the widget; a reload resumes the conversation by cursor.
const t = useTestApp({
  overrides: { webchat: { conversations: 'memory' } },
  config: {
    webchat: {
      secretKey: 'test-secret-test-secret-test-secret',
      maxUploadBytes: 1024 * 1024,
      limits: {
        sessionsPerAddress: { burst: 100, perSecond: 10 },
        messagesPerVisitor: { burst: 5, perSecond: 0.01 },
        messagesPerAddress: { burst: 100, perSecond: 10 },
      },
    },
  },
})
let base: string
let token: string
let channelId: number
let siteId: number
let otherToken: string
async function until(ok: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const start = Date.now()
  while (!(await ok())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
const memory = () => t.app.webchat.conversations as MemoryConversations

beforeAll(async () => {
  base = await listen(t.app)
  const demo = await demoChannel(t.database.db)
  channelId = demo.id
  siteId = demo.siteId
  token = t.app.webchat.keys.publicToken(demo.id)
  const [other] = await t.database.db
    .insert(chatChannels)
    .values({ siteId: demo.siteId, description: 'Outro', type: 'webchat', requireName: false })
    .returning({ id: chatChannels.id })
  otherToken = t.app.webchat.keys.publicToken(other!.id)
})

const refusal = (url: string, origin?: string) =>
  new Promise<number>((resolve, reject) => {
    const visitor = new Visitor(url, origin)
    visitor.opened.then(() => reject(new Error('opened'))).catch((error: Error) => resolve(Number(/refused (\d+)/.exec(error.message)?.[1] ?? 0)))
  })

describe('opening the visitor socket', () => {
  it('refuses a foreign Origin (403) and an unknown channel (404) before upgrading', async () => {
    expect(await refusal(`${base}/widget/socket/${token}`, 'https://evil.example.com')).toBe(403)
    expect(await refusal(`${base}/widget/socket/${token}`, 'null')).toBe(403)
    expect(await refusal(`${base}/widget/socket/${channelId}-AAAAAAAAAAAAAAAAAAAAAA`)).toBe(404)
    const allowed = new Visitor(`${base}/widget/socket/${token}`, 'http://localhost:3000')
    await allowed.opened
    allowed.close()
  })

  it("refuses the widget's REST and socket with 404 while the site's chat module is off", async () => {
    const admin = await signedIn(t.app, 'admin')
    const rest = (method: 'GET' | 'POST', url: string) =>
      t.app.inject({ method, url, headers: { host: 'localhost', origin: 'http://localhost' }, remoteAddress: randomIp(), ...(method === 'POST' ? { payload: { name: 'Ana', email: 'ana@example.com' } } : {}) })
    expect((await rest('GET', `/widget/config/${token}`)).statusCode).toBe(200)
    expect((await admin.put(`/api${MODULES_PATH}`, { ...ALL_MODULES_ON, chat: false })).statusCode).toBe(200)
    try {
      expect((await rest('GET', `/widget/config/${token}`)).statusCode).toBe(404)
      expect((await rest('POST', `/widget/sessions/${token}`)).statusCode).toBe(404)
      expect(await refusal(`${base}/widget/socket/${token}`, 'http://localhost:3000')).toBe(404)
      // The demo page offers no channel either.
      expect((await rest('GET', '/widget-demo')).body).not.toContain(token)
    } finally {
      expect((await admin.put(`/api${MODULES_PATH}`, ALL_MODULES_ON)).statusCode).toBe(200)
    }
    expect((await rest('GET', `/widget/config/${token}`)).statusCode).toBe(200)
    const back = new Visitor(`${base}/widget/socket/${token}`, 'http://localhost:3000')
    await back.opened
    back.close()
  })

  it('closes 4401 on a forged, expired or other-channel token, and on frames before hello', async () => {
    const session = await newSession(t.app, token)
    const [payload] = session.token.split('.') as [string]
    const expired = signVisitorToken(t.app.webchat.keys.visitorKey(channelId), channelId, Date.now() - 31 * 86_400_000).token
    const other = (await newSession(t.app, otherToken, {})).token
    for (const [bad, detail] of [
      [`${payload}.${'A'.repeat(43)}`, 'Sessão do visitante inválida ou expirada.'],
      [expired, 'Sessão do visitante inválida ou expirada.'],
      [other, 'Esta sessão pertence a outro canal.'],
      ['junk', 'Sessão do visitante inválida ou expirada.'],
    ] as const) {
      const visitor = new Visitor(`${base}/widget/socket/${token}`)
      await visitor.opened
      visitor.send({ action: 'hello', token: bad })
      expect((await visitor.next('error')).detail).toBe(detail)
      expect((await visitor.closed).code).toBe(VISITOR_CLOSE_CODES.unauthorized)
    }
    const early = new Visitor(`${base}/widget/socket/${token}`)
    await early.opened
    early.send({ action: 'message', uid: 'abcdefgh-1', content: 'oi' })
    expect((await early.next('error')).request).toBe('message')
    early.close()
  })
})

describe('sockets per address', () => {
  it('refuses more than MAX_SOCKETS_PER_ADDRESS open widgets from one address (429), and takes one again when one closes', async () => {
    const open: Visitor[] = []
    let refused = 0
    for (let i = 0; i <= MAX_SOCKETS_PER_ADDRESS && !refused; i++) {
      const visitor = new Visitor(`${base}/widget/socket/${token}`)
      try {
        await visitor.opened
        open.push(visitor)
      } catch (error) {
        refused = Number(/refused (\d+)/.exec((error as Error).message)?.[1])
      }
    }
    expect(refused).toBe(429)
    expect(open.length).toBeLessThanOrEqual(MAX_SOCKETS_PER_ADDRESS)
    open.pop()!.close()
    await until(async () => t.app.webchat.sockets.count() < MAX_SOCKETS_PER_ADDRESS)
    const again = new Visitor(`${base}/widget/socket/${token}`)
    await again.opened
    for (const visitor of [...open, again]) visitor.close()
    await until(async () => t.app.webchat.sockets.count() === 0)
  })
})

describe('the conversation', () => {
  it('stores a message once per uid, answers it to every widget of the visitor, and resumes after a reload', async () => {
    const session = await newSession(t.app, token)
    const { visitor, history } = await connectVisitor(base, token, session.token)
    expect(history).toEqual([])
    const second = await connectVisitor(base, token, session.token)
    visitor.send({ action: 'message', uid: 'uid-00000001', content: '  Olá, quero um bolo  ' })
    const echoed = await visitor.next('message')
    expect(echoed.message).toMatchObject({ uid: 'uid-00000001', sent_by: 'client', content: 'Olá, quero um bolo', status: 'sent', name: 'Ana' })
    expect((await second.visitor.next('message')).message.id).toBe(echoed.message.id)
    // A re-send after a time-out: the same message, not a second one.
    visitor.send({ action: 'message', uid: 'uid-00000001', content: 'Olá, quero um bolo' })
    expect((await visitor.next('message')).message.id).toBe(echoed.message.id)
    const ref = { siteId, channelId, visitorId: session.visitor_id }
    expect(memory().thread(ref)!.messages).toHaveLength(1)

    await memory().onAgentTyping(ref, true)
    expect((await visitor.next('typing')).typing).toBe(true)
    const reply = await memory().onAgentMessage(ref, { name: 'Maria' }, 'Claro! Qual sabor?')
    expect(await visitor.next('agent')).toEqual({ action: 'agent', name: 'Maria', avatar: null })
    expect((await visitor.next('message')).message).toMatchObject({ id: reply.id, sent_by: 'agent', name: 'Maria', content: 'Claro! Qual sabor?' })
    await memory().onAgentRead(ref, echoed.message.id)
    expect(await visitor.next('status')).toEqual({ action: 'status', ids: [echoed.message.id], status: 'read' })
    visitor.close()
    second.visitor.close()

    // A reload: the same token, no cursor → the whole conversation and who answers it; a cursor → only what is newer.
    const reloaded = await connectVisitor(base, token, session.token)
    expect(reloaded.history.map((m) => [m.id, m.sent_by, m.status])).toEqual([
      [echoed.message.id, 'client', 'read'],
      [reply.id, 'agent', 'sent'],
    ])
    reloaded.visitor.send({ action: 'resume', cursor: echoed.message.id })
    expect((await reloaded.visitor.next('messages')).messages.map((m) => m.id)).toEqual([reply.id])
    await memory().onEnded(ref)
    await reloaded.visitor.next('ended')
    reloaded.visitor.close()
  })

  it('validates every frame: blank text, bad uid, bad attachment name, malformed JSON; unknown actions are ignored', async () => {
    const session = await newSession(t.app, token)
    const { visitor } = await connectVisitor(base, token, session.token)
    visitor.send({ action: 'message', uid: 'uid-00000002', content: '   \n ' })
    expect(await visitor.next('error')).toMatchObject({ request: 'message', errors: { content: ['Este campo é obrigatório'] } })
    visitor.send({ action: 'message', uid: 'x', content: 'oi' })
    expect(Object.keys((await visitor.next('error')).errors!)).toEqual(['uid'])
    visitor.send({ action: 'message', uid: 'uid-00000003', attachment: '../../etc/passwd' })
    expect(Object.keys((await visitor.next('error')).errors!)).toEqual(['attachment'])
    visitor.send({ action: 'message', uid: 'uid-00000004', attachment: `${'a'.repeat(32)}.png` })
    expect(Object.keys((await visitor.next('error')).errors!)).toEqual(['attachment'])
    visitor.send({ action: 'read', up_to: -1 })
    expect((await visitor.next('error')).request).toBe('read')
    visitor.send('{not json')
    expect((await visitor.next('error')).request).toBeNull()
    visitor.send({ action: 'become_admin' })
    visitor.send({ action: 'ping' })
    await visitor.next('pong')
    expect(visitor.received.filter((m) => m.action === 'error')).toEqual([])
    visitor.close()
  })

  it('limits the messages of one visitor (an error frame, nothing stored) and closes a socket that floods frames', async () => {
    const session = await newSession(t.app, token)
    const { visitor } = await connectVisitor(base, token, session.token)
    for (let i = 0; i < 5; i++) {
      visitor.send({ action: 'message', uid: `flood-000${i}`, content: `m${i}` })
      await visitor.next('message')
    }
    visitor.send({ action: 'message', uid: 'flood-0005', content: 'one too many' })
    expect((await visitor.next('error')).detail).toMatch(/^Muitas requisições/)
    expect(memory().thread({ siteId, channelId, visitorId: session.visitor_id })!.messages).toHaveLength(5)
    for (let i = 0; i < 30; i++) visitor.send({ action: 'ping' })
    expect((await visitor.closed).code).toBe(VISITOR_CLOSE_CODES.policy)
  })

  it("reaches a visitor connected to another instance (the bus carries the agent's frames)", async () => {
    const other = await t.buildVariant({})
    const otherBase = await listen(other)
    const session = await newSession(t.app, token)
    const { visitor } = await connectVisitor(otherBase, token, session.token)
    const ref = { siteId, channelId, visitorId: session.visitor_id }
    await memory().onAgentMessage(ref, { name: 'Maria' }, 'Oi de outra instância')
    expect((await visitor.next('message')).message.content).toBe('Oi de outra instância')
    await memory().onAgentTyping(ref, true)
    expect((await visitor.next('typing')).typing).toBe(true)
    visitor.close()
  })
})
