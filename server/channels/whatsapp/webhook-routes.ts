import type { FastifyInstance, FastifyRequest } from 'fastify'
import * as v from 'valibot'
import { WaVerifyQuery } from '../../../contract/whatsapp/webhook.ts'
import { detailError } from '../../http/errors.ts'
import { processWebhookEvent, storeWebhookEvent } from '../../chat/webhook-events.ts'
import { cachedWhatsAppChannel, loadWhatsAppChannel } from './channel.ts'
import { verifyHandshake, verifySignature } from './signature.ts'
import { setWhatsAppLog } from './log.ts'
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { sites } from '../../db/schema/index.ts'
import { siteModules } from '../../sites/modules.ts'

// The public webhook of a WhatsApp channel, outside /api: /webhooks/whatsapp/{channel id}/ (WHATSAPP.md §A1.1–A1.3).
// GET is Meta's verification handshake; POST is authenticated by X-Hub-Signature-256 over the raw bytes (a content
// parser of this plugin only keeps the bytes), stored as it came (the core's chat_webhook_events) and only then
// answered 200; it is processed after the answer, and again by the core's recovery if the server stopped first.
// A site that turned its chat module off (system/base/modules) refuses its channels' webhooks with 403 once the caller
// proved it is Meta (token or signature): nothing is stored, Meta counts a failed delivery, retries (what arrives
// after chat is back on within Meta's retry window is taken) and alerts the app's owner that the webhook is failing,
// instead of being told all is well while messages go nowhere (server/chat/README.md).

export const WEBHOOK_PATH = '/webhooks/whatsapp/:channel/'
/** Meta's payloads reach 3 MB. */
export const WEBHOOK_BODY_LIMIT = 4 * 1024 * 1024

const raw = new WeakMap<FastifyRequest, Buffer>()

function channelId(request: FastifyRequest): number {
  const param = (request.params as { channel?: string }).channel ?? ''
  if (!/^[1-9]\d{0,9}$/.test(param)) throw detailError(404, 'notFound', request.lang)
  return Number(param)
}

/**
 * Whether the channel's site uses chat (the channel's own site: the Host Meta calls may be any). The site row is kept
 * in the app's site cache under a key no Host can take (a '#' is never in a hostname), so a webhook costs no query
 * for it; a change of modules clears that cache on every instance (modules-routes.ts → authChanged 'all').
 */
async function chatOn(deps: AppDeps, siteId: number): Promise<boolean> {
  const load = async () => (await deps.db.select().from(sites).where(eq(sites.id, siteId)))[0] ?? null
  const site = deps.authCache ? await deps.authCache.site(`#site-id:${siteId}`, load) : await load()
  return !!site && siteModules(site).chat
}

export async function whatsappWebhookRoutes(app: FastifyInstance): Promise<void> {
  setWhatsAppLog(app.log.child({ part: 'whatsapp' }))
  // This plugin's own parsers: whatever Meta sends is kept as bytes for the HMAC, not parsed (nor seen by the input
  // guard, which checks parsed bodies); the processor parses it after the signature held.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    raw.set(request, body as Buffer)
    done(null, undefined)
  })

  app.get(WEBHOOK_PATH, { config: { permission: 'public', bare: true } }, async (request, reply) => {
    const channel = await loadWhatsAppChannel(app.deps.db, channelId(request))
    const query = v.safeParse(WaVerifyQuery, request.query)
    const challenge = channel && query.success ? verifyHandshake(query.output, channel.verifyToken) : null
    if (challenge === null) throw detailError(403, 'permissionDenied', request.lang)
    if (!(await chatOn(app.deps, channel!.siteId))) throw detailError(403, 'moduleDisabled', request.lang)
    return reply.code(200).type('text/plain; charset=utf-8').send(challenge)
  })

  app.post(WEBHOOK_PATH, { config: { permission: 'public', bare: true }, bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
    const id = channelId(request)
    const body = raw.get(request) ?? Buffer.alloc(0)
    const channel = await cachedWhatsAppChannel(app.deps.db, id)
    // An unknown channel and a bad signature look the same to a caller who does not hold the secret.
    if (!channel || !verifySignature(body, request.headers['x-hub-signature-256'], channel.appSecret)) {
      throw detailError(401, 'notAuthenticated', request.lang)
    }
    if (!(await chatOn(app.deps, channel.siteId))) throw detailError(403, 'moduleDisabled', request.lang)
    // Durability before acknowledgement: if this throws (database down), Meta gets a 5xx and delivers again.
    const eventId = await storeWebhookEvent(app.deps, { siteId: channel.siteId, channelId: channel.id, body })
    reply.code(200).type('text/plain; charset=utf-8').send('EVENT_RECEIVED')
    // Processed after the answer (the core marks it done; its sweep retries a failure and finishes after a crash).
    // The event is at hand: it is not read back.
    setImmediate(() => void processWebhookEvent(app.deps, eventId, { id: eventId, siteId: channel.siteId, channelId: channel.id, body, type: 'whatsapp' }))
    return reply
  })
}
