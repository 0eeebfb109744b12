import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { callRecords, pabxDevices, pabxQueues, pabxQueuesMembers, pabxTrunks, sipRegistrations } from '../../server/db/schema/index.ts'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'
import { demo, deviceOf, failureOf, fromDevice, fromTrunk, newCallId, setAgent, stepsOf } from './call-control-helper.ts'
import { useTestApp } from './helper.ts'

const t = useTestApp()
let d: Awaited<ReturnType<typeof demo>>
let control: CallControlService
let clock = new Date('2025-03-03T13:00:00Z')
let dice = 0

const end = async (callId: string) => {
  control.event({
    event: 'call',
    call_id: callId,
    state: 'ended',
    code: 200,
    reason: 'OK',
    by: 'caller',
    ts: clock.getTime(),
  })
  await control.settled()
}

beforeAll(async () => {
  d = await demo(t.database.db)
  control = createCallControl({
    db: t.database.db,
    now: () => clock,
    random: () => dice,
  })
  await setAgent(t.database.db, d.agent1, 'not_inuse')
  await setAgent(t.database.db, d.agent2, 'not_inuse')
  // One penalty tier everywhere (the demo gives agent2 penalty 1; tiers are covered by the strategy tests).
  await t.database.db.update(pabxQueuesMembers).set({ penalty: 0 })
})

describe('a device dialling another device', () => {
  it("records an internal call by each side's own rule: the caller's outbound, the callee's inbound", async () => {
    const setRecording = (username: string, recording: string) => t.database.db.update(pabxDevices).set({ recording }).where(eq(pabxDevices.username, username))
    const recorded = async () => {
      const callId = newCallId()
      const decision = await control.route(fromDevice('10001', '10002', callId))
      await end(callId)
      expect(decision.action).toBe('relay')
      return decision.action === 'relay' && decision.record
    }
    try {
      await setRecording('10001', 'never')
      await setRecording('10002', 'outbound')
      expect(await recorded()).toBe(false)
      await setRecording('10002', 'inbound')
      expect(await recorded()).toBe(true)
      await setRecording('10002', 'never')
      await setRecording('10001', 'outbound')
      expect(await recorded()).toBe(true)
      await setRecording('10001', 'inbound')
      expect(await recorded()).toBe(false)
    } finally {
      await setRecording('10001', 'always')
      await setRecording('10002', 'always')
    }
  })

  it('relays to the registered extension with lookup, call type 31 toward the callee, 60 s', async () => {
    const callId = newCallId()
    const decision = await control.route(fromDevice('10001', '10002', callId))
    expect(decision).toMatchObject({
      action: 'relay',
      ruri: 'sip:10002@localhost',
      lookup: true,
      dst: null,
      timeout: 60,
      on_failure: false,
    })
    expect(decision.action === 'relay' && decision.headers).toContain('X-Atende-Call-Type: 30\r\n')
    const [step] = await stepsOf(t.database.db, callId)
    expect(step).toMatchObject({
      step: 1,
      callType: 31,
      direction: 'internal',
      kind: 'device',
      caller: '10001',
      callee: '10002',
      userId: d.agent2.id,
      callerUserId: d.agent1.id,
    })
    await end(callId)
  })

  it('answers 486 when the callee is at its busy threshold and 480 when unregistered', async () => {
    const first = newCallId()
    expect((await control.route(fromDevice('10001', '10002', first))).action).toBe('relay')
    const second = newCallId()
    // 10002's device_state_busy_at is 1: one open call makes it busy.
    expect(await control.route(fromDevice('10001', '10002', second))).toEqual({
      action: 'reject',
      code: 486,
      reason: 'Busy Here',
    })
    await end(first)
    control.event({
      event: 'registration',
      aor: '10002@localhost',
      state: 'unregistered',
      expires: 0,
    })
    await control.settled()
    expect(await control.route(fromDevice('10001', '10002'))).toEqual({
      action: 'reject',
      code: 480,
      reason: 'Temporarily Unavailable',
    })
    control.event({
      event: 'registration',
      aor: '10002@localhost',
      state: 'registered',
      expires: 300,
    })
    await control.settled()
    const [registration] = await t.database.db.select().from(sipRegistrations).where(eq(sipRegistrations.username, '10002'))
    expect(registration).toMatchObject({ registered: true })
    const third = newCallId()
    expect((await control.route(fromDevice('10001', '10002', third))).action).toBe('relay')
    await end(third)
  })

  it('refuses unknown callers and answers 404 for a number nothing matches', async () => {
    expect(await control.route(fromDevice('7777', '10002'))).toMatchObject({
      action: 'reject',
      code: 403,
    })
    expect(
      await control.route({
        ...fromDevice('10001', '10002'),
        from_domain: 'elsewhere.example',
      }),
    ).toMatchObject({ code: 403 })
    expect(await control.route(fromDevice('10001', '12'))).toMatchObject({
      action: 'reject',
      code: 404,
    })
    expect(await control.route({ event: 'route', call_id: 'x' })).toMatchObject({ action: 'reject', code: 400 })
  })
})

describe('a device dialling out', () => {
  it('relays to the first trunk of the matching route, rewriting the number, type 10, on_failure', async () => {
    const callId = newCallId()
    const decision = await control.route(fromDevice('10001', '01130000000', callId))
    expect(decision).toMatchObject({
      action: 'relay',
      ruri: 'sip:01130000000@127.0.0.1',
      dst: 'sip:127.0.0.1:5090;transport=udp',
      lookup: false,
      on_failure: true,
      auth: null,
    })
    const [step] = await stepsOf(t.database.db, callId)
    expect(step).toMatchObject({
      callType: 10,
      direction: 'outbound',
      kind: 'trunk',
      trunkId: d.trunk.id,
      phone: '01130000000',
      areaCode: '11',
    })
    await end(callId)
  })

  it("counts the dialer's calls on a trunk against its max_channels: a full trunk refuses an agent's call (503 Trunk Busy) until one ends", async () => {
    const db = t.database.db
    await db.update(pabxTrunks).set({ maxChannels: 1 }).where(eq(pabxTrunks.id, d.trunk.id))
    try {
      // A dialer call as the campaign runner starts it (server/dialer/store.ts startAttempt), then the media app's
      // INVITE for it: call control relays it to the route's trunk (dialer-leg.ts), which holds its one channel.
      const dialerCall = newCallId()
      const uid = randomUUID()
      await db.insert(callRecords).values({
        siteId: d.site.id,
        callId: dialerCall,
        step: 1,
        uid,
        direction: 'outbound',
        callType: 14,
        kind: 'trunk',
        phone: '01130000000',
        callee: '01130000000',
        startedAt: clock,
        decision: { dialer: 1, campaign: 1, mailing: 1 },
      })
      const leg = await control.route({ ...fromDevice('media', '01130000000', dialerCall), source: 'media', transport: 'udp', src_port: 15090 })
      expect(leg).toMatchObject({ action: 'relay', media: true, dst: 'sip:127.0.0.1:5090;transport=udp', uid })
      expect((await stepsOf(db, dialerCall))[0]).toMatchObject({ trunkId: d.trunk.id, endedAt: null })

      // agent1 dials out on the same route: its only trunk is full.
      const refused = newCallId()
      expect(await control.route(fromDevice('10001', '01130000000', refused))).toEqual({ action: 'reject', code: 503, reason: 'Trunk Busy' })
      await end(refused)
      // Two channels; the media app bridges the answered dialer call to an agent: that leg carries the customer's
      // trunk but is the same channel (it counts under the customer's Call-ID), so one channel is left.
      await db.update(pabxTrunks).set({ maxChannels: 2 }).where(eq(pabxTrunks.id, d.trunk.id))
      const bridge = newCallId()
      const legUid = randomUUID()
      await db.insert(callRecords).values({
        siteId: d.site.id,
        callId: bridge,
        step: 1,
        uid: legUid,
        parentUid: uid,
        direction: 'outbound',
        callType: 14,
        kind: 'queue',
        phone: '01130000000',
        trunkId: d.trunk.id,
        startedAt: clock,
        decision: { action: 'relay' },
      })
      const second = newCallId()
      expect(await control.route(fromDevice('10001', '01130000000', second))).toMatchObject({ action: 'relay' })
      const third = newCallId()
      expect(await control.route(fromDevice('10002', '01130000000', third))).toEqual({ action: 'reject', code: 503, reason: 'Trunk Busy' })
      for (const call of [second, third, bridge]) await end(call)
      await db.update(pabxTrunks).set({ maxChannels: 1 }).where(eq(pabxTrunks.id, d.trunk.id))
      // The dialer's call ends: the channel is free again.
      await end(dialerCall)
      const callId = newCallId()
      expect(await control.route(fromDevice('10001', '01130000000', callId))).toMatchObject({ action: 'relay', dst: 'sip:127.0.0.1:5090;transport=udp' })
      await end(callId)
    } finally {
      await db.update(pabxTrunks).set({ maxChannels: 0 }).where(eq(pabxTrunks.id, d.trunk.id))
    }
  })

  it('tries the next trunk on failure with its strip, prefix and credentials, then passes the last failure on', async () => {
    const second = await d.seed('pabx.trunks', {
      description: 'Reserva',
      host: '10.0.0.9',
      port: 5070,
      transport: 'tcp',
      auth_username: 'acct',
      auth_secret: 's3cret-pass',
    })
    const route = await d.seed('pabx.outbound-routes', {
      description: 'Celular',
      dial_patterns: '0ZX9XXXXXXXX',
      priority: 0,
      teams: [d.agent1.teamId],
    })
    await d.seed('pabx.outbound-route-trunks', {
      outbound_route: route,
      trunk: d.trunk.id,
      order: 0,
    })
    await d.seed('pabx.outbound-route-trunks', {
      outbound_route: route,
      trunk: second,
      order: 1,
      strip: 1,
      prefix: '0xx',
    })
    const callId = newCallId()
    expect(await control.route(fromDevice('10001', '011987654321', callId))).toMatchObject({ dst: 'sip:127.0.0.1:5090;transport=udp' })
    const next = await control.failure(failureOf(callId, 503, 'Service Unavailable'))
    expect(next).toMatchObject({
      action: 'relay',
      ruri: 'sip:0xx11987654321@10.0.0.9',
      dst: 'sip:10.0.0.9:5070;transport=tcp',
      auth: { user: 'acct', password: 's3cret-pass' },
    })
    expect(await control.failure(failureOf(callId, 486, 'Busy Here'))).toEqual({
      action: 'reject',
      code: 486,
      reason: 'Busy Here',
    })
    const steps = await stepsOf(t.database.db, callId)
    expect(steps.map((s) => [s.step, s.kind, s.dialStatus, s.outboundRouteId])).toEqual([
      [1, 'trunk', 503, route],
      [2, 'trunk', 486, route],
      [3, 'trunk', 486, route],
    ])
    expect(steps[1]!.parentUid).toBe(steps[0]!.uid)
  })

  it('obeys the chosen route header, the team rule and the device context', async () => {
    const foreign = await d.seed('pabx.outbound-routes', {
      description: 'Outra equipe',
      dial_patterns: '7XXX',
      teams: [],
    })
    await d.seed('pabx.outbound-route-trunks', {
      outbound_route: foreign,
      trunk: d.trunk.id,
    })
    expect(await control.route(fromDevice('10001', '7123'))).toMatchObject({
      action: 'reject',
      code: 404,
    })
    // Both the demo route (NXXXXXXX) and a new one match 8 digits; the header picks.
    const local = await d.seed('pabx.outbound-routes', {
      description: 'Local B',
      dial_patterns: 'NXXXXXXX',
      priority: 5,
      teams: [d.agent1.teamId],
      prefix: '77',
    })
    await d.seed('pabx.outbound-route-trunks', {
      outbound_route: local,
      trunk: d.trunk.id,
    })
    const picked = newCallId()
    expect(
      await control.route(
        fromDevice('10001', '30000000', picked, {
          'X-Atende-Route': String(local),
        }),
      ),
    ).toMatchObject({ ruri: 'sip:7730000000@127.0.0.1' })
    await end(picked)
    const [device] = await t.database.db.update(pabxDevices).set({ context: 'local' }).where(eq(pabxDevices.username, '10001')).returning()
    expect(await control.route(fromDevice('10001', '01130000000'))).toMatchObject({ action: 'reject', code: 403 })
    await t.database.db.update(pabxDevices).set({ context: 'national' }).where(eq(pabxDevices.id, device!.id))
  })
})

describe('a call from a trunk', () => {
  it('follows the DID to its inbound route; an IVR destination is 480 until the media app exists', async () => {
    const callId = newCallId()
    expect(await control.route(fromTrunk(d.trunk.id, '11987654321', '551130000000', callId))).toEqual({
      action: 'reject',
      code: 480,
      reason: 'Temporarily Unavailable',
    })
    const [step] = await stepsOf(t.database.db, callId)
    expect(step).toMatchObject({
      direction: 'inbound',
      callType: 20,
      did: '551130000000',
      trunkId: d.trunk.id,
      dialStatus: 480,
      areaCode: '11',
    })
    expect(await control.route(fromTrunk(d.trunk.id, '11987654321', '559999999999'))).toMatchObject({ code: 404 })
    expect(await control.route(fromTrunk(999_999, '11987654321', '551130000000'))).toMatchObject({ code: 403 })
  })

  it('rings a device, or the closed destination outside the calendar hours', async () => {
    const device = await deviceOf(t.database.db, '10002')
    const calendar = await d.seed('service.calendars', {
      description: 'Comercial',
      timezone: 'America/Sao_Paulo',
      hours: [{ weekday: 1, start: '08:00', end: '18:00' }],
    })
    const inbound = await d.seed('pabx.inbound-routes', {
      description: 'Ramal direto',
      destination: { app: 'pjsip', appdata: device.id },
      calendar,
      closed_destination: { app: 'hangup', appdata: '' },
    })
    await d.seed('pabx.numbers', {
      number: '551140000000',
      description: 'Direto',
      inbound_route: inbound,
    })
    const open = newCallId()
    // Monday 10:00 in São Paulo.
    clock = new Date('2025-03-03T13:00:00Z')
    const decision = await control.route(fromTrunk(d.trunk.id, '11987654321', '551140000000', open))
    expect(decision).toMatchObject({
      action: 'relay',
      ruri: 'sip:10002@localhost',
      lookup: true,
    })
    expect(decision.action === 'relay' && decision.headers).toContain('X-Atende-Call-Type: 20\r\n')
    await end(open)
    clock = new Date('2025-03-03T23:00:00Z')
    expect(await control.route(fromTrunk(d.trunk.id, '11987654321', '551140000000'))).toMatchObject({ action: 'reject', code: 603 })
    clock = new Date('2025-03-03T13:00:00Z')
  })
})

describe('queues', () => {
  let did = 551150000000
  const queueNumber = async (queue: number) => {
    const inbound = await d.seed('pabx.inbound-routes', {
      description: `Fila ${queue}`,
      destination: { app: 'queue', appdata: queue },
    })
    const number = String(++did)
    await d.seed('pabx.numbers', {
      number,
      description: number,
      inbound_route: inbound,
    })
    return number
  }

  it('offers the call to an available member with the queue headers, the next on failure, then overflows', async () => {
    const overflowTo = await deviceOf(t.database.db, '10001')
    await t.database.db
      .update(pabxQueues)
      .set({
        strategy: 'linear',
        ringTime: 20,
        overflowApp: 'pjsip',
        overflowAppdata: String(overflowTo.id),
      })
      .where(eq(pabxQueues.id, d.support.id))
    // One penalty tier (the demo gives agent2 penalty 1).
    await t.database.db.update(pabxQueuesMembers).set({ penalty: 0 }).where(eq(pabxQueuesMembers.queueId, d.support.id))
    const number = await queueNumber(d.support.id)
    const callId = newCallId()
    // linear by login: agent2 signed in first.
    await t.database.db.execute(`update users set last_login = '2025-03-03T08:00:00Z' where id = ${d.agent2.id}`)
    await t.database.db.execute(`update users set last_login = '2025-03-03T09:00:00Z' where id = ${d.agent1.id}`)
    const first = await control.route(fromTrunk(d.trunk.id, '11987654321', number, callId))
    expect(first).toMatchObject({
      action: 'relay',
      ruri: 'sip:10002@localhost',
      timeout: 20,
      on_failure: true,
    })
    const headers = first.action === 'relay' ? first.headers : ''
    expect(headers).toContain(`X-Atende-Queue: ${d.support.id}\r\n`)
    expect(headers).toContain('X-Atende-Queue-Name: Suporte\r\n')
    expect(headers).toContain('X-Atende-Phone: 11987654321\r\n')
    expect(headers).toContain('X-Atende-Call-Type: 20\r\n')
    const second = await control.failure(failureOf(callId, 480, 'Temporarily Unavailable'))
    expect(second).toMatchObject({
      action: 'relay',
      ruri: 'sip:10001@localhost',
    })
    // Nobody left (max_wait_time 300 allows another round, but agent2 went on pause meanwhile and agent1 was offered).
    await setAgent(t.database.db, d.agent2, 'paused')
    const third = await control.failure(failureOf(callId, 486, 'Busy Here'))
    // Another round: agent1 again (still available), while the wait lasts.
    expect(third).toMatchObject({ ruri: 'sip:10001@localhost' })
    clock = new Date(clock.getTime() + 301_000)
    const fourth = await control.failure(failureOf(callId, 480, 'Temporarily Unavailable'))
    // The wait is over: overflow to the pjsip destination (10001's device, idle again since its step closed).
    expect(fourth).toMatchObject({
      action: 'relay',
      ruri: 'sip:10001@localhost',
      on_failure: false,
      timeout: 60,
    })
    const steps = await stepsOf(t.database.db, callId)
    expect(steps.map((s) => [s.kind, s.userId, s.dialStatus])).toEqual([
      ['queue', d.agent2.id, 480],
      ['queue', d.agent1.id, 486],
      ['queue', d.agent1.id, 480],
      ['queue', null, 380],
      ['device', d.agent1.id, null],
    ])
    expect(steps.every((s) => s.queueId === d.support.id || s.kind === 'device')).toBe(true)
    await end(callId)
    clock = new Date('2025-03-03T13:00:00Z')
    await setAgent(t.database.db, d.agent2, 'not_inuse')
  })

  it('rejects 480 with no overflow when nobody is available; a signed-out or busy agent is not offered calls', async () => {
    await t.database.db.update(pabxQueues).set({ strategy: 'ringall', overflowApp: '', overflowAppdata: '' }).where(eq(pabxQueues.id, d.sales.id))
    const number = await queueNumber(d.sales.id)
    await setAgent(t.database.db, d.agent1, 'not_inuse', false)
    await setAgent(t.database.db, d.agent2, 'inuse')
    expect(await control.route(fromTrunk(d.trunk.id, '11987654321', number))).toEqual({
      action: 'reject',
      code: 480,
      reason: 'Temporarily Unavailable',
    })
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    await setAgent(t.database.db, d.agent2, 'not_inuse')
    // Ring all: both members at once (ruri + branches).
    const callId = newCallId()
    const both = await control.route(fromTrunk(d.trunk.id, '11987654321', number, callId))
    expect(both).toMatchObject({
      action: 'relay',
      ruri: 'sip:10001@localhost',
      branches: ['sip:10002@localhost'],
    })
    // While they ring, another caller finds nobody free.
    expect(await control.route(fromTrunk(d.trunk.id, '11912345678', number))).toMatchObject({ code: 480 })
    await end(callId)
  })

  it('remembers the last member served across a restart (equal with memory)', async () => {
    await t.database.db.update(pabxQueues).set({ strategy: 'rrmemory' }).where(eq(pabxQueues.id, d.sales.id))
    const number = await queueNumber(d.sales.id)
    const offered: string[] = []
    for (let i = 0; i < 3; i++) {
      // A new control each time: nothing is remembered in memory.
      const fresh = createCallControl({ db: t.database.db, now: () => clock })
      const callId = newCallId()
      const decision = await fresh.route(fromTrunk(d.trunk.id, '11987654321', number, callId))
      offered.push(decision.action === 'relay' ? decision.ruri : 'reject')
      fresh.event({
        event: 'call',
        call_id: callId,
        state: 'answered',
        code: 200,
        reason: 'OK',
        by: '',
        ts: clock.getTime(),
      })
      fresh.event({
        event: 'call',
        call_id: callId,
        state: 'ended',
        code: 200,
        reason: 'OK',
        by: 'callee',
        ts: clock.getTime() + 5000,
      })
      await fresh.settled()
      clock = new Date(clock.getTime() + 10_000)
    }
    // Members in order agent1, agent2 (positions); the queue had last served nobody in this mode before.
    expect(new Set([offered[0], offered[1]])).toEqual(new Set(['sip:10001@localhost', 'sip:10002@localhost']))
    expect(offered[2]).toBe(offered[0])
  })

  it('overflows at once when max_callers are already waiting', async () => {
    await t.database.db.update(pabxQueues).set({ strategy: 'ringall', maxCallers: 1, overflowApp: 'hangup' }).where(eq(pabxQueues.id, d.sales.id))
    const number = await queueNumber(d.sales.id)
    const waiting = newCallId()
    expect((await control.route(fromTrunk(d.trunk.id, '11987654321', number, waiting))).action).toBe('relay')
    const next = newCallId()
    expect(await control.route(fromTrunk(d.trunk.id, '11912345678', number, next))).toMatchObject({ action: 'reject', code: 603 })
    expect((await stepsOf(t.database.db, next)).map((s) => s.dialStatus)).toEqual([380, 603])
    await end(waiting)
  })
})

describe('idempotency', () => {
  it('answers a repeated route question with the decision already given and writes one step', async () => {
    const callId = newCallId()
    const first = await control.route(fromDevice('10001', '10002', callId))
    const again = await control.route(fromDevice('10001', '10002', callId))
    expect(again).toEqual(first)
    expect(await t.database.db.$count(callRecords, eq(callRecords.callId, callId))).toBe(1)
    await end(callId)
  })
})
