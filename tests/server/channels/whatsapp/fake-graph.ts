import { createHash } from 'node:crypto'
import fastifyMultipart from '@fastify/multipart'
import Fastify, { type FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { WaMarkRead, WaSendRequest } from '../../../../contract/whatsapp/graph.ts'

// A tiny stand-in for graph.facebook.com, on port 0 inside a test: it checks the Bearer token and every send body
// against the contract's schemas, records what it got, and answers what the test queued (a success by default).

export const TOKEN = 'EAAG-test-token'

export type Canned = { status: number; body: unknown; headers?: Record<string, string>; delayMs?: number }

export type FakeGraph = {
  app: FastifyInstance
  url: string
  sent: unknown[]
  /** When each of `sent` arrived (performance.now()). */
  sentAt: number[]
  /** Answers for the next sends, in order; empty → a success with a fresh wamid. */
  replies: Canned[]
  media: Map<string, { bytes: Buffer; mime: string; sha256?: string; fileSize?: number }>
  templates: unknown[]
  close: () => Promise<void>
}

export async function startFakeGraph(): Promise<FakeGraph> {
  const app = Fastify({ logger: false })
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024 } })
  const fake = { app, url: '', sent: [] as unknown[], sentAt: [] as number[], replies: [] as Canned[], media: new Map(), templates: [] as unknown[] } as unknown as FakeGraph
  let n = 0

  app.addHook('onRequest', async (req, reply) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      return reply.code(401).send({ error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190, fbtrace_id: 'A1' } })
    }
  })

  app.post('/:version/:phone/messages', async (req, reply) => {
    const body = req.body
    const ok = v.safeParse(WaSendRequest, body).success || v.safeParse(WaMarkRead, body).success
    if (!ok) return reply.code(400).send({ error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, fbtrace_id: 'A2' } })
    fake.sent.push(body)
    fake.sentAt.push(performance.now())
    const canned = fake.replies.shift()
    if (canned?.delayMs) await new Promise((r) => setTimeout(r, canned.delayMs))
    if (canned)
      return reply
        .code(canned.status)
        .headers(canned.headers ?? {})
        .send(canned.body)
    if ((body as { status?: string }).status === 'read') return { success: true }
    const to = (body as { to: string }).to
    return { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to.replace('+', '') }], messages: [{ id: `wamid.FAKE${++n}` }] }
  })

  app.post('/:version/:phone/media', async (req) => {
    let bytes: Buffer = Buffer.alloc(0)
    let mime = ''
    const fields: Record<string, string> = {}
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        bytes = await part.toBuffer()
        mime = part.mimetype
      } else fields[part.fieldname] = String(part.value)
    }
    const id = `media${++n}`
    fake.media.set(id, { bytes, mime: fields.type || mime })
    return { id }
  })

  app.get('/:version/:waba/message_templates', async (req) => {
    const q = req.query as { limit?: string; after?: string }
    const limit = Number(q.limit ?? 25)
    const start = Number(q.after ?? 0)
    const data = fake.templates.slice(start, start + limit)
    const next =
      start + limit < fake.templates.length
        ? `${fake.url}/v23.0/${(req.params as { waba: string }).waba}/message_templates?limit=${limit}&after=${start + limit}`
        : undefined
    return { data, paging: { cursors: { before: String(start), after: String(start + limit) }, ...(next ? { next } : {}) } }
  })

  app.get('/files/:id', async (req, reply) => {
    const m = fake.media.get((req.params as { id: string }).id)
    if (!m) return reply.code(404).send('not found')
    return reply.type(m.mime).send(m.bytes)
  })

  app.get('/:version/:mediaId', async (req, reply) => {
    const { mediaId } = req.params as { mediaId: string }
    const m = fake.media.get(mediaId)
    if (!m)
      return reply
        .code(400)
        .send({ error: { message: 'Unsupported get request.', type: 'GraphMethodException', code: 100, error_subcode: 33, fbtrace_id: 'A3' } })
    return {
      messaging_product: 'whatsapp',
      id: mediaId,
      url: `${fake.url}/files/${mediaId}`,
      mime_type: m.mime,
      sha256: m.sha256 ?? createHash('sha256').update(m.bytes).digest('hex'),
      file_size: String(m.fileSize ?? m.bytes.length),
    }
  })

  await app.listen({ port: 0, host: '127.0.0.1' })
  const addr = app.server.address()
  fake.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`
  fake.close = () => app.close()
  return fake
}
