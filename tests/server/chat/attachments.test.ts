import { describe, expect, it } from 'vitest'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { eq } from 'drizzle-orm'
import { downloadTiming } from '../../../server/chat/attachment-download.ts'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { sendAgentMessage } from '../../../server/chat/outbound.ts'
import { registerChannelDriver } from '../../../server/chat/outbox.ts'
import { chatRoomMessages } from '../../../server/db/schema/index.ts'
import { CHAT_ATTACHMENT_PATHS } from '../../../contract/api/chat-attachments.ts'
import { multipartFile, signedIn, useTestApp } from '../helper.ts'
import { assign, chatFixture, until, waText } from './chat-helper.ts'
import type { ChatFixture } from './chat-helper.ts'

const t = useTestApp()
let f: ChatFixture
const fixture = async () => (f ??= await chatFixture(t))
const VOICE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'voice.ogg')
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a40000000049454e44ae426082',
  'hex',
)

// The provider's media store, as the fake driver serves it; `failures` makes the next downloads throw.
const media = new Map<string, Buffer>()
let failures = 0
downloadTiming.firstDelayMs = 10
registerChannelDriver({
  type: 'whatsapp',
  deliver: async (_deps, job) => ({ outcome: 'sent', externalId: `wamid.${job.message.id}` }),
  download: async (_deps, _channelId, source) => {
    if (failures > 0) {
      failures--
      throw new Error('graph API 500')
    }
    return { bytes: media.get(String(source.id))!, mime: 'application/octet-stream' }
  },
})

let n = 0
async function agentRoom(f: ChatFixture) {
  n++
  const inbound = await receiveInbound(f.deps, waText(f, `55619${String(40000000 + n)}`, 'oi'))
  await assign(f, inbound.roomId, f.agent1)
  return inbound.roomId
}

const messageRow = async (f: ChatFixture, id: number) => (await f.deps.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, id)))[0]!

describe('chat attachments', () => {
  it('an agent uploads an image (checked by its bytes), sends it, and reads it back inline with nosniff', async () => {
    const f = await fixture()
    const agent = await signedIn(t.app, 'agent1')
    const upload = multipartFile('file', 'foto.png', 'image/png', PNG)
    const answer = await agent.request('POST', CHAT_ATTACHMENT_PATHS.upload, upload)
    expect(answer.statusCode).toBe(200)
    const uploaded = answer.json() as { id: string; type: string; mime: string }
    expect(uploaded).toMatchObject({ type: 'photo', mime: 'image/png' })
    const roomId = await agentRoom(f)
    const message = await sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { attachment: uploaded.id } })
    expect(message).toMatchObject({ type: 'photo', attachment: CHAT_ATTACHMENT_PATHS.file(message.id), attachment_name: 'foto.png' })
    const read = await agent.get(message.attachment!)
    expect(read.statusCode).toBe(200)
    expect(read.headers['content-type']).toBe('image/png')
    expect(read.headers['x-content-type-options']).toBe('nosniff')
    expect(String(read.headers['content-disposition'])).toMatch(/^inline; filename="foto.png"/)
    expect(read.rawPayload.equals(PNG)).toBe(true)
    const download = await agent.get(`${message.attachment!}?download=1`)
    expect(String(download.headers['content-disposition'])).toMatch(/^attachment; filename="foto.png"/)
    // Another agent does not see it; a supervisor does.
    expect((await (await signedIn(t.app, 'agent2')).get(message.attachment!)).statusCode).toBe(404)
    expect((await (await signedIn(t.app, 'supervisor')).get(message.attachment!)).statusCode).toBe(200)
    // Someone else's upload id cannot be sent.
    const other = await sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent2, roomId, body: { attachment: uploaded.id } }).catch((e: unknown) => e)
    expect(other).toBeInstanceOf(Error)
  })

  it('refuses a file whose bytes are not an accepted kind, whatever its name and type say', async () => {
    const agent = await signedIn(t.app, 'agent1')
    const html = multipartFile('file', 'foto.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>'))
    const answer = await agent.request('POST', CHAT_ATTACHMENT_PATHS.upload, html)
    expect(answer.statusCode).toBe(400)
    expect(answer.json()).toEqual({ file: ['Tipo de arquivo não permitido ou arquivo grande demais.'] })
    // An image past its kind's limit (5 MB) is refused too.
    const huge = multipartFile('file', 'grande.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]))
    const tooLarge = await agent.request('POST', CHAT_ATTACHMENT_PATHS.upload, huge)
    expect(tooLarge.statusCode).toBe(400)
    expect(tooLarge.json()).toEqual({ file: ['Tipo de arquivo não permitido ou arquivo grande demais.'] })
    expect((await agent.get(CHAT_ATTACHMENT_PATHS.file('abc'))).statusCode).toBe(400)
    expect((await agent.get(`${CHAT_ATTACHMENT_PATHS.file(1)}?convert_to=wav`)).statusCode).toBe(400)
  })

  it("a customer's voice note is downloaded through the driver (retried), then served as mp3 with convert_to=mp3", async () => {
    const f = await fixture()
    media.set('voice-1', await readFile(VOICE))
    failures = 2
    const inbound = await receiveInbound(
      f.deps,
      waText(f, '5561999990000', '', { type: 'voice', attachment: { pending: { id: 'voice-1' }, name: 'audio.ogg', mime: 'audio/ogg; codecs=opus' } }),
    )
    await assign(f, inbound.roomId, f.agent1)
    expect((await messageRow(f, inbound.messageId)).attachmentState).toBe('pending')
    await until(async () => (await messageRow(f, inbound.messageId)).attachmentState === 'ready', 'the download')
    expect((await messageRow(f, inbound.messageId)).attachmentMime).toBe('audio/ogg')
    await until(() => f.events.some((e) => e.type === 'message' && e.message.id === inbound.messageId && e.message.attachment !== null), 'the ready event')
    const agent = await signedIn(t.app, 'agent1')
    const ogg = await agent.get(CHAT_ATTACHMENT_PATHS.file(inbound.messageId))
    expect(ogg.headers['content-type']).toBe('audio/ogg')
    const mp3 = await agent.get(`${CHAT_ATTACHMENT_PATHS.file(inbound.messageId)}?convert_to=mp3&download=1`)
    expect(mp3.statusCode).toBe(200)
    expect(mp3.headers['content-type']).toBe('audio/mpeg')
    expect(String(mp3.headers['content-disposition'])).toMatch(/^attachment; filename="audio.mp3"/)
    const bytes = mp3.rawPayload
    expect(bytes.length).toBeGreaterThan(100)
    expect(bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)).toBe(true)
    // Converted once, then served from the cache.
    const again = await agent.get(`${CHAT_ATTACHMENT_PATHS.file(inbound.messageId)}?convert_to=mp3`)
    expect(again.rawPayload.equals(bytes)).toBe(true)
  })

  it('a downloaded file whose bytes are not an accepted kind is marked failed, not stored', async () => {
    const f = await fixture()
    media.set('bad-1', Buffer.from('MZ\x90\x00 not a picture'))
    const inbound = await receiveInbound(
      f.deps,
      waText(f, '5561988880000', '', { type: 'photo', attachment: { pending: { id: 'bad-1' }, name: 'x.jpg', mime: 'image/jpeg' } }),
    )
    await until(async () => (await messageRow(f, inbound.messageId)).attachmentState === 'failed', 'the refusal')
    expect((await messageRow(f, inbound.messageId)).attachmentFile).toBeNull()
  })
})
