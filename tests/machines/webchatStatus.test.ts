import { createActor, type AnyEventObject } from 'xstate'
import { describe, expect, it } from 'vitest'
import {
  WEBCHAT_STATUS_PRECEDENCE,
  computeWebchatStatus,
  webchatStatusMachine,
  type WebchatStatusContext,
  type WebchatStatusInputs,
} from '../../machines/webchatStatus.machine.ts'
import type { RegistrationState, WebchatStatus } from '../../machines/types.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

/** Spec 001 §4 read literally, as the if/else chain it is written as. */
function specStatus(inputs: WebchatStatusInputs): WebchatStatus {
  if (inputs.webchatPause) return 'paused'
  if (inputs.chatLimit && inputs.openChats >= inputs.chatLimit) return 'busy'
  if (['registrationFailed', 'unregistered', 'disconnected'].includes(inputs.registration)) return 'unavailable'
  return 'not_inuse'
}

function build(fakes: Fakes) {
  return webchatStatusMachine.provide({ actions: fakes.actions(['sendSocket']) })
}

const report = (status: WebchatStatus) => ({ action: 'change_state', channel: 'chat', status })

describePaths({
  name: 'webchatStatus',
  machine: webchatStatusMachine,
  input: {},
  events: (): AnyEventObject[] => [
    { type: 'REGISTRATION_CHANGED', registration: 'registered' },
    { type: 'REGISTRATION_CHANGED', registration: 'unregistered' },
    { type: 'PAUSE_CHANGED', webchatPause: true },
    { type: 'PAUSE_CHANGED', webchatPause: false },
    { type: 'CHATS_CHANGED', openChats: 2 },
    { type: 'CHATS_CHANGED', openChats: 0 },
    { type: 'LIMIT_CHANGED', chatLimit: 2 },
    { type: 'LIMIT_CHANGED', chatLimit: null },
    { type: 'RESEND' },
  ],
  // States are the four statuses; the inputs behind them are projected away and every input change gets its own
  // shortest path (edge coverage from each status). Simple paths add nothing here: on the projected graph each
  // status keeps one representative context, so they only retrace the shortest paths, and on the full input space
  // (registration × pause × chats × limit) they number in the tens of thousands. The status rule itself is proven
  // over every input combination below.
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  distinguish: () => true,
  simplePaths: false,
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const status = specStatus(step.state.context as WebchatStatusContext)
      expect(step.state.value).toBe(status)
      const reported = index === 0 || path.steps[index - 1].state.value !== step.state.value || step.event.type === 'RESEND'
      expect(
        effectsOf(
          log.filter((effect) => effect.step === index),
          'sendSocket',
        ),
        `step ${index}`,
      ).toEqual(reported ? [report(status)] : [])
    })
    expect((snapshot.context as WebchatStatusContext).status).toBe(snapshot.value)
  },
})

describe('webchatStatus behaviour', () => {
  it('starts unavailable', () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: {} }).start()
    expect(actor.getSnapshot().value).toBe('unavailable')
    expect(effectsOf(fakes.log, 'sendSocket')).toEqual([report('unavailable')])
  })

  it('precedence: paused over busy by chat limit over unavailable by registration over not_inuse', () => {
    expect(WEBCHAT_STATUS_PRECEDENCE).toEqual(['paused', 'busy', 'unavailable', 'not_inuse'])
    const base: WebchatStatusInputs = { registration: 'registered', webchatPause: false, openChats: 0, chatLimit: 3 }
    expect(computeWebchatStatus(base)).toBe('not_inuse')
    expect(computeWebchatStatus({ ...base, registration: 'registrationFailed' })).toBe('unavailable')
    expect(computeWebchatStatus({ ...base, registration: 'registrationFailed', openChats: 3 })).toBe('busy')
    expect(computeWebchatStatus({ ...base, registration: 'registrationFailed', openChats: 3, webchatPause: true })).toBe('paused')
    expect(computeWebchatStatus({ ...base, openChats: 2 })).toBe('not_inuse')
    // No limit configured: never busy.
    expect(computeWebchatStatus({ ...base, chatLimit: null, openChats: 40 })).toBe('not_inuse')
    expect(computeWebchatStatus({ ...base, chatLimit: 0, openChats: 40 })).toBe('not_inuse')
  })

  it('the status function follows the spec over every combination of inputs', () => {
    const registrations: RegistrationState[] = ['connected', 'registered', 'unregistered', 'registrationFailed', 'disconnected']
    for (const registration of registrations)
      for (const webchatPause of [false, true])
        for (const openChats of [0, 1, 2, 3])
          for (const chatLimit of [null, 0, 2]) {
            const inputs = { registration, webchatPause, openChats, chatLimit }
            expect(computeWebchatStatus(inputs), JSON.stringify(inputs)).toBe(specStatus(inputs))
          }
  })

  it('reports each change once on the status feed', () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { registration: 'registered', chatLimit: 2 } }).start()
    actor.send({ type: 'CHATS_CHANGED', openChats: 1 })
    actor.send({ type: 'CHATS_CHANGED', openChats: 2 })
    actor.send({ type: 'CHATS_CHANGED', openChats: 3 })
    actor.send({ type: 'PAUSE_CHANGED', webchatPause: true })
    expect((effectsOf(fakes.log, 'sendSocket') as { status: string }[]).map((message) => message.status)).toEqual(['not_inuse', 'busy', 'paused'])
  })
})
