import path from 'node:path'
import { rm } from 'node:fs/promises'
import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { VOICEMAIL_PATHS, VoicemailAudioQuery, VoicemailIdParam, VoicemailListQuery, VoicemailPatch } from '../../contract/api/voicemail.ts'
import type { VoicemailList, VoicemailMessage } from '../../contract/api/voicemail.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import type { Permission } from '../../contract/permissions.ts'
import { pabxDevices, pabxVoicemails, voicemailMessages } from '../db/schema/index.ts'
import { detailError } from '../http/errors.ts'
import { isFile, sendStoredFile } from '../http/files.ts'
import type { RoutePermission } from '../http/permission-guard.ts'
import { parseInput } from '../http/validate.ts'
import { ensureRendition } from './convert.ts'
import { voicemailDir } from './library.ts'

// The voicemail messages API (contract/api/voicemail.ts; README.md "Voicemail"): a box's owners (the users whose
// extension names it) list, play, download, mark heard and delete its messages; pabx.view_voicemail sees every box of
// the site, pabx.change_voicemail / pabx.delete_voicemail mark and delete in any of them. Always the caller's site.

const VOICEMAILS = entityByKey('pabx.voicemails').permissions
const PAGE = 50
const PAGE_MAX = 500

type Who = { siteId: number; userId: number; deviceId: number | null; roles: readonly string[] }

const whoOf = (request: FastifyRequest): Who => {
  const { user, roles } = request.auth!
  return { siteId: user.siteId, userId: user.id, deviceId: user.deviceId, roles }
}

/** The boxes whose messages `who` may see: all (null) or the one their extension names. */
async function visibleBoxes(app: FastifyInstance, who: Who): Promise<number[] | null> {
  if (who.roles.includes(VOICEMAILS.view)) return null
  if (!who.deviceId) return []
  const rows = await app.deps.db
    .select({ id: pabxDevices.voicemailId })
    .from(pabxDevices)
    .where(and(eq(pabxDevices.siteId, who.siteId), eq(pabxDevices.id, who.deviceId), isNotNull(pabxDevices.voicemailId)))
  return rows.map((r) => r.id!)
}

function scope(who: Who, boxes: number[] | null): SQL {
  const site = eq(voicemailMessages.siteId, who.siteId)
  if (boxes === null) return site
  return boxes.length ? and(site, inArray(voicemailMessages.voicemailId, boxes))! : sql`false`
}

const serialize = (row: typeof voicemailMessages.$inferSelect, box: { description: string; mailbox: string }): VoicemailMessage => ({
  id: row.id,
  voicemail: row.voicemailId,
  voicemail_name: box.description || box.mailbox,
  call_id: row.callId,
  caller: row.caller,
  phone: row.phone,
  duration: Math.ceil(row.durationMs / 1000),
  heard: row.heardAt !== null,
  heard_at: row.heardAt?.toISOString() ?? null,
  created: row.createdAt.toISOString(),
  audio: `/api${VOICEMAIL_PATHS.audio.replace(':id', String(row.id))}`,
})

export async function voicemailRoutes(app: FastifyInstance): Promise<void> {
  const db = app.deps.db
  // An owner needs the softphone (an extension); a supervisor the voicemails' view codename.
  const permission: RoutePermission = [PERMISSIONS.viewSoftphone, VOICEMAILS.view as Permission] as RoutePermission

  /** One message `who` may see, else 404 (another site's, another box's, or none). */
  async function visible(request: FastifyRequest) {
    const who = whoOf(request)
    const { id } = parseInput(VoicemailIdParam, request.params, request.lang)
    const boxes = await visibleBoxes(app, who)
    const [found] = await db
      .select({ message: voicemailMessages, box: { description: pabxVoicemails.description, mailbox: pabxVoicemails.mailbox } })
      .from(voicemailMessages)
      .innerJoin(pabxVoicemails, eq(pabxVoicemails.id, voicemailMessages.voicemailId))
      .where(and(scope(who, boxes), eq(voicemailMessages.id, id)))
    if (!found) throw detailError(404, 'notFound', request.lang)
    return { who, boxes, ...found }
  }

  /** Changing a box's messages: its owner, or a holder of `codename`. */
  function mayChange(request: FastifyRequest, who: Who, boxes: number[] | null, voicemailId: number, codename: string): void {
    if (who.roles.includes(codename)) return
    // A supervisor who only views (boxes null) and owns nothing here.
    if (boxes === null || !boxes.includes(voicemailId)) throw detailError(403, 'permissionDenied', request.lang)
  }

  app.get(VOICEMAIL_PATHS.messages, { config: { permission } }, async (request): Promise<VoicemailList> => {
    const who = whoOf(request)
    const query = parseInput(VoicemailListQuery, request.query, request.lang)
    const boxes = await visibleBoxes(app, who)
    const filters = [scope(who, boxes)]
    if (query.voicemail !== undefined) filters.push(eq(voicemailMessages.voicemailId, query.voicemail))
    if (query.heard !== undefined) filters.push(query.heard ? isNotNull(voicemailMessages.heardAt) : isNull(voicemailMessages.heardAt))
    const where = and(...filters)
    const [total] = await db.select({ n: count() }).from(voicemailMessages).where(where)
    const [unheard] = await db
      .select({ n: count() })
      .from(voicemailMessages)
      .where(and(where, isNull(voicemailMessages.heardAt)))
    const rows = await db
      .select({ message: voicemailMessages, box: { description: pabxVoicemails.description, mailbox: pabxVoicemails.mailbox } })
      .from(voicemailMessages)
      .innerJoin(pabxVoicemails, eq(pabxVoicemails.id, voicemailMessages.voicemailId))
      .where(where)
      .orderBy(desc(voicemailMessages.createdAt), desc(voicemailMessages.id))
      .limit(Math.min(query.limit ?? PAGE, PAGE_MAX))
      .offset(query.offset ?? 0)
    return { count: total?.n ?? 0, unheard: unheard?.n ?? 0, results: rows.map((r) => serialize(r.message, r.box)) }
  })

  app.get(VOICEMAIL_PATHS.message, { config: { permission } }, async (request) => {
    const { message, box } = await visible(request)
    return serialize(message, box)
  })

  app.patch(VOICEMAIL_PATHS.message, { config: { permission } }, async (request) => {
    const { who, boxes, message, box } = await visible(request)
    mayChange(request, who, boxes, message.voicemailId, VOICEMAILS.change)
    const { heard } = parseInput(VoicemailPatch, request.body ?? {}, request.lang)
    const [row] = await db
      .update(voicemailMessages)
      .set(heard ? { heardAt: message.heardAt ?? new Date(), heardBy: message.heardBy ?? who.userId } : { heardAt: null, heardBy: null })
      .where(and(eq(voicemailMessages.id, message.id), eq(voicemailMessages.siteId, who.siteId)))
      .returning()
    return serialize(row!, box)
  })

  app.delete(VOICEMAIL_PATHS.message, { config: { permission } }, async (request, reply) => {
    const { who, boxes, message } = await visible(request)
    mayChange(request, who, boxes, message.voicemailId, VOICEMAILS.delete)
    await db.delete(voicemailMessages).where(and(eq(voicemailMessages.id, message.id), eq(voicemailMessages.siteId, who.siteId)))
    const dir = voicemailDir(db)
    await rm(path.join(dir, message.file), { force: true })
    await rm(path.join(dir, message.file.replace(/\.wav$/, '.mp3')), { force: true })
    return reply.status(204).send()
  })

  app.get(VOICEMAIL_PATHS.audio, { config: { permission } }, async (request, reply) => {
    const { message } = await visible(request)
    const query = parseInput(VoicemailAudioQuery, request.query, request.lang)
    const dir = voicemailDir(db)
    const wav = path.join(dir, path.basename(message.file))
    if (!(await isFile(wav))) throw detailError(404, 'notFound', request.lang)
    const format = query.extension ?? 'mp3'
    let file = wav
    if (format === 'mp3') {
      file = wav.replace(/\.wav$/, '.mp3')
      try {
        await ensureRendition(wav, file)
      } catch (error) {
        request.log.warn({ err: error }, 'no mp3 rendition of a voicemail')
        throw detailError(503, 'recordingEncoderMissing', request.lang)
      }
    }
    const download = query.download === '1' || query.download === 'true'
    return sendStoredFile(reply, file, {
      type: format === 'mp3' ? 'audio/mpeg' : 'audio/wav',
      filename: `voicemail-${message.id}.${format}`,
      disposition: download ? 'attachment' : 'inline',
    }).header('Cache-Control', 'private, max-age=86400')
  })
}
