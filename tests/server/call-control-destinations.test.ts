import { describe, expect, it } from 'vitest'
import { CALL_DESTINATIONS } from '../../contract/entities/apps.ts'
import type { CallBase, Env } from '../../server/telephony/control/call-plan.ts'
import { MAX_HOPS } from '../../server/telephony/control/call-plan.ts'
import { DESTINATIONS, toDestination } from '../../server/telephony/control/destinations/index.ts'

// The call destinations map (server/telephony/control/destinations/): one entry per app call control can route to;
// the routing tests (call-control-*.test.ts) cover what each entry does.

const base = { siteId: 1, domain: 'localhost', callId: 'c1', caller: '1001', callee: '2001', phone: '', record: false, clientName: '' } as CallBase
// Neither an unknown app nor a loop touches the database.
const env = { db: undefined, now: new Date(), random: Math.random, destination: toDestination } as unknown as Env

describe('call destinations', () => {
  it('route every destination of the settings', () => {
    const missing = CALL_DESTINATIONS.filter((app) => !(app in DESTINATIONS))
    expect(missing).toEqual([])
  })

  it('send IVRs, announcements, voicemail and NPS surveys to the media app, whose media Kamailio then leaves alone', async () => {
    const mediaApp = 'sip:127.0.0.1:5090;transport=udp'
    for (const app of ['ivrbasic', 'announce', 'voicemail', 'nps']) {
      const [step] = await toDestination({ ...env, mediaApp }, base, app, '7', 0)
      expect(step).toMatchObject({ kind: 'media', decision: { action: 'relay', ruri: `sip:${app}.7@${base.domain}`, dst: mediaApp, lookup: false, media: true } })
      // The media app bridging a caller on never gets such a call back.
      expect((await toDestination({ ...env, mediaApp, mediaLeg: true }, base, app, '7', 0))[0]!.decision).toMatchObject({ code: 480 })
    }
  })

  it('answer 480 for an app without an entry, and once a chain of overflows passes the hop limit', async () => {
    for (const app of ['ivrbasic', 'voicemail', 'toString', '__proto__']) {
      expect(await toDestination(env, base, app, '1', 0)).toEqual([
        { ...base, kind: 'reject', decision: { action: 'reject', code: 480, reason: 'Temporarily Unavailable' } },
      ])
    }
    expect((await toDestination(env, base, 'hangup', '', MAX_HOPS + 1))[0]!.decision).toMatchObject({ code: 480 })
    expect((await toDestination(env, base, 'hangup', '', MAX_HOPS))[0]!.decision).toMatchObject({ code: 603 })
  })
})
