import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { createSimulator } from '../../../simulator/whatsapp/simulator.ts'
import type { Simulator } from '../../../simulator/whatsapp/simulator.ts'
import { CHAT_ATTACHMENT_PATHS } from '../../../contract/api/chat-attachments.ts'
import type { ChatUploadAnswer } from '../../../contract/api/chat-attachments.ts'
import { chatRoomMessages, chatRooms } from '../../../server/db/schema/index.ts'
import { storedChatPath } from '../../../server/chat/attachment-store.ts'
import { multipartFile, signedIn, useTestApp } from '../helper.ts'
import { listen } from '../realtime/ws-helper.ts'
import { userId } from './chat-fixtures.ts'
import { APP_SECRET, createWhatsAppChannel } from '../channels/whatsapp/channel-fixture.ts'

// The agent's recorded voice note (issue 14): Chromium's MediaRecorder writes WebM/Opus, which neither WhatsApp nor the
// upload check accepts. From the record button only (`voice=1`), the upload's Opus track is remuxed into Ogg Opus
// (mkvextract), stored, sent to the customer as a WhatsApp voice note (audio with voice: true) and read back by the
// agent. The fixture is a real recording of Chromium's fake microphone (1.5 s, audio/webm;codecs=opus).

const here = path.dirname(fileURLToPath(import.meta.url))
const WEBM = path.join(here, 'fixtures', 'voice.webm')
const t = useTestApp()
const PHONE = '106540352200077'
const CUSTOMER = '5511987650077'
let sim: Simulator
let channelId: number
let siteId: number

const isOggOpus = (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'OggS' && b.subarray(28, 36).toString('latin1') === 'OpusHead'

beforeAll(async () => {
  const base = await listen(t.app)
  sim = createSimulator({ port: 8337, logger: false, sentDelayMs: 0, deliveredDelayMs: 0, autoReadMs: null })
  await sim.listen()
  const channel = await createWhatsAppChannel(t.database.db, { graphUrl: sim.url, phoneNumberId: PHONE })
  channelId = channel!.id
  siteId = channel!.siteId
  sim.addNumber({
    phone_number_id: PHONE,
    waba_id: '102290129300077',
    access_token: 'EAAG-test-token',
    app_secret: APP_SECRET,
    display_phone_number: '5511999990077',
    webhook_url: `${base.replace('ws:', 'http:')}/webhooks/whatsapp/${channelId}/`,
  })
})
afterAll(async () => {
  await sim?.close()
})

describe("the agent's recorded voice note", () => {
  it('a WebM/Opus recording is stored as Ogg Opus and reaches the customer as a WhatsApp voice note', async () => {
    const db = t.database.db
    const webm = await readFile(WEBM)
    expect(webm.readUInt32BE(0)).toBe(0x1a45dfa3)
    await sim.inbound({ phone_number_id: PHONE, from: CUSTOMER, type: 'text', text: { body: 'pode mandar um áudio?' }, wait: true })
    const room = await vi.waitFor(
      async () => {
        const [r] = await db
          .select()
          .from(chatRooms)
          .where(and(eq(chatRooms.channelId, channelId), eq(chatRooms.contact, CUSTOMER)))
        if (!r) throw new Error('no room yet')
        return r
      },
      { timeout: 20_000, interval: 50 },
    )
    await db
      .update(chatRooms)
      .set({ userId: await userId(db, siteId, 'agent1'), state: 'active', answeredAt: new Date() })
      .where(eq(chatRooms.id, room.id))

    const agent = await signedIn(t.app, 'agent1')
    const upload = await agent.request('POST', CHAT_ATTACHMENT_PATHS.upload, multipartFile('file', 'voice-1.webm', 'audio/webm', webm, { voice: '1' }))
    expect(upload.statusCode).toBe(200)
    const uploaded = upload.json() as ChatUploadAnswer
    expect(uploaded).toMatchObject({ mime: 'audio/ogg', type: 'voice', name: 'voice-1.ogg' })
    expect(uploaded.id).toMatch(/\.ogg$/)
    const stored = await readFile(storedChatPath(t.config.mediaDir, siteId, uploaded.id)!)
    expect(isOggOpus(stored)).toBe(true)
    expect(stored.length).toBe(uploaded.size)
    // The same Opus packets, not re-encoded: the Ogg is about the WebM's size.
    expect(Math.abs(stored.length - webm.length)).toBeLessThan(webm.length / 5)

    const sent = await agent.post(`/api/v1/chat/send-message/${room.id}/`, { content: '', attachment: uploaded.id, type: 'voice' })
    expect(sent.statusCode).toBe(200)
    const messageId = (sent.json() as { data: { id: number } }).data.id

    // The customer's phone gets an audio message marked voice, whose media are the Ogg Opus bytes.
    const out = await vi.waitFor(
      () => {
        const conv = [...sim.state.conversations.values()].find((c) => c.phone_number_id === PHONE)
        const m = conv?.messages.find((x) => x.direction === 'out' && x.type === 'audio')
        if (!m) throw new Error('no audio out yet')
        return m
      },
      { timeout: 20_000, interval: 50 },
    )
    const audio = out.payload.audio as { id: string; voice?: boolean }
    expect(audio.voice).toBe(true)
    const media = sim.state.media.get(audio.id)!
    expect(media.mime_type).toBe('audio/ogg')
    expect(media.bytes.equals(stored)).toBe(true)
    await vi.waitFor(
      async () => {
        const [row] = await db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, messageId))
        if (!row?.externalId) throw new Error('not accepted yet')
      },
      { timeout: 20_000, interval: 50 },
    )

    // The agent (and a supervisor) read it back as Ogg, and as MP3 for a browser without Ogg.
    const ogg = await agent.get(CHAT_ATTACHMENT_PATHS.file(messageId))
    expect(ogg.statusCode).toBe(200)
    expect(ogg.headers['content-type']).toBe('audio/ogg')
    expect(isOggOpus(ogg.rawPayload)).toBe(true)
    const supervisor = await signedIn(t.app, 'supervisor')
    expect((await supervisor.get(CHAT_ATTACHMENT_PATHS.file(messageId))).statusCode).toBe(200)
    const mp3 = await agent.get(`${CHAT_ATTACHMENT_PATHS.file(messageId)}?convert_to=mp3`)
    expect(mp3.statusCode).toBe(200)
    expect(mp3.headers['content-type']).toBe('audio/mpeg')
  })

  it('refuses WebM outside the record button, a WebM with no Opus in it, and one past the size limit', async () => {
    const agent = await signedIn(t.app, 'agent1')
    const webm = await readFile(WEBM)
    const refused = { file: ['Tipo de arquivo não permitido ou arquivo grande demais.'] }
    // An ordinary attachment: WebM is not a kind a chat takes.
    const plain = await agent.request('POST', CHAT_ATTACHMENT_PATHS.upload, multipartFile('file', 'voice.webm', 'audio/webm', webm))
    expect(plain.statusCode).toBe(400)
    expect(plain.json()).toEqual(refused)
    // The WebM's header and nothing a demuxer can read.
    const broken = Buffer.concat([webm.subarray(0, 64), Buffer.alloc(2000, 7)])
    const bad = await agent.request('POST', CHAT_ATTACHMENT_PATHS.upload, multipartFile('file', 'voice.webm', 'audio/webm', broken, { voice: '1' }))
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual(refused)
    // Past 16 MB.
    const huge = Buffer.concat([webm, Buffer.alloc(16 * 1024 * 1024)])
    const big = await agent.request('POST', CHAT_ATTACHMENT_PATHS.upload, multipartFile('file', 'voice.webm', 'audio/webm', huge, { voice: '1' }))
    expect(big.statusCode).toBe(400)
    expect(big.json()).toEqual(refused)
  })
})
