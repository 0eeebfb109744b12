import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { NgClient } from '../../server/telephony/ng.ts'
import type { Baresip, Stack } from './telephony/stack.ts'
import { signedIn } from './helper.ts'
import { options, rawSip, setDeviceCap, startBaresip, startStack, until } from './telephony/stack.ts'
import type { RawSip } from './telephony/stack.ts'

// The real SIP edge: Kamailio + rtpengine spawned by the server on free ports, baresip user agents, a test-double
// call control routing internal extensions. SIP_AUTH_FAIL_LIMIT and SIP_FLOOD_REQUESTS are lowered so the defences
// trip within a bounded loop; every hostile request comes from its own 127.0.0.x address.

let stack: Stack
const agents: Baresip[] = []

beforeAll(async () => {
  stack = await startStack({ SIP_AUTH_FAIL_LIMIT: '3', SIP_FLOOD_REQUESTS: '30', SIP_BAN_SECONDS: '60' })
}, 60_000)

afterAll(async () => {
  for (const agent of agents) await agent.stop()
  await stack?.close()
})

async function agent(user: string, password = stack.secrets[user]!): Promise<Baresip> {
  const started = await startBaresip(stack, user, password)
  agents.push(started)
  return started
}

const registered = (user: string) => stack.control.events.some((e) => e.event === 'registration' && e.aor === `${user}@localhost` && e.state === 'registered')

describe('the SIP edge', () => {
  it('registers a device with digest against the pushed HA1 and tells call control', async () => {
    await agent('10001')
    await until(() => registered('10001'), 10_000, 'registration of 10001')
    const event = stack.control.events.find((e) => e.event === 'registration' && e.aor === '10001@localhost')
    expect(event).toMatchObject({ state: 'registered' })
    // Seconds left, not usrloc's absolute expiry.
    expect((event as { expires: number }).expires).toBeGreaterThan(0)
    expect((event as { expires: number }).expires).toBeLessThanOrEqual(300)
  })

  it('answers a call between two registered devices through call control, with RTP through rtpengine', async () => {
    const caller = registered('10001') ? agents.find((a) => a.user === '10001')! : await agent('10001')
    await agent('10002')
    await until(() => registered('10002'), 10_000, 'registration of 10002')
    await caller.command('dial', 'sip:10002@localhost')
    await until(() => stack.control.events.some((e) => e.event === 'call' && e.state === 'answered'), 10_000, 'the call answered')
    const route = stack.control.routes.at(-1)!
    expect(route).toMatchObject({ from_user: '10001', ruri_user: '10002', source: 'device', transport: 'udp', trunk_id: null })
    const ng = new NgClient({ port: stack.config.telephony.rtpengineNgPort })
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      const answer = await ng.request({ command: 'query', 'call-id': route.call_id })
      expect(answer.result).toBe('ok')
      const tags = Object.values(answer.tags as Record<string, { medias: { streams: { stats: { packets: number } }[] }[] }>)
      expect(tags).toHaveLength(2)
      // Both legs carried RTP: each party's stream into rtpengine counted packets.
      for (const tag of tags) expect(tag.medias[0]!.streams[0]!.stats.packets).toBeGreaterThan(20)
    } finally {
      ng.close()
    }
    await caller.command('hangup')
    await until(() => stack.control.events.some((e) => e.event === 'call' && e.state === 'ended'), 10_000, 'the call ended')
    const ended = stack.control.events.find((e) => e.event === 'call' && e.state === 'ended')
    expect(ended).toMatchObject({ call_id: route.call_id, by: 'caller' })
  })
})

const md5 = (text: string) => createHash('md5').update(text).digest('hex')

/** A REGISTER for `user` from `via`; with `challenge`, answered with digest computed from `password`. */
function register(
  via: { ip: string; port: number; transport?: string },
  target: string,
  user: string,
  challenge?: { nonce: string; password: string; callId: string },
) {
  const uri = 'sip:localhost'
  const lines = [
    `REGISTER ${uri} SIP/2.0`,
    `Via: SIP/2.0/${via.transport ?? 'UDP'} ${via.ip}:${via.port};branch=z9hG4bK${randomBytes(6).toString('hex')};rport`,
    'Max-Forwards: 70',
    `From: <sip:${user}@localhost>;tag=${randomBytes(4).toString('hex')}`,
    `To: <sip:${user}@localhost>`,
    `Call-ID: ${challenge?.callId ?? randomBytes(8).toString('hex')}`,
    `CSeq: ${challenge ? 2 : 1} REGISTER`,
    `Contact: <sip:${user}@${via.ip}:${via.port}${via.transport === 'WS' ? ';transport=ws' : ''}>;expires=60`,
    'User-Agent: Atende test',
  ]
  if (challenge) {
    const ha1 = md5(`${user}:localhost:${challenge.password}`)
    const response = md5(`${ha1}:${challenge.nonce}:${md5(`REGISTER:${uri}`)}`)
    lines.push(`Authorization: Digest username="${user}", realm="localhost", nonce="${challenge.nonce}", uri="${uri}", response="${response}", algorithm=MD5`)
  }
  void target
  return [...lines, 'Content-Length: 0', '', ''].join('\r\n')
}

const statusOf = (message: string | null) => (message ? Number(/^SIP\/2\.0 (\d{3})/.exec(message)?.[1]) : null)
const nonceOf = (message: string) => /nonce="([^"]+)"/.exec(message)![1]!

async function registerOverUdp(sip: RawSip, user: string, password: string): Promise<number | null> {
  const callId = randomBytes(8).toString('hex')
  sip.send(register(sip, '', user, undefined).replace(/Call-ID: .*/, `Call-ID: ${callId}`))
  const challenge = await sip.next(2000)
  if (statusOf(challenge) !== 401) return statusOf(challenge)
  sip.send(register(sip, '', user, { nonce: nonceOf(challenge!), password, callId }))
  return statusOf(await sip.next(2000))
}

describe('the SIP edge defends itself', () => {
  it('refuses a wrong password with 403 and bans the account at that address after SIP_AUTH_FAIL_LIMIT failures', async () => {
    const port = stack.config.telephony.sipPort
    const attacker = await rawSip('127.0.0.11', port)
    const bystander = await rawSip('127.0.0.12', port)
    try {
      expect(await registerOverUdp(attacker, '10001', 'not-the-password')).toBe(403)
      // An unknown user fails the same way (no user enumeration).
      expect(await registerOverUdp(attacker, '4242', 'whatever')).toBe(403)
      expect(await registerOverUdp(attacker, '10001', 'still-wrong')).toBe(403)
      expect(await registerOverUdp(attacker, '10001', 'wrong-again')).toBe(403)
      // 10001 from this address is banned now: the right password is not even looked at.
      expect(await registerOverUdp(attacker, '10001', stack.secrets['10001']!)).toBeNull()
      // The address itself still gets answers (others behind the same NAT), and another address is not affected.
      attacker.send(options(attacker, port))
      expect(statusOf(await attacker.next(2000))).toBe(200)
      expect(await registerOverUdp(bystander, '10001', stack.secrets['10001']!)).toBe(200)
    } finally {
      attacker.close()
      bystander.close()
    }
  })

  it('answers whatever the User-Agent says (a renamed scanner passes, a real SDK was dropped): the bans decide', async () => {
    const port = stack.config.telephony.sipPort
    const sip = await rawSip('127.0.0.21', port)
    try {
      for (const agentName of ['friendly-scanner', 'PortSIP VoIP SDK 19.2', 'Atende test']) {
        sip.send(options(sip, port, agentName))
        expect(statusOf(await sip.next(2000))).toBe(200)
      }
    } finally {
      sip.close()
    }
  })

  it('bans a flooding address (pike) and keeps answering others', async () => {
    const port = stack.config.telephony.sipPort
    const flood = await rawSip('127.0.0.31', port)
    const other = await rawSip('127.0.0.32', port)
    try {
      // Bounded: 200 keepalives at once from one loopback address, well over SIP_FLOOD_REQUESTS=30 per 2 s.
      for (let i = 0; i < 200; i++) flood.send(options(flood, port))
      let answered = 0
      while ((await flood.next(300)) !== null) answered++
      expect(answered).toBeLessThan(200)
      flood.send(options(flood, port))
      expect(await flood.next(800)).toBeNull()
      other.send(options(other, port))
      expect(statusOf(await other.next(2000))).toBe(200)
    } finally {
      flood.close()
      other.close()
    }
  })

  it('caps a device at its max_concurrent_calls (dialog profiles) with 486, without asking call control', async () => {
    const caller = agents.find((a) => a.user === '10001') ?? (await agent('10001'))
    if (!agents.some((a) => a.user === '10002')) await agent('10002')
    await until(() => registered('10002'), 10_000, 'registration of 10002')
    await setDeviceCap(stack, '10001', 1)
    await stack.app.telephony.publisher!.pushChanges()
    const answeredBefore = stack.control.events.filter((e) => e.event === 'call' && e.state === 'answered').length
    await caller.command('dial', 'sip:10002@localhost')
    await until(
      () => stack.control.events.filter((e) => e.event === 'call' && e.state === 'answered').length > answeredBefore,
      10_000,
      'the first call answered',
    )
    const routesBefore = stack.control.routes.length
    const output = caller.events.length
    await caller.command('dial', 'sip:10002@localhost')
    await until(() => /486 Busy Here/.test(caller.events.slice(output).join('')), 5000, 'the second call refused with 486')
    expect(stack.control.routes.length).toBe(routesBefore)
    await caller.command('hangup')
    await setDeviceCap(stack, '10001', 2)
    await stack.app.telephony.publisher!.pushChanges()
  })
})

describe('GET /ws/sip', () => {
  async function tokenOf(username: string, password: string): Promise<string> {
    const response = await fetch(`http://127.0.0.1:${stack.httpPort}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: 'localhost' },
      body: JSON.stringify({ username, password }),
    })
    return ((await response.json()) as { token: string }).token
  }

  function open(token: string | null, origin?: string): Promise<{ socket: WebSocket; status: number }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { host: 'localhost' }
      if (token) headers.authorization = `Token ${token}`
      if (origin) headers.origin = origin
      const socket = new WebSocket(`ws://127.0.0.1:${stack.httpPort}/ws/sip`, 'sip', { headers })
      socket.once('open', () => resolve({ socket, status: 101 }))
      socket.once('unexpected-response', (_request, response) => resolve({ socket, status: response.statusCode ?? 0 }))
      socket.once('error', reject)
    })
  }

  it('proxies SIP frames to Kamailio for a user with a webphone account: a digest REGISTER succeeds', async () => {
    const { socket, status } = await open(await tokenOf('agent1', 'ramal1001'))
    expect(status).toBe(101)
    expect(socket.protocol).toBe('sip')
    const replies: string[] = []
    socket.on('message', (data) => replies.push(data.toString()))
    const next = async () => {
      await until(() => replies.length > 0, 3000, 'a SIP reply over the proxy')
      return replies.shift()!
    }
    const via = { ip: 'atende.invalid', port: 0, transport: 'WS' }
    const callId = randomBytes(8).toString('hex')
    socket.send(register(via, '', '10001').replace(/Call-ID: .*/, `Call-ID: ${callId}`))
    const challenge = await next()
    expect(statusOf(challenge)).toBe(401)
    socket.send(register(via, '', '10001', { nonce: nonceOf(challenge), password: stack.secrets['10001']!, callId }))
    expect(statusOf(await next())).toBe(200)
    await until(() => stack.control.events.filter((e) => e.event === 'registration' && e.aor === '10001@localhost').length >= 2, 3000, 'the registration event')
    // Closing the browser side closes Kamailio's: the contact over that connection goes (handle_lost_tcp).
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.close()
    await closed
  })

  it('refuses the upgrade without a session, from a foreign origin, and for users without a webphone account', async () => {
    expect((await open(null)).status).toBe(401)
    expect((await open(await tokenOf('agent1', 'ramal1001'), 'https://evil.example')).status).toBe(403)
    expect((await open(await tokenOf('admin', 'gestor2025'))).status).toBe(403)
  })
})

describe('credentials follow the settings', () => {
  it('a device an admin creates or changes is pushed to Kamailio at once (afterCommit → bus → evapi)', async () => {
    const admin = await signedIn(stack.app, 'admin')
    const created = await admin.request('POST', '/api/v1/pabx/devices/', { payload: { description: 'Mesa 1', username: '20001', secret: 'primeira-senha' } })
    expect(created.statusCode, created.body).toBe(201)
    const port = stack.config.telephony.sipPort
    const first = await rawSip('127.0.0.41', port)
    const second = await rawSip('127.0.0.42', port)
    const third = await rawSip('127.0.0.43', port)
    try {
      await until(async () => (await registerOverUdp(first, '20001', 'primeira-senha')) === 200, 5000, 'the new device accepted')
      const id = (created.json() as { id: number }).id
      const changed = await admin.request('PATCH', `/api/v1/pabx/devices/${id}/`, { payload: { secret: 'segunda-senha' } })
      expect(changed.statusCode, changed.body).toBe(200)
      await until(async () => (await registerOverUdp(second, '20001', 'segunda-senha')) === 200, 5000, 'the new secret accepted')
      expect(await registerOverUdp(third, '20001', 'primeira-senha')).toBe(403)
      expect((await admin.request('DELETE', `/api/v1/pabx/devices/${id}/`)).statusCode).toBe(204)
      await until(async () => (await registerOverUdp(second, '20001', 'segunda-senha')) === 403, 5000, 'the deleted device refused')
    } finally {
      first.close()
      second.close()
      third.close()
    }
  })
})
