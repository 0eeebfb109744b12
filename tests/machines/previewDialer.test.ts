import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PreviewLead } from '../../contract/api/dialer.ts'
import { canPreview, COUNTDOWN_TICK_MS, NO_LEAD_WAIT_MS, previewDialerMachine, type PreviewDialerContext } from '../../machines/previewDialer.machine.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

// The preview dialer (issue 18 item 2): the lead is offered only to an available agent in the serving tab with a
// registered phone; 'Ligar' (or the countdown) claims it before the webphone dials; 'Pular' releases it.

const LEAD: NonNullable<PreviewLead> = {
  campaign: 3,
  campaign_name: 'Renovação',
  countdown: 0,
  mailing_client: 41,
  mailing: 7,
  client: 12,
  name: 'Bia Prévia',
  phone: '5511987650041',
  attempts: 1,
}
const COUNTED = { ...LEAD, countdown: 2 }
const CALL = 'call-9'

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as PreviewDialerContext

function build(fakes: Fakes) {
  return previewDialerMachine.provide({ actions: fakes.actions(['notify']), actors: fakes.requests(['fetchLead', 'makeCall', 'release', 'dial']) })
}

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const c = ctx(snapshot)
  return [
    { type: 'SERVING_CHANGED', serving: !c.serving },
    { type: 'REGISTRATION_CHANGED', registered: !c.registered },
    { type: 'STATUS_CHANGED', status: c.status === 'not_inuse' ? 'paused' : 'not_inuse' },
    ...(snapshot.matches('fetching')
      ? [
          { type: 'xstate.done.actor.fetchLead', output: LEAD },
          { type: 'xstate.done.actor.fetchLead', output: COUNTED },
          { type: 'xstate.done.actor.fetchLead', output: null },
          { type: 'xstate.error.actor.fetchLead', error: new Error('offline') },
        ]
      : []),
    ...(snapshot.matches('offered') ? [{ type: 'CALL' }, { type: 'SKIP' }] : []),
    ...(snapshot.matches('claiming')
      ? [
          { type: 'xstate.done.actor.makeCall', output: { success: true, reason: '', phone: LEAD.phone } },
          { type: 'xstate.done.actor.makeCall', output: { success: false, reason: 'Este lead está reservado para outro agente.', phone: '' } },
          { type: 'xstate.error.actor.makeCall', error: new Error('offline') },
        ]
      : []),
    ...(snapshot.matches('dialling')
      ? [
          { type: 'xstate.done.actor.dial', output: { callId: CALL } },
          { type: 'xstate.error.actor.dial', error: new Error('refused') },
        ]
      : []),
    ...(snapshot.matches('calling') ? [{ type: 'CALL_ENDED', callId: CALL }, { type: 'CALL_ENDED', callId: 'call-other' }] : []),
    ...(snapshot.matches('skipping') ? [{ type: 'xstate.done.actor.release', output: {} }, { type: 'xstate.error.actor.release', error: new Error('x') }] : []),
  ]
}

describePaths({
  name: 'previewDialer',
  machine: previewDialerMachine,
  input: { enabled: true },
  events,
  simplePaths: false,
  serializeState: (snapshot) => {
    const { serving, registered, status, lead, remaining, callId } = ctx(snapshot)
    return JSON.stringify([snapshot.value, serving, registered, status, lead?.countdown ?? null, remaining, callId])
  },
  distinguish: (event) => /^xstate\.(done|error)\.actor\./.test(event.type),
  build,
  expectEffects: (snapshot, log, path) => {
    path.steps.forEach((step, index) => {
      const effects = log.filter((effect) => effect.step === index)
      if (index === 0) return expect(effects).toEqual([])
      const before = path.steps[index - 1].state
      const after = step.state
      const label = `step ${index} ${step.event.type}`
      // A lead is asked for only by an available agent in the serving tab with a registered phone.
      const fetches = effectsOf(effects, 'fetchLead')
      if (fetches.length) expect(canPreview(ctx(after)), label).toBe(true)
      // The webphone dials only a lead the server gave to this call (make-call succeeded).
      const dials = effectsOf(effects, 'dial')
      expect(dials.length, label).toBe(after.matches('dialling') && !before.matches('dialling') ? 1 : 0)
      if (dials.length) {
        expect(step.event.type).toBe('xstate.done.actor.makeCall')
        expect(dials[0]).toEqual({ lead: ctx(after).lead, phone: ctx(after).lead!.phone })
      }
      // make-call for the lead on the card: by 'Ligar', or by the countdown running out.
      const claims = effectsOf(effects, 'makeCall')
      expect(claims.length, label).toBe(after.matches('claiming') && !before.matches('claiming') ? 1 : 0)
      if (claims.length) {
        expect(claims[0]).toEqual({ id: ctx(after).lead!.mailing_client })
        if (step.event.type !== 'CALL') expect(ctx(before).lead!.countdown).toBeGreaterThan(0)
      }
      // A refusal is told to the agent.
      const refused = step.event.type === 'xstate.done.actor.makeCall' && !(step.event as unknown as { output: { success: boolean } }).output.success
      expect(effectsOf(effects, 'notify'), label).toEqual(refused ? [{ message: 'Este lead está reservado para outro agente.', severity: 'warning' }] : [])
      // 'Pular' (or the webphone refusing the dial) gives the hold back.
      const releases = effectsOf(effects, 'release')
      expect(releases.length, label).toBe(after.matches('skipping') && !before.matches('skipping') ? 1 : 0)
      // Leaving not_inuse (or the tab, or the registration) takes the card away at once, unless the lead's call runs.
      if (!canPreview(ctx(after)) && !after.matches('calling') && !after.matches('claiming') && !after.matches('dialling') && !after.matches('skipping'))
        expect(after.matches('idle'), label).toBe(true)
    })
  },
})

describe('previewDialer behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  function start() {
    const fakes = createFakes()
    const actor = createActor(build(fakes), { input: { enabled: true } }).start()
    const settle = async (id: string, outcome: { output: unknown } | { error: unknown }) => {
      fakes.settle(id, outcome)
      await vi.advanceTimersByTimeAsync(0)
    }
    actor.send({ type: 'SERVING_CHANGED', serving: true })
    actor.send({ type: 'REGISTRATION_CHANGED', registered: true })
    actor.send({ type: 'STATUS_CHANGED', status: 'not_inuse' })
    return { fakes, actor, settle }
  }

  it('the countdown dials by itself, one second at a time; the call ends and the next lead is asked for', async () => {
    const { fakes, actor, settle } = start()
    await settle('fetchLead', { output: COUNTED })
    expect(ctx(actor.getSnapshot()).remaining).toBe(2)
    await vi.advanceTimersByTimeAsync(COUNTDOWN_TICK_MS)
    expect(ctx(actor.getSnapshot()).remaining).toBe(1)
    expect(effectsOf(fakes.log, 'makeCall')).toEqual([])
    await vi.advanceTimersByTimeAsync(COUNTDOWN_TICK_MS)
    expect(effectsOf(fakes.log, 'makeCall')).toEqual([{ id: 41 }])
    await settle('makeCall', { output: { success: true, reason: '', phone: LEAD.phone } })
    await settle('dial', { output: { callId: CALL } })
    expect(actor.getSnapshot().matches('calling')).toBe(true)
    // The call makes the agent busy; its end (and the agent free again) brings the next lead.
    actor.send({ type: 'STATUS_CHANGED', status: 'busy' })
    actor.send({ type: 'CALL_ENDED', callId: CALL })
    expect(effectsOf(fakes.log, 'fetchLead')).toHaveLength(1)
    actor.send({ type: 'STATUS_CHANGED', status: 'not_inuse' })
    expect(effectsOf(fakes.log, 'fetchLead')).toHaveLength(2)
  })

  it('no lead: asked again after NO_LEAD_WAIT_MS; a pause stops the countdown before it dials', async () => {
    const { fakes, actor, settle } = start()
    await settle('fetchLead', { output: null })
    await vi.advanceTimersByTimeAsync(NO_LEAD_WAIT_MS - 1)
    expect(effectsOf(fakes.log, 'fetchLead')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(effectsOf(fakes.log, 'fetchLead')).toHaveLength(2)
    await settle('fetchLead', { output: COUNTED })
    actor.send({ type: 'STATUS_CHANGED', status: 'paused' })
    await vi.advanceTimersByTimeAsync(COUNTDOWN_TICK_MS * 5)
    expect(effectsOf(fakes.log, 'makeCall')).toEqual([])
    expect(actor.getSnapshot().matches('idle')).toBe(true)
  })
})
