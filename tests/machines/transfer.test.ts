import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { describe, expect, it, vi } from 'vitest'
import { BLIND_TRANSFER_PREFIX, TRANSFER_FAILED_NOTICE, transferMachine, type TransferContext, type TransferInput } from '../../machines/transfer.machine.ts'
import type { TransferType } from '../../machines/webphoneTypes.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

const ACTIONS = ['phone', 'notify', 'startConference', 'endConference'] as const

function input(type: TransferType): TransferInput {
  return {
    type,
    originCallId: 'call-1',
    originUid: 'uid-1',
    destinationCallId: type === 'blind' ? null : 'call-2',
    destination: '2001',
    ...(type === 'blind' ? {} : { app: 'pjsip', appdata: '2001' }),
  }
}

function build(fakes: Fakes) {
  return transferMachine.provide({ actions: fakes.actions(ACTIONS), actors: fakes.requests(['cancelTransfer']) })
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as TransferContext

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  return [
    { type: 'CONFIRM' },
    { type: 'CANCEL' },
    { type: 'DESTINATION_ACCEPTED' },
    { type: 'DESTINATION_ENDED' },
    { type: 'ORIGIN_ENDED' },
    { type: 'PHONE_TRANSFERRED', callId: 'call-1', ok: true },
    { type: 'PHONE_TRANSFERRED', callId: 'call-1', ok: false },
    { type: 'PHONE_TRANSFERRED', callId: 'call-1', ok: false, reason: '403 Forbidden' },
    ...(snapshot.matches('cancelling')
      ? [
          { type: 'xstate.done.actor.cancelTransfer', output: { success: true } },
          { type: 'xstate.error.actor.cancelTransfer', error: { detail: 'Sem permissão' } },
        ]
      : []),
  ]
}

for (const type of ['blind', 'attend', 'pendulum'] as const) {
  describePaths({
    name: `transfer (${type})`,
    machine: transferMachine,
    input: input(type),
    events,
    // A handful of states and no cycles but the failed confirm: every simple path is replayed too. A blind transfer's
    // graph is a tree (refer → result), whose simple paths are its shortest ones.
    simplePaths: type !== 'blind',
    distinguish: (event) => event.type === 'PHONE_TRANSFERRED',
    build,
    expectEffects: (snapshot, log, path) => {
      path.steps.forEach((step, index) => {
        const effects = log.filter((effect) => effect.step === index)
        const before = index > 0 ? path.steps[index - 1].state : null
        const entered = (state: string) => step.state.matches(state) && !before?.matches(state)
        const label = `step ${index} ${step.event.type}`
        const phone = effectsOf(effects, 'phone')
        const expectedPhone = [
          ...(entered('referring') ? [{ type: 'transferBlind', callId: 'call-1', target: `${BLIND_TRANSFER_PREFIX}2001` }] : []),
          ...(entered('confirming') ? [{ type: 'transferAttended', callId: 'call-1', targetCallId: 'call-2' }] : []),
        ]
        expect(phone, label).toEqual(expectedPhone)
        // Pendulum: a conference of the origin and the destination once the destination answers.
        expect(effectsOf(effects, 'startConference'), label).toEqual(entered('conference') ? [{ callIds: ['call-1', 'call-2'] }] : [])
        const leftConference = before?.matches('conference') && !step.state.matches('conference')
        expect(effectsOf(effects, 'endConference').length, label).toBe(leftConference ? 1 : 0)
        // Cancel (or the target hanging up) tells the server.
        expect(effectsOf(effects, 'cancelTransfer'), label).toEqual(
          entered('cancelling') ? [{ step_id: 'uid-1', type, app: type === 'blind' ? 'number' : 'pjsip', appdata: '2001' }] : [],
        )
        const event = step.event as { type: string; ok?: boolean; reason?: string }
        const referFailed = event.type === 'PHONE_TRANSFERRED' && !event.ok && (before?.matches('referring') || before?.matches('confirming'))
        const cancelFailed = event.type === 'xstate.error.actor.cancelTransfer'
        expect(effectsOf(effects, 'notify'), label).toEqual(
          referFailed
            ? [{ message: event.reason ?? TRANSFER_FAILED_NOTICE, severity: 'error' }]
            : cancelFailed
              ? [{ message: 'Ocorreu um erro Sem permissão', severity: 'error' }]
              : [],
        )
        if (event.type === 'DESTINATION_ENDED' && (before?.matches('dialing') || before?.matches('ready'))) expect(step.state.matches('cancelling')).toBe(true)
      })
      if (snapshot.status === 'done') expect(snapshot.output).toMatchObject({ result: ctx(snapshot).result, type })
      if (type === 'blind') expect(snapshot.matches('dialing') || snapshot.matches('ready') || snapshot.matches('conference')).toBe(false)
      if (type !== 'pendulum') expect(snapshot.matches('conference')).toBe(false)
      if (type === 'pendulum') expect(snapshot.matches('ready')).toBe(false)
    },
  })
}

describe('transfer behaviour', () => {
  it('confirms an attended transfer once the destination answered', () => {
    vi.useFakeTimers()
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: input('attend') }).start()
    actor.send({ type: 'CONFIRM' }) // no transfer button before the destination answers
    expect(effectsOf(fakes.log, 'phone')).toEqual([])
    actor.send({ type: 'DESTINATION_ACCEPTED' })
    actor.send({ type: 'CONFIRM' })
    expect(effectsOf(fakes.log, 'phone')).toEqual([{ type: 'transferAttended', callId: 'call-1', targetCallId: 'call-2' }])
    actor.send({ type: 'PHONE_TRANSFERRED', callId: 'call-1', ok: true })
    expect(actor.getSnapshot().output).toEqual({ result: 'transferred', type: 'attend', originCallId: 'call-1', destinationCallId: 'call-2' })
    vi.useRealTimers()
  })

  it('is cancelled when the target hangs up, telling the server', async () => {
    vi.useFakeTimers()
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: input('attend') }).start()
    actor.send({ type: 'DESTINATION_ACCEPTED' })
    actor.send({ type: 'DESTINATION_ENDED' })
    expect(effectsOf(fakes.log, 'cancelTransfer')).toEqual([{ step_id: 'uid-1', type: 'attend', app: 'pjsip', appdata: '2001' }])
    fakes.settle('cancelTransfer', { output: {} })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().output?.result).toBe('cancelled')
    vi.useRealTimers()
  })
})
