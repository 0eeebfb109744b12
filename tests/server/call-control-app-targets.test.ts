import { describe, expect, it } from 'vitest'
import { appTarget } from '../../contract/codes/transfer.ts'
import { deviceOf, fromDevice, fromTrunk, newCallId, setAgent, stepsOf, useCallControl } from './call-control-helper.ts'
import { useTestApp } from './helper.ts'

// A webphone transfers to (or calls) a destination picked from its permission-apps lists: `<app>.<id>`, and `*8<app>.<id>`
// when the customer follows a blind transfer (contract/codes/transfer.ts). Call control routes it like an inbound
// route's destination, but only to what the agent's permission list names.

const t = useTestApp()
const { state, event } = useCallControl(() => t.database.db, new Date('2025-03-03T13:00:00Z'))

describe('destinations of the webphone lists', () => {
  it("routes the customer's blind transfer to *8queue.<id> into that queue, linked to the agent's call", async () => {
    await setAgent(t.database.db, state.d.agent1, 'inuse')
    await setAgent(t.database.db, state.d.agent2, 'not_inuse')
    const origin = newCallId()
    expect((await state.control.route(fromDevice('10001', '01130000009', origin))).action).toBe('relay')
    await event(origin, 'answered')
    const [parent] = await stepsOf(t.database.db, origin)
    const callId = newCallId()
    const decision = await state.control.route(fromTrunk(state.d.trunk.id, '01130000009', `*8${appTarget('queue', state.d.support.id)}`, callId))
    // agent2 is the support queue's available member.
    expect(decision).toMatchObject({ action: 'relay', ruri: 'sip:10002@localhost' })
    if (decision.action === 'relay') expect(decision.headers).toContain(`X-Atende-Queue: ${state.d.support.id}\r\n`)
    const steps = await stepsOf(t.database.db, callId)
    expect(steps[0]).toMatchObject({ kind: 'queue', queueId: state.d.support.id, transferOfUid: parent!.uid, transferType: 'blind', phone: '01130000009' })
    await event(callId, 'ended')
    await event(origin, 'ended')
  })

  it('lets an agent dial a queue or an extension by id for an attended transfer, and refuses what the team list leaves out', async () => {
    await setAgent(t.database.db, state.d.agent2, 'not_inuse')
    const consult = newCallId()
    const decision = await state.control.route(fromDevice('10001', appTarget('queue', state.d.support.id), consult, { 'X-Atende-Transfer': 'attend' }))
    expect(decision).toMatchObject({ action: 'relay', ruri: 'sip:10002@localhost' })
    expect((await stepsOf(t.database.db, consult))[0]).toMatchObject({ kind: 'queue', queueId: state.d.support.id, transferType: 'attend' })
    await event(consult, 'ended')
    const agent2 = await deviceOf(t.database.db, '10002')
    expect(await state.control.route(fromDevice('10001', appTarget('pjsip', agent2.id)))).toMatchObject({ action: 'relay', ruri: 'sip:10002@localhost' })

    // The team now names only the sales queue: the support queue and every extension are out of reach.
    await state.d.seed('service.team-permissions', {
      team: state.d.agent1.teamId,
      destination: { app: 'queue', appdata: state.d.sales.id },
      allow_call: true,
      allow_transfer: true,
    })
    expect(
      await state.control.route(fromDevice('10001', appTarget('queue', state.d.support.id), newCallId(), { 'X-Atende-Transfer': 'attend' })),
    ).toMatchObject({
      action: 'reject',
      code: 403,
    })
    expect(await state.control.route(fromDevice('10001', appTarget('pjsip', agent2.id)))).toMatchObject({ action: 'reject', code: 403 })
    // The customer's blind transfer follows the transferring agent's list too.
    const origin = newCallId()
    await state.control.route(fromDevice('10001', '01130000010', origin))
    await event(origin, 'answered')
    expect(await state.control.route(fromTrunk(state.d.trunk.id, '01130000010', `*8${appTarget('queue', state.d.support.id)}`))).toMatchObject({
      action: 'reject',
      code: 403,
    })
    const allowed = await state.control.route(fromTrunk(state.d.trunk.id, '01130000010', `*8${appTarget('queue', state.d.sales.id)}`))
    expect(allowed.action === 'relay' || (allowed.action === 'reject' && allowed.code !== 403)).toBe(true)
    await event(origin, 'ended')
  })
})
