import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  ANSWER_FAILED_NOTICE,
  CLASSIFICATION_REQUIRED_NOTICE,
  FORM_REQUIRED_NOTICE,
  NEW_CHAT_NOTIFICATION_MS,
  NEW_CHAT_TITLE,
  SYNC_STEP_DELAY_MS,
  UNREAD_RETRY_MS,
  CLIENT_TYPING_MS,
  AGENT_TYPING_EVERY_MS,
  chatRoomMachine,
  pauseAllows,
  removeAfterSeconds,
  shouldAddRoom,
  type ChatRoomContext,
  type ChatRoomInput,
} from '../../machines/chatRoom.machine.ts'
import { createFakes, describePaths, effectsOf, type Effect, type Fakes } from './paths.ts'

const ACTIONS = [
  'sendSocket',
  'startRing',
  'stopRing',
  'showNotification',
  'closeNotification',
  'ringInactivity',
  'notify',
  'retryUnread',
  'showTyping',
  'removed',
] as const

function build(fakes: Fakes) {
  return chatRoomMachine.provide({ actions: fakes.actions(ACTIONS), actors: fakes.requests(['saveForm', 'closeChat']) })
}

const BASE: ChatRoomInput = { stepId: 9, chatType: 20, assignedToMe: false, removeAfterSeconds: 2 }
const context = (snapshot: AnyMachineSnapshot) => snapshot.context as ChatRoomContext
const within = (snapshot: AnyMachineSnapshot, state: string) => snapshot.matches(state)

const EVENTS: AnyEventObject[] = [
  { type: 'ANSWER' },
  { type: 'HANGUP' },
  { type: 'ANSWERED' },
  { type: 'ANSWER_FAILED' },
  { type: 'ENDED' },
  { type: 'REMOVE' },
  { type: 'DROPPED' },
  { type: 'MESSAGES_CHANGED' },
  { type: 'CLIENT_MESSAGE_UNSEEN' },
  { type: 'SCROLLED_TO_BOTTOM' },
]

/** The sync_step wait (500 ms) and the unread retry (10 s) run side by side: offer the retry only while no sync waits. */
const offerDelayed = (snapshot: AnyMachineSnapshot, type: string) => !(type.includes('unreadRetry') && snapshot.matches({ answered: { sync: 'pending' } }))

describePaths({
  name: 'chatRoom',
  machine: chatRoomMachine,
  input: BASE,
  events: () => EVENTS,
  offerDelayed,
  distinguish: (event) => ['MESSAGES_CHANGED', 'CLIENT_MESSAGE_UNSEEN', 'SCROLLED_TO_BOTTOM'].includes(event.type),
  // The answered room's two regions loop freely (a sync wait restarted by every change, the bar shown and hidden):
  // simple paths run on sub-models that start answered or auto-answering and offer the events that matter there.
  simplePaths: [
    { name: 'queued room', events: () => EVENTS.filter((event) => !['MESSAGES_CHANGED', 'CLIENT_MESSAGE_UNSEEN', 'SCROLLED_TO_BOTTOM'].includes(event.type)) },
    { name: 'auto-answered room', input: { ...BASE, autoAnswer: true }, events: () => EVENTS.filter((event) => event.type !== 'SCROLLED_TO_BOTTOM') },
  ],
  timed: [],
  build,
  expectEffects: (_snapshot, log, path) => expectRoomEffects(log, path.steps),
})

describePaths({
  name: 'chatRoom (outgoing chat assigned to the agent: auto-answered)',
  machine: chatRoomMachine,
  input: { ...BASE, chatType: 10, assignedToMe: true },
  events: () => EVENTS,
  offerDelayed,
  simplePaths: false, // the same graph as the main suite's answered part, entered through answering
  build,
  expectEffects: (_snapshot, log, path) => {
    expect(
      effectsOf(
        log.filter((effect) => effect.step === 0),
        'sendSocket',
      ),
    ).toEqual([{ action: 'answer', step_id: 9 }])
    expect(effectsOf(log, 'startRing')).toEqual([])
    expectRoomEffects(log, path.steps)
  },
})

// Closing (spec 001 §5, issue 15): an answered room learns its outcome from the Form and Classification tabs; CLOSE is
// refused with the spec's toasts while a required classification or a required form is missing, a valid unsent form
// is saved first, a forced close skips the checks, and a refused request says why. Every path from an answered room.
const OUTCOMES = [
  { type: 'OUTCOME', classificationRequired: true, classified: false, hasForm: true, formRequired: true, formValid: false, formSent: false },
  { type: 'OUTCOME', classified: true },
  { type: 'OUTCOME', formValid: true },
] as const
const CLOSING_EVENTS = (snapshot: AnyMachineSnapshot): AnyEventObject[] => [
  ...(snapshot.matches({ answered: { closing: 'idle' } }) ? [...OUTCOMES, { type: 'CLOSE' }, { type: 'CLOSE', force: true }] : []),
  ...(snapshot.matches({ answered: { closing: 'savingForm' } })
    ? [
        { type: 'xstate.done.actor.saveForm', output: { success: true } },
        { type: 'xstate.error.actor.saveForm', error: new Error('Valor inválido') },
      ]
    : []),
  ...(snapshot.matches({ answered: { closing: 'requesting' } })
    ? [
        { type: 'xstate.done.actor.closeChat', output: { success: true } },
        { type: 'xstate.error.actor.closeChat', error: new Error(CLASSIFICATION_REQUIRED_NOTICE) },
      ]
    : []),
  ...(snapshot.matches({ answered: { closing: 'requested' } }) ? [{ type: 'ENDED' }] : []),
]

describePaths({
  name: 'chatRoom closing',
  machine: chatRoomMachine,
  input: { ...BASE, answered: true },
  events: CLOSING_EVENTS,
  serializeState: (snapshot) => JSON.stringify([snapshot.value, (snapshot.context as ChatRoomContext).outcome]),
  distinguish: (event) => event.type === 'CLOSE',
  simplePaths: false,
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      const before = index > 0 ? path.steps[index - 1]!.state : null
      const label = `step ${index} ${step.event.type}`
      const notices = effectsOf(effects, 'notify') as { message: string }[]
      if (step.event.type === 'CLOSE' && before) {
        const outcome = (before.context as ChatRoomContext).outcome
        const forced = (step.event as { force?: boolean }).force === true
        const expected = forced
          ? []
          : outcome.classificationRequired && !outcome.classified
            ? [CLASSIFICATION_REQUIRED_NOTICE]
            : outcome.hasForm && outcome.formRequired && !outcome.formValid && !outcome.formSent
              ? [FORM_REQUIRED_NOTICE]
              : []
        expect(
          notices.map((n) => n.message),
          label,
        ).toEqual(expected)
        // Refused: nothing requested. Allowed: the unsent valid form first, else the close (forced when forced).
        const saving = !forced && expected.length === 0 && outcome.hasForm && !outcome.formSent && outcome.formValid
        expect(effectsOf(effects, 'saveForm'), label).toEqual(saving ? [{ stepId: 9 }] : [])
        expect(effectsOf(effects, 'closeChat'), label).toEqual(expected.length === 0 && !saving ? [{ stepId: 9, force: forced }] : [])
      }
      if (step.event.type === 'xstate.done.actor.saveForm') expect(effectsOf(effects, 'closeChat'), label).toEqual([{ stepId: 9, force: false }])
      if (step.event.type.startsWith('xstate.error.actor.')) expect(notices.length, label).toBe(1)
    })
    // The room is removed only after the server's end; a close never removes it by itself.
    if (snapshot.matches({ answered: { closing: 'requested' } })) expect(effectsOf(log, 'removed')).toEqual([])
  },
})

// Typing (ours): every path of an answered room under the customer's typing frames and messages, the agent's
// keystrokes and the end. 'digitando…' shows on the first frame and hides once (their message, 5 s of silence, the
// end); the agent's keystrokes send `typing` only when none was sent in the last 3 s.
const TYPING_EVENTS: AnyEventObject[] = [{ type: 'CLIENT_TYPING' }, { type: 'CLIENT_MESSAGE' }, { type: 'TYPED' }, { type: 'ENDED' }]
const typingShown = (snapshot: AnyMachineSnapshot) => snapshot.matches({ answered: { clientTyping: 'typing' } })
const agentTold = (snapshot: AnyMachineSnapshot) => snapshot.matches({ answered: { agentTyping: 'told' } })

describePaths({
  name: 'chatRoom typing',
  machine: chatRoomMachine,
  input: { ...BASE, answered: true },
  events: (snapshot) => (snapshot.matches('answered') ? TYPING_EVENTS : []),
  offerDelayed: (_snapshot, type) => type.includes('clientTyping') || type.includes('agentTyping'),
  distinguish: (event) => ['CLIENT_TYPING', 'TYPED'].includes(event.type),
  simplePaths: false,
  build,
  expectEffects: (_snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      const before = index > 0 ? path.steps[index - 1]!.state : null
      const after = step.state
      const label = `step ${index} ${step.event.type}`
      const shows = effectsOf(effects, 'showTyping') as { typing: boolean }[]
      const wasShown = !!before && typingShown(before)
      const expected = !wasShown && typingShown(after) ? [true] : wasShown && !typingShown(after) ? [false] : []
      expect(
        shows.map((show) => show.typing),
        label,
      ).toEqual(expected)
      const frames = effectsOf(effects, 'sendSocket')
      const told = step.event.type === 'TYPED' && !!before && !agentTold(before)
      expect(frames, label).toEqual(told ? [{ action: 'typing', step_id: 9 }] : [])
    })
  },
})

function expectRoomEffects(log: Effect[], steps: { state: AnyMachineSnapshot; event: AnyEventObject }[]): void {
  steps.forEach((step, index) => {
    const effects = log.filter((effect) => effect.step === index)
    const before = index > 0 ? steps[index - 1].state : null
    const after = step.state
    const label = `step ${index} ${step.event.type}`
    const entered = (state: string) => within(after, state) && !(before && within(before, state))
    const left = (state: string) => !!before && within(before, state) && !within(after, state)
    const sockets = effectsOf(effects, 'sendSocket') as { action: string }[]

    // The ring and the 2.5 s desktop notification belong to the queue.
    expect(effectsOf(effects, 'startRing').length, label).toBe(entered('ringing') ? 1 : 0)
    expect(effectsOf(effects, 'stopRing').length, label).toBe(left('ringing') ? 1 : 0)
    expect(effectsOf(effects, 'showNotification'), label).toEqual(
      entered('ringing') ? [{ stepId: 9, title: NEW_CHAT_TITLE, actions: ['Atender', 'Desligar'] }] : [],
    )
    const leftNotifying = !!before && before.matches({ ringing: 'notifying' }) && !after.matches({ ringing: 'notifying' })
    expect(effectsOf(effects, 'closeNotification').length, label).toBe(leftNotifying ? 1 : 0)

    // Frames: answer when answering starts, hangup when hung up, sync_step when the 500 ms wait ends.
    const expectedFrames: string[] = []
    if (entered('answering')) expectedFrames.push('answer')
    const hungUp = after.matches('removed') && before && !before.matches('removed') && ['HANGUP'].includes(step.event.type)
    if (hungUp) expectedFrames.push('hangup')
    const synced =
      before?.matches({ answered: { sync: 'pending' } }) && (step.event.type.includes('syncStep') || !after.matches({ answered: { sync: 'pending' } }))
    if (synced && step.event.type.includes('syncStep')) expectedFrames.push('sync_step')
    if (!step.event.type.startsWith('xstate.after'))
      expect(
        sockets.map((frame) => frame.action),
        label,
      ).toEqual(expectedFrames)
    else if (step.event.type.includes('syncStep')) expect(sockets, label).toEqual([{ action: 'sync_step', step_id: 9 }])

    if (step.event.type.includes('unreadRetry')) expect(effectsOf(effects, 'retryUnread'), label).toEqual([{ stepId: 9 }])
    expect(effectsOf(effects, 'notify'), label).toEqual(
      step.event.type === 'ANSWER_FAILED' && before && !before.matches('removed') && !before.matches('answered') && !before.matches('ended')
        ? [{ message: ANSWER_FAILED_NOTICE, severity: 'error' }]
        : [],
    )

    // The inactivity countdown rings every second with the seconds left, then the room is removed.
    if (entered('ended')) expect(effectsOf(effects, 'ringInactivity'), label).toEqual([{ stepId: 9, secondsLeft: 2 }])
    if (before?.matches('ended') && after.matches('ended') && step.event.type.includes('tick'))
      expect(effectsOf(effects, 'ringInactivity'), label).toEqual([{ stepId: 9, secondsLeft: 1 }])

    // Removal tells the caller once, with whether the agent had answered it (finished rooms are not added again).
    expect(effectsOf(effects, 'removed'), label).toEqual(entered('removed') ? [{ stepId: 9, answered: context(after).wasAnswered }] : [])
    if (after.matches('answered')) expect(context(after).wasAnswered).toBe(true)
  })
}

describe('chatRoom rules', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  const start = (input: Partial<ChatRoomInput>) => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { ...BASE, ...input } }).start()
    return { fakes, actor }
  }

  it('a new room is hung up when the pause forbids it, over the limit, or unqueueable; otherwise rings or auto-answers', () => {
    const cases: [Partial<ChatRoomInput>, string][] = [
      [{}, 'ringing'],
      [{ pause: { allowIncoming: false, allowOutgoing: true } }, 'removed'],
      [{ pause: { allowIncoming: true, allowOutgoing: false } }, 'ringing'],
      [{ chatType: 11, pause: { allowIncoming: true, allowOutgoing: false } }, 'removed'],
      [{ chatType: 31, pause: { allowIncoming: false, allowOutgoing: true } }, 'ringing'],
      [{ openChats: 3, chatLimit: 3 }, 'removed'],
      [{ openChats: 2, chatLimit: 3 }, 'ringing'],
      [{ openChats: 50, chatLimit: 0 }, 'ringing'],
      [{ queueable: false }, 'removed'],
      [{ queueable: false, autoAnswer: true }, 'answering'],
      [{ autoAnswer: true }, 'answering'],
      [{ chatType: 10, assignedToMe: true }, 'answering'],
      [{ chatType: 10, assignedToMe: false }, 'ringing'],
      [{ answered: true, openChats: 9, chatLimit: 1 }, 'answered'],
      [{ ended: true }, 'ended'],
    ]
    for (const [input, state] of cases) {
      const { fakes, actor } = start(input)
      const value = actor.getSnapshot().value
      expect(typeof value === 'string' ? value : Object.keys(value)[0], JSON.stringify(input)).toBe(state)
      if (state === 'removed') expect(effectsOf(fakes.log, 'sendSocket'), JSON.stringify(input)).toEqual([{ action: 'hangup', step_id: 9 }])
    }
    expect(pauseAllows(null, 20)).toBe(true)
  })

  it('the desktop notification shows for 2.5 s while the ring goes on', async () => {
    const { fakes, actor } = start({})
    await vi.advanceTimersByTimeAsync(NEW_CHAT_NOTIFICATION_MS - 1)
    expect(effectsOf(fakes.log, 'closeNotification')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(effectsOf(fakes.log, 'closeNotification')).toEqual([{ stepId: 9 }])
    expect(actor.getSnapshot().matches({ ringing: 'queued' })).toBe(true)
    expect(effectsOf(fakes.log, 'stopRing')).toEqual([])
    actor.send({ type: 'ANSWER' })
    expect(effectsOf(fakes.log, 'stopRing')).toHaveLength(1)
  })

  it('sends one sync_step 500 ms after the last message change', async () => {
    const { fakes, actor } = start({ answered: true })
    actor.send({ type: 'MESSAGES_CHANGED' })
    await vi.advanceTimersByTimeAsync(400)
    actor.send({ type: 'MESSAGES_CHANGED' })
    await vi.advanceTimersByTimeAsync(SYNC_STEP_DELAY_MS - 1)
    expect(effectsOf(fakes.log, 'sendSocket')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(effectsOf(fakes.log, 'sendSocket')).toEqual([{ action: 'sync_step', step_id: 9 }])
  })

  it('retries the unread bar every 10 s until the agent scrolls down', async () => {
    const { fakes, actor } = start({ answered: true })
    actor.send({ type: 'CLIENT_MESSAGE_UNSEEN' })
    await vi.advanceTimersByTimeAsync(UNREAD_RETRY_MS * 2)
    expect(effectsOf(fakes.log, 'retryUnread')).toHaveLength(2)
    actor.send({ type: 'SCROLLED_TO_BOTTOM' })
    await vi.advanceTimersByTimeAsync(UNREAD_RETRY_MS * 2)
    expect(effectsOf(fakes.log, 'retryUnread')).toHaveLength(2)
  })

  it("shows the customer's typing until 5 s of silence or their message; the agent's typing goes out at most every 3 s", async () => {
    const { fakes, actor } = start({ answered: true })
    const shown = () => (effectsOf(fakes.log, 'showTyping') as { typing: boolean }[]).map((show) => show.typing)
    actor.send({ type: 'CLIENT_TYPING' })
    await vi.advanceTimersByTimeAsync(CLIENT_TYPING_MS - 1000)
    actor.send({ type: 'CLIENT_TYPING' })
    await vi.advanceTimersByTimeAsync(CLIENT_TYPING_MS - 1)
    expect(shown()).toEqual([true])
    await vi.advanceTimersByTimeAsync(1)
    expect(shown()).toEqual([true, false])
    actor.send({ type: 'CLIENT_TYPING' })
    actor.send({ type: 'CLIENT_MESSAGE' })
    expect(shown()).toEqual([true, false, true, false])

    actor.send({ type: 'TYPED' })
    await vi.advanceTimersByTimeAsync(AGENT_TYPING_EVERY_MS - 1)
    actor.send({ type: 'TYPED' })
    expect(effectsOf(fakes.log, 'sendSocket')).toEqual([{ action: 'typing', step_id: 9 }])
    await vi.advanceTimersByTimeAsync(1)
    actor.send({ type: 'TYPED' })
    expect(effectsOf(fakes.log, 'sendSocket')).toEqual([
      { action: 'typing', step_id: 9 },
      { action: 'typing', step_id: 9 },
    ])
    // The end hides a typing customer.
    actor.send({ type: 'CLIENT_TYPING' })
    actor.send({ type: 'ENDED' })
    expect(shown().at(-1)).toBe(false)
  })

  it('counts down the team timeout (default 15 s) after the end, then removes the room as finished', async () => {
    const { fakes, actor } = start({ answered: true, removeAfterSeconds: null })
    actor.send({ type: 'ENDED' })
    await vi.advanceTimersByTimeAsync(14_999)
    expect((effectsOf(fakes.log, 'ringInactivity') as { secondsLeft: number }[]).map((ring) => ring.secondsLeft)).toEqual([
      15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
    ])
    expect(effectsOf(fakes.log, 'removed')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(effectsOf(fakes.log, 'removed')).toEqual([{ stepId: 9, answered: true }])
    expect(actor.getSnapshot().status).toBe('done')
    expect(removeAfterSeconds(30)).toBe(30)
    expect(removeAfterSeconds(0)).toBe(15)
  })

  it('closing: refused without the classification, then without the form; saves the form once, then closes', async () => {
    const { fakes, actor } = start({ answered: true })
    actor.send({ type: 'OUTCOME', classificationRequired: true, hasForm: true, formRequired: true, formValid: false })
    actor.send({ type: 'CLOSE' })
    expect(effectsOf(fakes.log, 'notify')).toEqual([{ message: CLASSIFICATION_REQUIRED_NOTICE, severity: 'error' }])
    actor.send({ type: 'OUTCOME', classified: true })
    actor.send({ type: 'CLOSE' })
    expect(effectsOf(fakes.log, 'notify')).toEqual([
      { message: CLASSIFICATION_REQUIRED_NOTICE, severity: 'error' },
      { message: FORM_REQUIRED_NOTICE, severity: 'error' },
    ])
    actor.send({ type: 'OUTCOME', formValid: true })
    actor.send({ type: 'CLOSE' })
    expect(effectsOf(fakes.log, 'saveForm')).toEqual([{ stepId: 9 }])
    fakes.settle('saveForm', { output: { success: true } })
    await vi.advanceTimersByTimeAsync(0)
    expect(effectsOf(fakes.log, 'closeChat')).toEqual([{ stepId: 9, force: false }])
    expect((actor.getSnapshot().context as ChatRoomContext).outcome.formSent).toBe(true)
    fakes.settle('closeChat', { output: { success: true } })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().matches({ answered: { closing: 'requested' } })).toBe(true)
    actor.send({ type: 'ENDED' })
    expect(actor.getSnapshot().matches('ended')).toBe(true)
    // A sent form is never resent: another close (not possible once ended) would not save it again.
    expect(effectsOf(fakes.log, 'saveForm')).toHaveLength(1)
  })

  it('closing: an optional invalid form is skipped; a refused close says why and may be tried again', async () => {
    const { fakes, actor } = start({ answered: true })
    actor.send({ type: 'OUTCOME', hasForm: true, formRequired: false, formValid: false })
    actor.send({ type: 'CLOSE' })
    expect(effectsOf(fakes.log, 'saveForm')).toEqual([])
    expect(effectsOf(fakes.log, 'closeChat')).toEqual([{ stepId: 9, force: false }])
    fakes.settle('closeChat', { error: new Error('Formulário tem campos obrigatórios') })
    await vi.advanceTimersByTimeAsync(0)
    expect(effectsOf(fakes.log, 'notify')).toEqual([{ message: FORM_REQUIRED_NOTICE, severity: 'error' }])
    expect(actor.getSnapshot().matches({ answered: { closing: 'idle' } })).toBe(true)
    actor.send({ type: 'CLOSE', force: true })
    expect(effectsOf(fakes.log, 'closeChat')).toEqual([
      { stepId: 9, force: false },
      { stepId: 9, force: true },
    ])
  })

  it('finished rooms are never added again', () => {
    const finished = new Set([9])
    expect(shouldAddRoom(finished, 9)).toBe(false)
    expect(shouldAddRoom(finished, 10)).toBe(true)
  })
})
