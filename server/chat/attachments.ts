import { spawn } from 'node:child_process'
import { createReadStream } from 'node:fs'
import { rename, rm, stat } from 'node:fs/promises'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { and, eq } from 'drizzle-orm'
import { CHAT_ATTACHMENT_PATHS, ChatAttachmentParams, ChatAttachmentQuery } from '../../contract/api/chat-attachments.ts'
import type { ChatUploadAnswer } from '../../contract/api/chat-attachments.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { message } from '../../contract/messages.ts'
import { chatRoomMessages, chatRooms } from '../db/schema/index.ts'
import { detailError, fieldErrors } from '../http/errors.ts'
import { readMultipart } from '../http/multipart.ts'
import { parseInput } from '../http/validate.ts'
import { AudioToolMissingError, isWebm, webmToOggOpus } from '../media/convert.ts'
import { CHAT_MAX_BYTES, VOICE_WEBM_MAX_BYTES, messageTypeOf, safeFileName, saveUpload, sniffChat, storedChatPath } from './attachment-store.ts'

// The attachment routes (README.md): agents upload before sending (checked by magic bytes and size), and every
// attachment is read through an authenticated, site-scoped URL — by the room's agent or a supervisor — always with
// nosniff and a sandboxing CSP. `convert_to=mp3` turns an OGG/Opus voice note into MP3 (opusdec | lame), cached
// beside the original. A voice note recorded in Chromium arrives as WebM/Opus, which neither WhatsApp nor the upload
// check accepts: from the record button only (`voice=1`), its Opus track is remuxed into Ogg Opus (mkvextract, no
// re-encoding) and that is what is stored and sent.

export { startAttachmentDownload, resumePendingDownloads, stopAttachmentDownloads } from './attachment-download.ts'
export { CHAT_KINDS, saveChatMedia, sniffChat, storedChatPath } from './attachment-store.ts'
export { attachmentUrl } from './serialize.ts'

const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/aac': 'aac',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/mp4': 'm4a',
  'video/3gpp': '3gp',
  'video/mp4': 'mp4',
  'application/pdf': 'pdf',
}

function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

/** Runs `opusdec in - | lame - out` (or lame alone for WAV); rejects when a tool is missing or fails. */
function toMp3(source: string, target: string, mime: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const lame = spawn('lame', ['--quiet', '-b', '64', '-', target], { stdio: ['pipe', 'ignore', 'ignore'] })
    let failed = false
    const fail = (error: Error) => {
      if (failed) return
      failed = true
      reject(error)
    }
    lame.on('error', fail)
    lame.stdin.on('error', () => {})
    if (mime === 'audio/wav') {
      createReadStream(source).on('error', fail).pipe(lame.stdin)
    } else {
      const decoder = spawn('opusdec', ['--quiet', '--force-wav', source, '-'], { stdio: ['ignore', 'pipe', 'ignore'] })
      decoder.on('error', fail)
      decoder.on('close', (code) => {
        if (code !== 0) fail(new Error(`opusdec exited ${code}`))
      })
      decoder.stdout.pipe(lame.stdin)
    }
    lame.on('close', (code) => (code === 0 ? !failed && resolve() : fail(new Error(`lame exited ${code}`))))
  })
}

const converting = new Map<string, Promise<void>>()

async function mp3Of(source: string, mime: string): Promise<string> {
  const target = source.replace(/\.[a-z0-9]+$/, '.mp3')
  if (target === source) return source
  try {
    await stat(target)
    return target
  } catch {
    // Not converted yet.
  }
  let run = converting.get(target)
  if (!run) {
    const partial = `${target}.${process.pid}.part`
    run = toMp3(source, partial, mime)
      .then(() => rename(partial, target))
      .catch(async (error: unknown) => {
        await rm(partial, { force: true })
        throw error
      })
      .finally(() => converting.delete(target))
    converting.set(target, run)
  }
  await run
  return target
}

export async function chatAttachmentRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app.deps

  app.post(CHAT_ATTACHMENT_PATHS.upload, { config: { permission: PERMISSIONS.viewChat } }, async (request) => {
    if (!request.isMultipart()) throw detailError(415, 'unsupportedMediaType', request.lang)
    const user = request.auth!.user
    let bytes: Buffer | undefined
    let name = ''
    let voice = false
    await readMultipart(
      request,
      async () => {
        for await (const part of request.parts({ limits: { fileSize: CHAT_MAX_BYTES, files: 1, fields: 5 } })) {
          if (part.type === 'file' && part.fieldname === 'file') {
            bytes = await part.toBuffer()
            name = part.filename ?? ''
          } else if (part.type === 'file') part.file.resume()
          else if (part.fieldname === 'voice') voice = part.value === '1' || part.value === 'true'
        }
      },
      () => fieldErrors({ file: [message('chatAttachmentRefused', request.lang)] }),
    )
    if (!bytes || bytes.length === 0) throw fieldErrors({ file: [message('required', request.lang)] })
    if (voice && isWebm(bytes)) {
      if (bytes.length > VOICE_WEBM_MAX_BYTES) throw fieldErrors({ file: [message('chatAttachmentRefused', request.lang)] })
      try {
        bytes = await webmToOggOpus(bytes)
      } catch (error) {
        if (error instanceof AudioToolMissingError) throw detailError(503, 'chatVoiceConvert', request.lang)
        throw fieldErrors({ file: [message('chatAttachmentRefused', request.lang)] })
      }
      name = `${name.replace(/\.webm$/i, '') || 'voice'}.ogg`
    }
    const kind = sniffChat(bytes)
    if (!kind) throw fieldErrors({ file: [message('chatAttachmentRefused', request.lang)] })
    const safeName = safeFileName(name, kind.ext)
    const id = await saveUpload(config.mediaDir, user.siteId, { userId: user.id, name: safeName, mime: kind.mime, size: bytes.length }, bytes, kind)
    return { id, name: safeName, mime: kind.mime, size: bytes.length, type: messageTypeOf(kind.mime) } satisfies ChatUploadAnswer
  })

  app.get(
    CHAT_ATTACHMENT_PATHS.file(':messageId'),
    { config: { permission: [PERMISSIONS.viewChat, PERMISSIONS.viewDashboardSupervisor] } },
    async (request, reply: FastifyReply) => {
      const { messageId } = parseInput(ChatAttachmentParams, request.params, request.lang)
      const query = parseInput(ChatAttachmentQuery, request.query, request.lang)
      const user = request.auth!.user
      const [row] = await db
        .select({ message: chatRoomMessages, roomUserId: chatRooms.userId })
        .from(chatRoomMessages)
        .innerJoin(chatRooms, eq(chatRooms.id, chatRoomMessages.roomId))
        .where(and(eq(chatRoomMessages.siteId, user.siteId), eq(chatRoomMessages.id, messageId)))
      const supervisor = request.auth!.roles.includes(PERMISSIONS.viewDashboardSupervisor)
      if (!row || (row.roomUserId !== user.id && !supervisor)) throw detailError(404, 'notFound', request.lang)
      const m = row.message
      const file = m.attachmentState === 'ready' && m.attachmentFile ? storedChatPath(config.mediaDir, m.siteId, m.attachmentFile) : null
      if (!file) throw detailError(404, 'notFound', request.lang)
      let path = file
      let mime = m.attachmentMime || 'application/octet-stream'
      let name = safeFileName(m.attachmentName, EXT[mime] ?? 'bin')
      if (query.convert_to === 'mp3' && mime !== 'audio/mpeg') {
        if (mime !== 'audio/ogg' && mime !== 'audio/wav') throw fieldErrors({ convert_to: [message('invalidValue', request.lang)] })
        try {
          path = await mp3Of(file, mime)
        } catch {
          throw detailError(503, 'chatAttachmentConvert', request.lang)
        }
        mime = 'audio/mpeg'
        name = name.replace(/\.[^.]*$/, '') + '.mp3'
      }
      const download = query.download === '1' || query.download === 'true'
      // Only media a browser shows safely go inline; anything else is always a download.
      const inline = !download && /^(image\/(png|jpeg|gif|webp)|audio\/|video\/|application\/pdf)/.test(mime)
      return reply
        .type(mime)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'private, max-age=3600')
        .header('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', name))
        .send(createReadStream(path))
    },
  )
}
