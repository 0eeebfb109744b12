import { and, asc, desc, eq, inArray, isNotNull, or } from 'drizzle-orm'
import { assign, createActor, setup } from 'xstate'
import { callRecords, serviceNpsTelephony, serviceNpsTelephonyMoreQuestions, telephonyNpsAnswers } from '../../db/schema/index.ts'
import { resolveSound } from '../library.ts'
import type { MediaCall } from './call-context.ts'
import type { MediaEvent } from './machines.ts'

// `nps` by keypad (Settings → service → NPS, telephony kind): after the agent hangs up (a queue naming the survey keeps
// its callers for it) or as any destination, each question is played and answered with one key: 0–9 on the 0–10 scale
// (1 then 0 within TEN_MS is 10), 1–5 on the 1–5 scale. A key off the scale plays the invalid-answer audio and asks
// again; no key within the survey's timeout asks again; after `attempts` tries the question is left unanswered and the
// next one asked. Each answer is stored at once (telephony_nps_answers: the call, the agent who served it, the queue),
// so a caller hanging up half-way keeps what they answered. The thank-you audio, then the call ends. README.md "NPS".

/** After a 1 on the 0–10 scale: how long a 0 may follow to make it 10. */
export const TEN_MS = 1500

export type NpsInput = { questions: number; scale: string; timeoutMs: number; attempts: number }
type NpsContext = NpsInput & { question: number; tries: number; pending: string }

export function scoreOf(keys: string, scale: string): number | null {
  if (!/^\d{1,2}$/.test(keys)) return null
  const score = Number(keys)
  const [min, max] = scale === '1-5' ? [1, 5] : [0, 10]
  return score >= min && score <= max ? score : null
}

export const npsMachine = setup({
  types: { context: {} as NpsContext, input: {} as NpsInput, events: {} as MediaEvent },
  actions: {
    playQuestion: (_, _params: { question: number }) => {},
    playInvalid: () => {},
    playThanks: () => {},
    stopPlaying: () => {},
    answer: (_, _params: { question: number; score: number }) => {},
    hangup: () => {},
  },
  guards: {
    /** A 1 on the 0–10 scale may be the start of 10. */
    mayBeTen: ({ context, event }) => event.type === 'DTMF' && event.digit === '1' && context.scale !== '1-5',
    valid: ({ context, event }) => event.type === 'DTMF' && scoreOf(event.digit, context.scale) !== null,
    triesLeft: ({ context }) => context.tries + 1 < context.attempts,
    moreQuestions: ({ context }) => context.question + 1 < context.questions,
  },
  delays: { answerTimeout: ({ context }) => context.timeoutMs, ten: TEN_MS },
}).createMachine({
  id: 'nps',
  context: ({ input }) => ({ ...input, question: 0, tries: 0, pending: '' }),
  initial: 'asking',
  on: { ENDED: '.ended' },
  states: {
    asking: {
      initial: 'question',
      on: {
        DTMF: [
          { guard: 'mayBeTen', target: '.ten', actions: ['stopPlaying', assign({ pending: '1' })] },
          {
            guard: 'valid',
            target: 'answered',
            actions: ['stopPlaying', { type: 'answer', params: ({ context, event }) => ({ question: context.question, score: scoreOf(event.type === 'DTMF' ? event.digit : '', context.scale)! }) }],
          },
          { target: '.invalid', actions: 'stopPlaying' },
        ],
      },
      states: {
        question: { entry: { type: 'playQuestion', params: ({ context }) => ({ question: context.question }) }, on: { PLAYED: 'waiting' } },
        waiting: { after: { answerTimeout: '#nps.missed' } },
        invalid: { entry: 'playInvalid', on: { PLAYED: '#nps.missed' } },
        ten: {
          on: {
            DTMF: [
              {
                guard: ({ event }) => event.digit === '0',
                target: '#nps.answered',
                actions: { type: 'answer', params: ({ context }) => ({ question: context.question, score: 10 }) },
              },
              { target: '#nps.answeredOne' },
            ],
          },
          after: { ten: '#nps.answeredOne' },
        },
      },
    },
    answeredOne: {
      entry: { type: 'answer', params: ({ context }) => ({ question: context.question, score: 1 }) },
      always: 'answered',
    },
    /** No key, or a wrong one: asked again while tries are left, else the question stays unanswered. */
    missed: {
      always: [
        { guard: 'triesLeft', target: 'asking', actions: assign({ tries: ({ context }) => context.tries + 1 }) },
        { target: 'answered' },
      ],
    },
    answered: {
      always: [
        { guard: 'moreQuestions', target: 'asking', actions: assign({ question: ({ context }) => context.question + 1, tries: 0, pending: '' }) },
        { target: 'thanks' },
      ],
    },
    thanks: { entry: 'playThanks', on: { PLAYED: 'done' } },
    done: { entry: 'hangup', type: 'final' },
    ended: { type: 'final' },
  },
})

/**
 * The agent who served the call and the queue: its last answered step with an agent — the caller's own queue step, or
 * a leg the app bridged to an extension or call group (a step whose parent is one of the caller's) — none when the
 * survey was a destination.
 */
async function servedBy(call: MediaCall): Promise<{ userId: number | null; queueId: number | null }> {
  const own = call.db.select({ uid: callRecords.uid }).from(callRecords).where(and(eq(callRecords.siteId, call.siteId), eq(callRecords.callId, call.id)))
  const [step] = await call.db
    .select({ userId: callRecords.userId, queueId: callRecords.queueId })
    .from(callRecords)
    .where(
      and(
        eq(callRecords.siteId, call.siteId),
        or(eq(callRecords.callId, call.id), inArray(callRecords.parentUid, own)),
        isNotNull(callRecords.answeredAt),
        isNotNull(callRecords.userId),
      ),
    )
    .orderBy(desc(callRecords.answeredAt))
    .limit(1)
  return { userId: step?.userId ?? null, queueId: step?.queueId ?? null }
}

export async function enterNps(call: MediaCall, npsId: number): Promise<void> {
  const { db, siteId } = call
  const [nps] = await db
    .select()
    .from(serviceNpsTelephony)
    .where(and(eq(serviceNpsTelephony.siteId, siteId), eq(serviceNpsTelephony.id, npsId), eq(serviceNpsTelephony.isActive, true)))
  if (!nps) return call.hangup()
  const more = await db
    .select({ audioId: serviceNpsTelephonyMoreQuestions.audioId })
    .from(serviceNpsTelephonyMoreQuestions)
    .where(eq(serviceNpsTelephonyMoreQuestions.npstelephonyId, nps.id))
    .orderBy(asc(serviceNpsTelephonyMoreQuestions.position), asc(serviceNpsTelephonyMoreQuestions.id))
  const questions = await Promise.all([nps.questionAudioId, ...more.map((m) => m.audioId)].map((id) => resolveSound(db, siteId, id)))
  const invalid = nps.invalidAudioId ? await resolveSound(db, siteId, nps.invalidAudioId) : null
  const thanks = nps.thanksAudioId ? await resolveSound(db, siteId, nps.thanksAudioId) : null
  const served = await servedBy(call)
  const machine = npsMachine.provide({
    actions: {
      playQuestion: (_, { question }) => call.play(questions[question] ? [questions[question]] : [], false),
      playInvalid: () => call.play(invalid ? [invalid] : [], false),
      playThanks: () => call.play(thanks ? [thanks] : [], false),
      stopPlaying: () => call.stop(),
      answer: (_, { question, score }) =>
        void db
          .insert(telephonyNpsAnswers)
          .values({ siteId, npsId: nps.id, callId: call.id, userId: served.userId, queueId: served.queueId, question, scale: nps.scale, score })
          .onConflictDoNothing()
          .catch((err: unknown) => call.log.warn({ err }, 'media app: storing an NPS answer failed')),
      hangup: () => call.hangup(),
    },
  })
  call.setActor(createActor(machine, { input: { questions: questions.length, scale: nps.scale, timeoutMs: Math.max(1, nps.timeout) * 1000, attempts: Math.max(1, nps.attempts) } }).start())
}
