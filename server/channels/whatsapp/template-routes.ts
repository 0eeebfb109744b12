import type { FastifyInstance } from 'fastify'
import { and, asc, eq, inArray, notExists, or, sql } from 'drizzle-orm'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { templates as templatesEntity } from '../../../contract/entities/chat.ts'
import { TemplateDetailParams, TemplateDetailQuery, TemplateOptionsQuery, type ChatTemplateAnswer } from '../../../contract/whatsapp/templates-api.ts'
import { chatRooms, chatTemplates, chatTemplatesTeams, users } from '../../db/schema/index.ts'
import { detailError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import { mediaUrl } from '../../entities/media-store.ts'
import { SendTemplateBody } from '../../../contract/api/chat.ts'
import { sendTemplateMessage } from '../../chat/outbound.ts'
import { registerDetailReader } from '../../entities/entity-routes.ts'
import type { FastifyRequest } from 'fastify'
import { templateParams } from './templates.ts'

// GET /api/v1/chat/templates (the dialog's options), GET /api/v1/chat/templates/{id}/ (one template ready to fill) and
// POST /api/v1/chat/send-template-whatsapp/ (the core's sendTemplateMessage), spec 001 §7, for agents (sites.view_chat).
// Only active templates; those offered to some teams only when the agent is in one of them, unless `ignore-team=true`.
//
// GET /api/v1/chat/templates/{id}/ is also the settings catalogue's detail path (the templates entity). One route
// serves both (server/chat/README.md "One template path, two audiences"): the entity route asks `templateDetail` here;
// a caller who may manage templates (chat.view_template) and names no room or client gets the settings record as
// before; an agent, or any call with step_id / client_id / mailing_client_id, gets the spec's answer. The two shapes
// agree on every field the spec names (channel, template_type, media, content, params as name and value).

const NAME_PARAMS = new Set(['nome', 'name', 'cliente', 'client', 'customer', 'nombre'])

type Row = typeof chatTemplates.$inferSelect

async function answers(app: FastifyInstance, rows: Row[]): Promise<ChatTemplateAnswer[]> {
  const params = await templateParams(
    app.deps,
    rows.map((r) => r.id),
  )
  return rows.map((r) => ({
    id: r.id,
    description: r.description,
    channel: r.channelId,
    language: r.language,
    template_type: (['IMAGE', 'VIDEO'].includes(r.templateType) ? r.templateType : 'TEXT') as ChatTemplateAnswer['template_type'],
    media: r.media ? (r.media.startsWith('/') ? r.media : mediaUrl('chat-templates', r.media)) : null,
    content: r.content,
    params: params.get(r.id) ?? [],
  }))
}

/** One active template of the caller's site ready to fill, its name parameter filled with the room's customer. */
async function templateForDialog(app: FastifyInstance, request: FastifyRequest, id: number): Promise<ChatTemplateAnswer> {
  const query = parseInput(TemplateDetailQuery, request.query, request.lang)
  const site = request.site!
  const [row] = await app.deps.db
    .select()
    .from(chatTemplates)
    .where(and(eq(chatTemplates.siteId, site.id), eq(chatTemplates.id, id), eq(chatTemplates.isActive, true)))
  if (!row) throw detailError(404, 'notFound', request.lang)
  const [answer] = await answers(app, [row])
  // The room's customer fills a name parameter the admin left without a default.
  if (query.step_id) {
    const [room] = await app.deps.db
      .select({ title: chatRooms.title })
      .from(chatRooms)
      .where(and(eq(chatRooms.siteId, site.id), inArray(chatRooms.id, [query.step_id])))
    if (room?.title) answer.params = answer.params.map((p) => (!p.value && NAME_PARAMS.has(p.name.toLowerCase()) ? { ...p, value: room.title } : p))
  }
  return answer
}

const DIALOG_QUERY = ['step_id', 'client_id', 'mailing_client_id']

registerDetailReader('chat.templates', {
  readers: [PERMISSIONS.viewChat],
  async read(app, request, id, record) {
    const query = (request.query ?? {}) as Record<string, unknown>
    const manages = request.auth?.roles.includes(templatesEntity.permissions.view) ?? false
    if (manages && !DIALOG_QUERY.some((k) => k in query)) return record()
    return templateForDialog(app, request, id)
  },
})

export async function whatsappTemplateRoutes(app: FastifyInstance): Promise<void> {
  const permission = { config: { permission: PERMISSIONS.viewChat } }

  app.get('/v1/chat/templates', permission, async (request) => {
    const query = parseInput(TemplateOptionsQuery, request.query, request.lang)
    const site = request.site!
    const conditions = [eq(chatTemplates.siteId, site.id), eq(chatTemplates.isActive, true)]
    if (query.channel) conditions.push(eq(chatTemplates.channelId, query.channel))
    if (!query['ignore-team']) {
      const [me] = await app.deps.db.select({ teamId: users.teamId }).from(users).where(eq(users.id, request.auth!.user.id))
      const offered = app.deps.db
        .select({ one: sql`1` })
        .from(chatTemplatesTeams)
        .where(eq(chatTemplatesTeams.templateId, chatTemplates.id))
      const toMyTeam = app.deps.db
        .select({ one: sql`1` })
        .from(chatTemplatesTeams)
        .where(and(eq(chatTemplatesTeams.templateId, chatTemplates.id), eq(chatTemplatesTeams.teamId, me?.teamId ?? -1)))
      conditions.push(or(notExists(offered), sql`exists ${toMyTeam}`)!)
    }
    const rows = await app.deps.db
      .select()
      .from(chatTemplates)
      .where(and(...conditions))
      .orderBy(asc(chatTemplates.description), asc(chatTemplates.id))
    const results = await answers(app, rows)
    return { count: results.length, results }
  })

  // The spec's path without its slash answers the same (older clients of this server).
  app.get('/v1/chat/templates/:id', permission, async (request) => {
    const { id } = parseInput(TemplateDetailParams, request.params, request.lang)
    return templateForDialog(app, request, id)
  })

  app.post('/v1/chat/send-template-whatsapp/', permission, async (request) => {
    const body = parseInput(SendTemplateBody, request.body, request.lang)
    return sendTemplateMessage(app.deps, {
      siteId: request.site!.id,
      userId: request.auth!.user.id,
      channelId: body.channel_id,
      templateId: body.template_id,
      params: body.params,
      ...(body.phone ? { phone: body.phone } : {}),
      ...(body.step_id ? { roomId: body.step_id } : {}),
      lang: request.lang,
    })
  })
}
