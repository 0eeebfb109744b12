import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callRecords } from '../../server/db/schema/index.ts'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'
import { openSteps } from '../../server/telephony/control/reconcile.ts'
import type { CallEvent } from '../../server/telephony/types.ts'
import { audioSdp, RawUa, registerWithDigest, statusOf } from './telephony/raw-sip-ua.ts'
import { bodyOf, callIdOf, RawUas, replyTo } from './telephony/raw-uas.ts'
import { rawSip, RecordingControl, startStackWith, until } from './telephony/stack.ts'
import type { RawSip, Stack } from './telephony/stack.ts'

// No call without rtpengine, the answer side (issue 10, item 9), with the real engines and the real call control: a
// callee (a raw SIP peer registered as 10002) answers with an SDP rtpengine refuses. The caller never receives the
// callee's SDP (a 183 is dropped, a 200 goes on without its body and both sides get a BYE after the ACK), the call
// record ends failed, and the callee takes the next call. A re-INVITE's refused answer ends the call the same way. Engines' ports come from 27000–27999.

type Control = RecordingControl<CallControlService>
let stack: Stack<Control>
let callee: RawUas
const sockets: RawSip[] = []
const CALLEE_IP = '127.0.0.211'
/** What a broken callee answers: Content-Type application/sdp, but no session description at all. */
const UNREADABLE = 'v=0\r\nthis is not a session description from 127.0.0.211\r\n'

async function raw(ip: string): Promise<RawSip> {
  const socket = await rawSip(ip, stack.config.telephony.sipPort)
  sockets.push(socket)
  return socket
}

const callEvents = (callId: string) => stack.control.events.filter((e): e is CallEvent => e.event === 'call' && e.call_id === callId)

beforeAll(async () => {
  stack = await startStackWith(
    (db) => new RecordingControl(createCallControl({ db })),
    { SIP_MAX_MEDIA_LINES: '4', SIP_RECONCILE_SECONDS: '3600' },
    { ports: [27000, 27990] },
  )
  const sip = await raw(CALLEE_IP)
  callee = new RawUas(sip, '10002')
  expect(await registerWithDigest(sip, '10002', stack.secrets['10002']!)).toBe(200)
  await until(
    () => stack.control.events.some((e) => e.event === 'registration' && e.aor === '10002@localhost' && e.state === 'registered'),
    10_000,
    'registration of 10002',
  )
}, 90_000)

afterAll(async () => {
  for (const socket of sockets) socket.close()
  await stack?.close()
})

/** Calls 10002 from `ip` and lets the callee answer the INVITE with `early` (a 183, when given) and then `answer`. */
async function callAnsweredWith(ip: string, answer: string, early?: string) {
  const sip = await raw(ip)
  const calling = new RawUa(sip, stack.config.telephony.sipPort, '10001', stack.secrets['10001']!).invite('10002', audioSdp(ip, 44000))
  const invite = await callee.next('INVITE', 10_000)
  expect(invite, 'the INVITE reached the callee').not.toBeNull()
  callee.sip.send(replyTo(invite!, 100, 'Trying'))
  if (early) {
    // The 183 first, then a 180 without SDP: once the 180 is told to Node the 183 was handled too (and must not pass).
    callee.reply(invite!, 183, 'Session Progress', early)
    callee.reply(invite!, 180, 'Ringing')
    await until(() => callEvents(callIdOf(invite!)!).some((e) => e.state === 'ringing'), 10_000, 'the 180 told to Node')
  }
  callee.reply(invite!, 200, 'OK', answer)
  const result = await calling
  return { ...result, sip, invite: invite! }
}

/** The caller got the 200 without the callee's SDP, ACKed it, and Kamailio hung up both sides. */
async function hungUpBoth(call: Awaited<ReturnType<typeof callAnsweredWith>>) {
  expect(call.status).toBe(200)
  expect(bodyOf(call.final!)).toBe('')
  expect(call.final).toMatch(/^Content-Length:\s*0\s*$/im)
  // The callee's ACK, then a BYE from Kamailio on each side.
  expect(await callee.next('ACK', 10_000, call.callId), 'the ACK reached the callee').not.toBeNull()
  const calleeBye = await callee.next('BYE', 10_000, call.callId)
  expect(calleeBye, 'a BYE to the callee').not.toBeNull()
  callee.sip.send(replyTo(calleeBye!, 200, 'OK'))
  call.sip.send(replyTo(await nextRequestOf(call.sip, 'BYE', call.callId, 'a BYE to the caller'), 200, 'OK'))
}

/** The next `method` request of `callId` on the caller's socket (others are skipped). */
async function nextRequestOf(sip: RawSip, method: string, callId: string, what: string): Promise<string> {
  for (;;) {
    const message = await sip.next(10_000)
    expect(message, what).not.toBeNull()
    if (message!.startsWith(`${method} `) && callIdOf(message!) === callId) return message!
  }
}

/** The call's record closed as failed with `code` (never answered) and Node heard `failed`, not `answered`. */
async function endedFailed(callId: string, code: number, reason: string) {
  await until(async () => (await openSteps(stack.database.db, callId)) === 0, 10_000, 'the call record closed')
  const [step] = await stack.database.db.select().from(callRecords).where(eq(callRecords.callId, callId))
  expect(step).toMatchObject({ dialStatus: code, dialStatusText: reason, answeredAt: null })
  expect(callEvents(callId).map((e) => e.state)).toContain('failed')
  expect(callEvents(callId).map((e) => e.state)).not.toContain('answered')
}

describe('an answer rtpengine refuses never reaches the caller', () => {
  it('an unreadable SDP in the 183 and the 200: the 183 is dropped, the 200 goes on bodiless and both sides are hung up', async () => {
    const call = await callAnsweredWith('127.0.0.212', UNREADABLE, UNREADABLE)
    // Nothing of the callee's SDP, nor its address, in anything the caller received; no 183 at all.
    for (const message of call.received) {
      expect(message).not.toContain('not a session description')
      expect(bodyOf(message)).not.toContain(CALLEE_IP)
    }
    expect(call.received.map(statusOf)).toContain(180)
    expect(call.received.map(statusOf)).not.toContain(183)
    await hungUpBoth(call)
    await endedFailed(call.callId, 488, 'Not Acceptable Here')
  }, 60_000)

  it('a 200 with 240 media lines (one call once held 960 of 1,000 ports) is refused the same way', async () => {
    const answer = audioSdp(CALLEE_IP, 46000, 239)
    expect(answer.match(/^m=/gm)).toHaveLength(240)
    const call = await callAnsweredWith('127.0.0.213', answer)
    for (const message of call.received) expect(bodyOf(message)).not.toContain(CALLEE_IP)
    await hungUpBoth(call)
    await endedFailed(call.callId, 488, 'Too Many Media Streams')
  }, 60_000)

  it('an answer rtpengine cannot take for want of the session (restarted after the offer) is refused 503', async () => {
    const ip = '127.0.0.215'
    const sip = await raw(ip)
    const calling = new RawUa(sip, stack.config.telephony.sipPort, '10001', stack.secrets['10001']!).invite('10002', audioSdp(ip, 44000), { timeoutMs: 30_000 })
    const invite = await callee.next('INVITE', 10_000)
    expect(invite, 'the INVITE reached the callee').not.toBeNull()
    callee.sip.send(replyTo(invite!, 100, 'Trying'))
    // The offer was made; rtpengine dies and comes back (the server's supervisor restarts it) without the session.
    const engines = stack.app.telephony.engines
    const before = await engines.status()
    process.kill(before.rtpengine.pid!, 'SIGKILL')
    await until(async () => (await engines.status()).rtpengine.restarts === before.rtpengine.restarts + 1, 10_000, 'the restart noticed')
    await until(async () => (await engines.status()).rtpengine.state === 'running', 15_000, 'rtpengine running again')
    callee.reply(invite!, 200, 'OK', audioSdp(CALLEE_IP, 50000))
    const call = { ...(await calling), sip, invite: invite! }
    for (const message of call.received) expect(bodyOf(message)).not.toContain(CALLEE_IP)
    await hungUpBoth(call)
    await endedFailed(call.callId, 503, 'Media Unavailable')
  }, 60_000)

  /** The callee offers again in an answered call with `method`; the caller answers with what rtpengine cannot read. */
  async function offerAgainRefused(ip: string, method: 'INVITE' | 'UPDATE') {
    const call = await callAnsweredWith(ip, audioSdp(CALLEE_IP, 52000))
    expect(call.status).toBe(200)
    expect(await callee.next('ACK', 10_000, call.callId)).not.toBeNull()
    callee.sip.send(callee.inDialog(call.invite, method, 1, audioSdp(CALLEE_IP, 52000)))
    const offer = await nextRequestOf(call.sip, method, call.callId, `the ${method} reached the caller`)
    expect(bodyOf(offer)).not.toContain(CALLEE_IP)
    call.sip.send(replyTo(offer, 200, 'OK', { contact: `sip:10001@${call.sip.ip}:${call.sip.port}`, body: UNREADABLE }))
    const ok = await callee.finalReply(call.callId, 10_000)
    expect(statusOf(ok)).toBe(200)
    expect(bodyOf(ok!)).toBe('')
    return call
  }

  /** Kamailio hung up both sides of an answered call, and told Node it `ended` (not by either party). */
  async function endedByKamailio(call: Awaited<ReturnType<typeof callAnsweredWith>>) {
    const calleeBye = await callee.next('BYE', 10_000, call.callId)
    expect(calleeBye, 'a BYE to the callee').not.toBeNull()
    callee.sip.send(replyTo(calleeBye!, 200, 'OK'))
    call.sip.send(replyTo(await nextRequestOf(call.sip, 'BYE', call.callId, 'a BYE to the caller'), 200, 'OK'))
    await until(async () => (await openSteps(stack.database.db, call.callId)) === 0, 10_000, 'the call record closed')
    expect(callEvents(call.callId).map((e) => e.state)).toEqual(['answered', 'ended'])
    expect(callEvents(call.callId)[1]).toMatchObject({ reason: 'Media Refused' })
  }

  it("a re-INVITE's answer rtpengine refuses: the 200 goes on without it and the call is hung up after the ACK", async () => {
    const call = await offerAgainRefused('127.0.0.216', 'INVITE')
    callee.sip.send(callee.inDialog(call.invite, 'ACK', 1))
    await endedByKamailio(call)
  }, 60_000)

  it("an UPDATE's answer rtpengine refuses: the 200 goes on without it and the call is hung up at once (no ACK comes)", async () => {
    const call = await offerAgainRefused('127.0.0.217', 'UPDATE')
    await endedByKamailio(call)
  }, 60_000)

  it('the callee is not left busy: the next call rings it, and a good answer is anchored by rtpengine', async () => {
    const call = await callAnsweredWith('127.0.0.214', audioSdp(CALLEE_IP, 48000))
    expect(call.status).toBe(200)
    const sdp = bodyOf(call.final!)
    expect(sdp).toMatch(/^m=audio \d+ RTP\/AVP/m)
    // rtpengine's address and port, not the callee's.
    expect(sdp).not.toContain(CALLEE_IP)
    expect(sdp).not.toMatch(/^m=audio 48000 /m)
    await until(() => callEvents(call.callId).some((e) => e.state === 'answered'), 10_000, 'the call answered')
    expect(await callee.next('ACK', 10_000, call.callId), 'the ACK reached the callee').not.toBeNull()
  }, 60_000)
})
