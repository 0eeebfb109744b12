import { beforeAll, describe, expect, it } from 'vitest'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'
import { demo, fromDevice, fromTrunk, newCallId, stepsOf } from './call-control-helper.ts'
import { useTestApp } from './helper.ts'

// An agent blind-transfers an outside call: the REFER (to `*8<destination>`) goes to the customer's side, whose new
// INVITE comes back from the trunk. Call control routes it like a dial of the destination, linked to the call the
// customer is on (seen in the browser e2e, e2e/telephony.spec.ts 'blind transfer', where it was a 404 before).

const t = useTestApp()
let d: Awaited<ReturnType<typeof demo>>
let control: CallControlService
const clock = new Date('2025-03-03T13:00:00Z')

const event = async (callId: string, state: 'answered' | 'ended') => {
  control.event({ event: 'call', call_id: callId, state, code: 200, reason: 'OK', by: state === 'ended' ? 'caller' : '', ts: clock.getTime() })
  await control.settled()
}

beforeAll(async () => {
  d = await demo(t.database.db)
  control = createCallControl({ db: t.database.db, now: () => clock, random: () => 0 })
})

describe('a blind transfer followed by the trunk side', () => {
  it('routes the trunk INVITE to *8<extension> to that device with the transfer headers, only during the call', async () => {
    // agent1 called out: the customer (01130000000) answered over the demo trunk.
    const origin = newCallId()
    expect((await control.route(fromDevice('10001', '01130000000', origin))).action).toBe('relay')
    await event(origin, 'answered')
    const [parent] = await stepsOf(t.database.db, origin)

    // The customer's phone follows the REFER.
    const callId = newCallId()
    const decision = await control.route(fromTrunk(d.trunk.id, '01130000000', '*810002', callId))
    expect(decision).toMatchObject({ action: 'relay', ruri: 'sip:10002@localhost', lookup: true })
    if (decision.action !== 'relay') return
    expect(decision.headers).toContain('X-Atende-Transfer: blind\r\n')
    expect(decision.headers).toContain(`X-Atende-Parent-Uid: ${parent!.uid}\r\n`)
    const [child] = await stepsOf(t.database.db, callId)
    expect(child).toMatchObject({ transferOfUid: parent!.uid, transferType: 'blind', callee: '10002', did: '', trunkId: d.trunk.id, phone: '01130000000' })

    // Another outside number over the same trunk has no call going on: the prefix is no way in.
    expect(await control.route(fromTrunk(d.trunk.id, '11912345678', '*810002'))).toMatchObject({ action: 'reject', code: 404 })
    // Nor after the call ended, nor toward a number that is no extension.
    expect(await control.route(fromTrunk(d.trunk.id, '01130000000', '*899999'))).toMatchObject({ action: 'reject', code: 404 })
    await event(callId, 'ended')
    await event(origin, 'ended')
    expect(await control.route(fromTrunk(d.trunk.id, '01130000000', '*810002'))).toMatchObject({ action: 'reject', code: 404 })
  })
})
