import { isNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { callRecords } from '../../server/db/schema/index.ts'
import { joinAddress } from '../../contract/codes/transfer.ts'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { StepChange } from '../../server/telephony/control/step-change.ts'
import { fromDevice, fromTrunk, newCallId, stepsOf, useCallControl } from './call-control-helper.ts'
import { useTestApp } from './helper.ts'

// An agent blind-transfers an outside call: the REFER (to `*8<destination>`) goes to the customer's side, whose new
// INVITE comes back from the trunk. Call control routes it like a dial of the destination, linked to the call the
// customer is on (seen in the browser e2e, e2e/telephony.spec.ts 'blind transfer', where it was a 404 before).

const t = useTestApp()
const { state, event } = useCallControl(() => t.database.db, new Date('2025-03-03T13:00:00Z'))

describe('a blind transfer followed by the trunk side', () => {
  it('routes the trunk INVITE to *8<extension> to that device with the transfer headers, only during the call', async () => {
    // agent1 called out: the customer (01130000000) answered over the demo trunk.
    const origin = newCallId()
    expect((await state.control.route(fromDevice('10001', '01130000000', origin))).action).toBe('relay')
    await event(origin, 'answered')
    const [parent] = await stepsOf(t.database.db, origin)

    // The customer's phone follows the REFER.
    const callId = newCallId()
    const decision = await state.control.route(fromTrunk(state.d.trunk.id, '01130000000', '*810002', callId))
    expect(decision).toMatchObject({ action: 'relay', ruri: 'sip:10002@localhost', lookup: true })
    if (decision.action !== 'relay') return
    expect(decision.headers).toContain('X-Atende-Transfer: blind\r\n')
    expect(decision.headers).toContain(`X-Atende-Parent-Uid: ${parent!.uid}\r\n`)
    const [child] = await stepsOf(t.database.db, callId)
    expect(child).toMatchObject({
      transferOfUid: parent!.uid,
      transferType: 'blind',
      callee: '10002',
      did: '',
      trunkId: state.d.trunk.id,
      phone: '01130000000',
    })

    // Another outside number over the same trunk has no call going on: the prefix is no way in.
    expect(await state.control.route(fromTrunk(state.d.trunk.id, '11912345678', '*810002'))).toMatchObject({ action: 'reject', code: 404 })
    // Nor after the call ended, nor toward a number that is no extension.
    expect(await state.control.route(fromTrunk(state.d.trunk.id, '01130000000', '*899999'))).toMatchObject({ action: 'reject', code: 404 })
    await event(callId, 'ended')
    await event(origin, 'ended')
    expect(await state.control.route(fromTrunk(state.d.trunk.id, '01130000000', '*810002'))).toMatchObject({ action: 'reject', code: 404 })
  })
})

describe('an attended transfer joined by the trunk side', () => {
  // sip.js Call-IDs and tags are letters and digits (contract/codes/transfer.ts keeps only what a user part carries).
  let sequence = 0
  const sipCallId = () => `consult${Date.now().toString(36)}${++sequence}`

  it("relays the trunk INVITE to *9<consultation> to the consulted device with Replaces, only for the customer on that agent's call", async () => {
    // A customer (01130000001) is talking to agent1, who dialled out.
    const origin = newCallId()
    expect((await state.control.route(fromDevice('10001', '01130000001', origin))).action).toBe('relay')
    await event(origin, 'answered')
    const [parent] = await stepsOf(t.database.db, origin)
    // agent1 consults agent2 (the webphone dials with the transfer headers); agent2 answers.
    const consultation = sipCallId()
    const consultHeaders = { 'X-Atende-Transfer': 'attend', 'X-Atende-Parent-Uid': parent!.uid }
    expect((await state.control.route(fromDevice('10001', '10002', consultation, consultHeaders))).action).toBe('relay')
    await event(consultation, 'answered')

    // agent1's phone REFERs the customer to the consultation: sip.js's dialog, seen from agent1 (local = From tag).
    const address = joinAddress({ callId: consultation, localTag: 'fromtagA1', remoteTag: 'totagA2' })!
    expect(address).toBe(`*9${consultation}.totagA2.fromtagA1`)
    const callId = newCallId()
    const decision = await state.control.route(fromTrunk(state.d.trunk.id, '01130000001', address, callId))
    expect(decision).toMatchObject({ action: 'relay', ruri: 'sip:10002@localhost', lookup: true })
    if (decision.action !== 'relay') return
    // agent2's phone is busy with the consultation, which this call replaces: it rings all the same, told which.
    expect(decision.headers).toContain(`Replaces: ${consultation};to-tag=totagA2;from-tag=fromtagA1\r\n`)
    expect(decision.headers).toContain('X-Atende-Transfer: attend\r\n')
    expect(decision.headers).toContain(`X-Atende-Parent-Uid: ${parent!.uid}\r\n`)
    expect(decision.headers).toContain('X-Atende-Phone: 01130000001\r\n')
    const [child] = await stepsOf(t.database.db, callId)
    expect(child).toMatchObject({
      transferOfUid: parent!.uid,
      transferType: 'attend',
      callee: '10002',
      did: '',
      trunkId: state.d.trunk.id,
      phone: '01130000001',
    })

    // Someone else over the trunk who knows the address is not on agent1's call: no way in.
    expect(await state.control.route(fromTrunk(state.d.trunk.id, '11900000000', address))).toMatchObject({ action: 'reject', code: 404 })
    // A consultation that is no call going on, and a malformed address, neither.
    expect(await state.control.route(fromTrunk(state.d.trunk.id, '01130000001', `*9nosuchcall.a.b`))).toMatchObject({ action: 'reject', code: 404 })
    expect(await state.control.route(fromTrunk(state.d.trunk.id, '01130000001', `*9${consultation}`))).toMatchObject({ action: 'reject', code: 404 })
    await event(callId, 'ended')
    await event(consultation, 'ended')
    expect(await state.control.route(fromTrunk(state.d.trunk.id, '01130000001', address))).toMatchObject({ action: 'reject', code: 404 })
    await event(origin, 'ended')
  })

  it('lets a device on a call with the agent join the consultation the same way, and no other device', async () => {
    // agent2's phone (10002) called agent1, who consults a third extension (10090) and transfers agent2 to it.
    await state.d.seed('pabx.devices', {
      username: '10090',
      secret: 'Ramal10090!',
      description: 'Ramal 10090',
      codecs: ['PCMU'],
      transport: 'wss',
      dtmf_mode: 'rfc4733',
    })
    const origin = newCallId()
    expect((await state.control.route(fromDevice('10002', '10001', origin))).action).toBe('relay')
    await event(origin, 'answered')
    const consultation = sipCallId()
    expect((await state.control.route(fromDevice('10001', '10090', consultation, { 'X-Atende-Transfer': 'attend' }))).action).toBe('relay')
    await event(consultation, 'answered')
    const address = joinAddress({ callId: consultation, localTag: 'f1', remoteTag: 't1' })!
    const decision = await state.control.route(fromDevice('10002', address))
    expect(decision).toMatchObject({ action: 'relay', ruri: 'sip:10090@localhost' })
    if (decision.action === 'relay') expect(decision.headers).toContain(`Replaces: ${consultation};to-tag=t1;from-tag=f1\r\n`)
    // The consulted device itself, or a device on no call with agent1, is refused.
    expect(await state.control.route(fromDevice('10090', address))).toMatchObject({ action: 'reject', code: 404 })
    await event(consultation, 'ended')
    await event(origin, 'ended')
  })

  it("tells the consulted agent that their call is the customer's step now, once the joining call is answered (changeCallStep)", async () => {
    const changes: StepChange[] = []
    const clock = new Date('2025-03-03T13:00:00Z')
    const control = createCallControl({ db: t.database.db, now: () => clock, random: () => 0, onStepChange: (change) => void changes.push(change) })
    const answer = async (callId: string) => {
      control.event({ event: 'call', call_id: callId, state: 'answered', code: 200, reason: 'OK', by: '', ts: clock.getTime() })
      await control.settled()
    }
    const end = async (callId: string) => {
      control.event({ event: 'call', call_id: callId, state: 'ended', code: 200, reason: 'OK', by: 'caller', ts: clock.getTime() })
      await control.settled()
    }
    // The tests before left calls going on (a join never ended): both phones are free here.
    await t.database.db.update(callRecords).set({ endedAt: clock }).where(isNull(callRecords.endedAt))
    const origin = newCallId()
    expect((await control.route(fromDevice('10001', '01130000002', origin))).action).toBe('relay')
    await answer(origin)
    const [parent] = await stepsOf(t.database.db, origin)
    const consultation = sipCallId()
    expect((await control.route(fromDevice('10001', '10002', consultation, { 'X-Atende-Transfer': 'attend', 'X-Atende-Parent-Uid': parent!.uid }))).action).toBe(
      'relay',
    )
    await answer(consultation)
    const [consulted] = await stepsOf(t.database.db, consultation)
    expect(changes).toEqual([])

    const callId = newCallId()
    const address = joinAddress({ callId: consultation, localTag: 'fA', remoteTag: 'tA' })!
    expect((await control.route(fromTrunk(state.d.trunk.id, '01130000002', address, callId))).action).toBe('relay')
    // Routed is not yet joined: the consulted phone might refuse the Replaces.
    expect(changes).toEqual([])
    await answer(callId)
    const [joined] = await stepsOf(t.database.db, callId)
    expect(changes).toEqual([{ siteId: state.d.site.id, userId: state.d.agent2.id, uid: consulted!.uid, stepUid: joined!.uid, callId }])
    // Any other answered call says nothing.
    const plain = newCallId()
    await control.route(fromDevice('10001', '10002', plain))
    await answer(plain)
    expect(changes).toHaveLength(1)
    for (const id of [plain, callId, consultation, origin]) await end(id)
  })
})
