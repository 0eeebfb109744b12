import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { and, asc, count, eq, isNotNull } from 'drizzle-orm'
import { createActor, setup } from 'xstate'
import type { Db } from '../../db/client.ts'
import { pabxDevices, pabxVoicemails, users, voicemailMessages } from '../../db/schema/index.ts'
import { wavFile } from '../../telephony/control/recordings/mix.ts'
import { resolvePromptSet, resolveSound, voicemailDir } from '../library.ts'
import type { MediaCall } from './call-context.ts'
import type { MediaEvent } from './machines.ts'

// `voicemail`: the box's greeting (its own prompt, else the keyed `voicemail` prompt of the box's language), the
// tone, then what the caller says is recorded until they hang up, press # or the box's maximum length runs out; the
// message is stored with the caller and its length, and the box's owners are told (their top bar). A full box (its
// maximum of messages) or an inactive one says goodbye without recording. README.md "Voicemail".

/** Shorter than this is a hang-up at the tone, not a message. */
export const MIN_MESSAGE_MS = 700
const BEEP_HZ = 1000
const BEEP_MS = 400

export type VoicemailInput = { maxMs: number; canRecord: boolean }

export const voicemailMachine = setup({
  types: { context: {} as VoicemailInput, input: {} as VoicemailInput, events: {} as MediaEvent },
  actions: {
    playGreeting: () => {},
    startRecording: () => {},
    stopRecording: () => {},
    store: (_, _params: { file: string; ms: number }) => {},
    playGoodbye: () => {},
    hangup: () => {},
  },
  guards: { canRecord: ({ context }) => context.canRecord },
}).createMachine({
  id: 'voicemail',
  context: ({ input }) => input,
  initial: 'greeting',
  on: {
    ENDED: '.ended',
    // A recording ends with the call too (the worker writes it before it says the call ended).
    RECORDED: { target: '.goodbye', actions: { type: 'store', params: ({ event }) => ({ file: event.file, ms: event.ms }) } },
  },
  states: {
    greeting: { entry: 'playGreeting', on: { PLAYED: [{ guard: 'canRecord', target: 'recording' }, { target: 'goodbye' }] } },
    recording: {
      entry: 'startRecording',
      // # ends the message (the recording stops when the call does).
      on: { DTMF: { guard: ({ event }) => event.digit === '#', actions: 'stopRecording' } },
    },
    goodbye: { entry: 'playGoodbye', on: { PLAYED: 'done', RECORDED: {} } },
    done: { entry: 'hangup', type: 'final' },
    ended: { type: 'final' },
  },
})

/** The tone after the greeting: made once into the voicemail folder. */
async function beep(dir: string): Promise<string> {
  const file = path.join(dir, 'tone-1000hz.wav')
  try {
    await stat(file)
    return file
  } catch {
    const samples = (8000 * BEEP_MS) / 1000
    const pcm = new Int16Array(samples)
    for (let i = 0; i < samples; i++) pcm[i] = Math.round(Math.sin((2 * Math.PI * BEEP_HZ * i) / 8000) * 12000 * Math.min(1, i / 80, (samples - i) / 80))
    const tmp = `${file}.${process.pid}.tmp`
    await writeFile(tmp, wavFile(pcm))
    await rename(tmp, file)
    return file
  }
}

/** Who is told of a box's messages: the users whose extension names the box (shared: several extensions name it). */
export async function voicemailOwners(db: Db, siteId: number, voicemailId: number): Promise<{ userId: number; language: string }[]> {
  return db
    .select({ userId: users.id, language: pabxDevices.language })
    .from(pabxDevices)
    .innerJoin(users, and(eq(users.deviceId, pabxDevices.id), eq(users.siteId, pabxDevices.siteId)))
    .where(and(eq(pabxDevices.siteId, siteId), eq(pabxDevices.voicemailId, voicemailId), isNotNull(users.id)))
    .orderBy(asc(pabxDevices.id))
}

export async function enterVoicemail(call: MediaCall, voicemailId: number): Promise<void> {
  const { db, siteId } = call
  const [box] = await db
    .select()
    .from(pabxVoicemails)
    .where(and(eq(pabxVoicemails.siteId, siteId), eq(pabxVoicemails.id, voicemailId), eq(pabxVoicemails.isActive, true)))
  if (!box) return call.hangup()
  const owners = await voicemailOwners(db, siteId, box.id)
  const prompts = await resolvePromptSet(db, siteId, owners[0]?.language ?? 'pt-BR')
  const greeting = (box.greetingId ? await resolveSound(db, siteId, box.greetingId) : null) ?? prompts.get('voicemail') ?? null
  const goodbye = prompts.get('goodbye') ?? null
  const [stored] = await db.select({ n: count() }).from(voicemailMessages).where(and(eq(voicemailMessages.siteId, siteId), eq(voicemailMessages.voicemailId, box.id)))
  const canRecord = (stored?.n ?? 0) < box.maxMessages
  const dir = voicemailDir(db)
  await mkdir(dir, { recursive: true })
  const tone = await beep(dir)
  const name = `${randomBytes(12).toString('hex')}.wav`
  const machine = voicemailMachine.provide({
    actions: {
      playGreeting: () => call.play([...(greeting ? [greeting] : []), ...(canRecord ? [tone] : [])], false),
      startRecording: () => call.send({ cmd: 'record', id: call.id, file: path.join(dir, name), maxMs: box.maxMessageSeconds * 1000 }),
      // The worker finishes a recording when it hangs up; the message is stored from its `recorded`.
      stopRecording: () => call.hangup(),
      store: (_, { file, ms }) => void storeMessage(call, box.id, file, ms).catch((err: unknown) => call.log.warn({ err }, 'media app: storing a voicemail failed')),
      playGoodbye: () => call.play(goodbye ? [goodbye] : [], false),
      hangup: () => call.hangup(),
    },
  })
  call.setActor(createActor(machine, { input: { maxMs: box.maxMessageSeconds * 1000, canRecord } }).start())
}

async function storeMessage(call: MediaCall, voicemailId: number, file: string, ms: number): Promise<void> {
  if (ms < MIN_MESSAGE_MS) {
    await rm(file, { force: true })
    return
  }
  const [row] = await call.db
    .insert(voicemailMessages)
    .values({ siteId: call.siteId, voicemailId, callId: call.id, caller: call.caller.slice(0, 80), phone: call.phone.slice(0, 80), durationMs: Math.round(ms), file: path.basename(file) })
    .returning({ id: voicemailMessages.id })
  const owners = await voicemailOwners(call.db, call.siteId, voicemailId)
  call.log.info({ callId: call.id, voicemailId, ms }, 'media app: voicemail message stored')
  call.hooks.onVoicemail?.({ siteId: call.siteId, voicemailId, messageId: row!.id, userIds: owners.map((o) => o.userId) })
}
