import { describe, expect, it } from 'vitest'
import { fromDevice, fromTrunk, newCallId, setAgent, stepsOf, useCallControl } from './call-control-helper.ts'
import { useTestApp } from './helper.ts'

// The media app's monitoring legs (server/telephony/control/spy.ts): `spy.<id>` to a supervisor, `whisper.<id>` to an
// agent a supervisor whispers to on a direct call. Only the media app may place them, they are never recorded nor
// refused because the user is busy, and no one else's X-Atende-Monitor ever reaches a phone (the webphone answers a
// leg that carries it silently). Kamailio's part (it strips every X-Atende-* a request arrives with and reads
// X-Atende-Monitor* only from the media app) is proven with the real engines in media-monitor.test.ts.

const t = useTestApp()
const { state, event } = useCallControl(() => t.database.db, new Date('2025-03-03T13:00:00Z'))

const MONITOR = { 'X-Atende-Monitor': 'whisper', 'X-Atende-Monitor-Session': '0123456789abcdef', 'X-Atende-Monitor-Supervisor': 'Sofia' }
const fromMedia = (dialled: string, callId = newCallId(), headers: Record<string, string> = MONITOR) => ({
  ...fromDevice('atende-media', dialled, callId, headers),
  source: 'media',
  transport: 'udp',
})

describe('monitoring legs', () => {
  it("whisper.<agent id> from the media app goes to the agent's device with the monitor headers, unrecorded, even when the agent is busy", async () => {
    await setAgent(t.database.db, state.d.agent1, 'inuse')
    const callId = newCallId()
    const decision = await state.control.route(fromMedia(`whisper.${state.d.agent1.id}`, callId))
    expect(decision).toMatchObject({ action: 'relay', ruri: 'sip:10001@localhost', lookup: true, record: false, on_failure: false })
    if (decision.action !== 'relay') throw new Error('not relayed')
    expect(decision.headers).toBe('X-Atende-Monitor: whisper\r\nX-Atende-Monitor-Session: 0123456789abcdef\r\nX-Atende-Monitor-Supervisor: Sofia\r\n')
    expect(await stepsOf(t.database.db, callId)).toEqual([])
    await setAgent(t.database.db, state.d.agent1, 'not_inuse')
  })

  it('whisper.<id> of another site, an unknown user or a user without an extension is refused 404', async () => {
    expect(await state.control.route({ ...fromMedia('whisper.999999'), ruri_domain: 'localhost' })).toMatchObject({ action: 'reject', code: 404 })
    expect(await state.control.route({ ...fromMedia(`whisper.${state.d.agent1.id}`), ruri_domain: 'other.example' })).toMatchObject({ action: 'reject' })
  })

  it("an outside caller's X-Atende-Monitor never reaches the agent: not from a trunk, not from a device, not by dialling whisper.<id>", async () => {
    await setAgent(t.database.db, state.d.agent1, 'not_inuse')
    // A device dialling the agent's extension with the headers: relayed as an ordinary call, without them.
    const direct = newCallId()
    const decision = await state.control.route(fromDevice('10002', '10001', direct, MONITOR))
    expect(decision).toMatchObject({ action: 'relay', ruri: 'sip:10001@localhost' })
    if (decision.action === 'relay') expect(decision.headers).not.toMatch(/X-Atende-Monitor/)
    await event(direct, 'ended')
    // Dialling whisper.<id> or spy.<id> from a device or a trunk is no monitoring leg.
    for (const request of [
      fromDevice('10002', `whisper.${state.d.agent1.id}`, newCallId(), MONITOR),
      fromDevice('10002', `spy.${state.d.agent1.id}`, newCallId(), MONITOR),
      { ...fromTrunk(state.d.trunk.id, '011955550000', `whisper.${state.d.agent1.id}`), x_headers: MONITOR },
    ]) {
      const outcome = await state.control.route(request)
      if (outcome.action === 'relay') expect(outcome.headers).not.toMatch(/X-Atende-Monitor/)
      expect(outcome).not.toMatchObject({ action: 'relay', ruri: 'sip:10001@localhost', record: false })
    }
  })
})
