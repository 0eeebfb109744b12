import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config.ts'
import type { TelephonyConfig } from '../../server/config.ts'
import { bdecode, bencode } from '../../server/telephony/ng.ts'
import { ACK_FRAME, EvapiClient, netstring, takeNetstrings } from '../../server/telephony/evapi.ts'
import { ENTRIES_PER_COMMAND, tableCommands, trustedNetworks } from '../../server/telephony/credentials.ts'
import { INSTALL_HINT, startEngines } from '../../server/telephony/engines/index.ts'
import { KAMAILIO_TEMPLATE, kamailioDefines, renderKamailioConfig, writeKamailioConfig } from '../../server/telephony/engines/generate.ts'
import { sipOptionsPing } from '../../server/telephony/engines/sip-probe.ts'
import { TELEPHONY_STATUS_PATH } from '../../server/telephony/index.ts'
import { TestClient, signedIn, useTestApp } from './helper.ts'
import { freePorts, requireEngines, until } from './telephony/stack.ts'

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function telephonyConfig(env: Record<string, string> = {}): Promise<TelephonyConfig> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'atende-eng-'))
  dirs.push(dir)
  const [sip, ws, evapi, ng, dtmf, mediaSip, mediaControl] = await freePorts(7)
  const [rtp] = await freePorts(20, 40000, 50000)
  const ports = { SIP_PORT: sip, SIP_WS_PORT: ws, EVAPI_PORT: evapi, RTPENGINE_NG_PORT: ng, DTMF_LOG_PORT: dtmf, MEDIA_SIP_PORT: mediaSip, MEDIA_CONTROL_PORT: mediaControl, RTP_PORT_MIN: rtp, RTP_PORT_MAX: rtp! + 19 }
  return loadConfig({ DATA_DIR: dir, TELEPHONY: 'embedded', ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])), ...env }).telephony
}

const quiet = { error() {}, warn() {}, info() {}, debug() {} }

describe('the Kamailio config generator', () => {
  it('fills every placeholder with the configured ports and paths, and Kamailio accepts the result', async () => {
    await requireEngines()
    const config = await telephonyConfig({ SIP_AUTH_FAIL_LIMIT: '7' })
    const file = await writeKamailioConfig(config)
    expect(file).toBe(path.join(config.dir, 'kamailio.cfg'))
    const text = await readFile(file, 'utf8')
    expect(text).toContain(`#!substdef "!ATENDE_SIP_PORT!${config.sipPort}!g"`)
    expect(text).toContain(`#!substdef "!ATENDE_EVAPI_ADDR!127.0.0.1:${config.evapiPort}!g"`)
    expect(text).toContain('#!substdef "!ATENDE_AUTH_FAILS!7!g"')
    // The alias carries the port (the lab's loop bug).
    expect(text).toContain('alias="ATENDE_SIP_IP:ATENDE_SIP_PORT"')
    // No credential is ever written: the HA1 table comes over evapi.
    expect(text).not.toMatch(/\$sht\(creds=>[^)]*\)\s*=\s*"/)
    const check = execFileSync('kamailio', ['-c', '-f', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    void check
  })

  it('refuses a template placeholder nobody defined, and values that would break the substitution', async () => {
    const template = await readFile(KAMAILIO_TEMPLATE, 'utf8')
    const config = await telephonyConfig()
    expect(() => renderKamailioConfig(`${template}\nlisten=udp:ATENDE_TYPO:1\n`, kamailioDefines(config))).toThrow(/ATENDE_TYPO/)
    expect(() => renderKamailioConfig(template, [...kamailioDefines(config), ['ATENDE_X', 'a!b']])).toThrow(/may not contain/)
    expect(() => renderKamailioConfig('no marker', kamailioDefines(config))).toThrow(/lacks/)
  })

  it('reads every port from the environment and refuses nonsense', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/x', TELEPHONY: 'external', SIP_PORT: '15060', RTP_PORT_MIN: '100', RTP_PORT_MAX: '200' }).telephony
    expect(config).toMatchObject({
      mode: 'external',
      sipPort: 15060,
      sipWsPort: 8088,
      evapiPort: 8448,
      rtpengineNgPort: 2223,
      rtpPortMin: 100,
      rtpPortMax: 200,
      dtmfLogPort: 9999,
    })
    expect(config.dir).toBe('/tmp/x/telephony')
    expect(() => loadConfig({ TELEPHONY: 'sometimes' })).toThrow(/TELEPHONY/)
    expect(() => loadConfig({ SIP_PORT: '70000' })).toThrow(/SIP_PORT/)
    expect(() => loadConfig({ RTP_PORT_MIN: '300', RTP_PORT_MAX: '200' })).toThrow(/RTP_PORT_MIN/)
    // Under vitest the default is off: tests that do not ask never spawn engines.
    expect(loadConfig({}).telephony.mode).toBe('off')
  })
})

describe('the wire formats', () => {
  it('bencode round-trips rtpengine dictionaries with sorted keys', () => {
    const encoded = bencode({ command: 'offer', 'call-id': 'a:b', flags: ['trust-address'], n: 3, skip: undefined })
    expect(encoded.toString()).toBe('d7:call-id3:a:b7:command5:offer5:flagsl13:trust-addresse1:ni3ee')
    expect(bdecode(encoded)).toEqual({ command: 'offer', 'call-id': 'a:b', flags: ['trust-address'], n: 3 })
    expect(() => bdecode(Buffer.from('d3:abc'))).toThrow()
  })

  it('netstrings split across TCP chunks come out whole, and garbage is refused', () => {
    const both = Buffer.concat([netstring('{"event":"hello"}'), netstring('{"a":"é"}')])
    const first = takeNetstrings(both.subarray(0, 25))
    expect(first.frames).toEqual(['{"event":"hello"}'])
    const second = takeNetstrings(Buffer.concat([first.rest, both.subarray(25)]))
    expect(second.frames).toEqual(['{"a":"é"}'])
    expect(second.rest.length).toBe(0)
    expect(() => takeNetstrings(Buffer.from('x:{},'))).toThrow()
    expect(() => takeNetstrings(Buffer.from('2:{}}'))).toThrow(/comma/)
  })

  it('table pushes: everything on hello, only the difference after an admin change', () => {
    const a = { user: '1001', domain: 'localhost', ha1: 'a'.repeat(32), max_calls: 2 }
    const b = { user: '1002', domain: 'localhost', ha1: 'b'.repeat(32), max_calls: 2 }
    const trunk = { id: 1, ip: '127.0.0.1', port: 5090, max_calls: 0 }
    expect(tableCommands(null, { creds: [a, b], trunks: [trunk], networks: '' })).toEqual([
      { cmd: 'creds', reset: true, entries: [a, b] },
      { cmd: 'trunks', reset: true, entries: [trunk] },
      { cmd: 'networks', value: '' },
    ])
    // A large table goes in parts small enough for Kamailio's print buffer (pv_buffer_size 32 KB), even with the
    // longest user and domain names; only the first part resets.
    const many = Array.from({ length: ENTRIES_PER_COMMAND * 2 + 1 }, (_, i) => ({ ...a, user: String(i).padStart(80, '9'), domain: 'd'.repeat(253) }))
    const parts = tableCommands(null, { creds: many, trunks: [], networks: '' })
    expect(parts.slice(0, -1).map((c) => [c.cmd, (c as { reset: boolean }).reset, (c as { entries: unknown[] }).entries.length])).toEqual([
      ['creds', true, ENTRIES_PER_COMMAND],
      ['creds', false, ENTRIES_PER_COMMAND],
      ['creds', false, 1],
      ['trunks', true, 0],
    ])
    expect(parts.at(-1)).toEqual({ cmd: 'networks', value: '' })
    for (const part of parts) expect(JSON.stringify(part).length).toBeLessThan(16384)
    const changed = { ...a, max_calls: 1 }
    expect(tableCommands({ creds: [a, b], trunks: [trunk], networks: '' }, { creds: [changed], trunks: [trunk], networks: '' })).toEqual([
      { cmd: 'creds_del', entries: [{ user: '1002', domain: 'localhost' }] },
      { cmd: 'creds', reset: false, entries: [changed] },
    ])
    expect(tableCommands({ creds: [a], trunks: [trunk], networks: '' }, { creds: [a], trunks: [], networks: '' })).toEqual([
      { cmd: 'trunks', reset: true, entries: [] },
    ])
    // The trusted networks follow the trunks' and devices' allowed_ips.
    expect(tableCommands({ creds: [a], trunks: [], networks: '' }, { creds: [a], trunks: [], networks: '10.0.0.0/8' })).toEqual([
      { cmd: 'networks', value: '10.0.0.0/8' },
    ])
  })

  it('trusted networks: addresses and CIDR networks from allowed_ips, typos and whole-internet ranges left out', () => {
    expect(trustedNetworks(['203.0.113.7, 10.0.0.0/8', '', 'not-an-ip, 0.0.0.0/0, 192.0.2.0/33', '2001:db8::/48, 10.0.0.0/8'])).toBe(
      '10.0.0.0/8,2001:db8::/48,203.0.113.7/32',
    )
  })
})

describe('the evapi client', () => {
  it('answers events it does not decide on with an ack frame (no Nagle wait for the next question), and questions with the decision', async () => {
    const received: string[] = []
    let peer: net.Socket | null = null
    const server = net.createServer((socket) => {
      peer = socket
      let buffer: Buffer = Buffer.alloc(0)
      socket.on('data', (chunk) => {
        const taken = takeNetstrings(Buffer.concat([buffer, chunk]))
        buffer = taken.rest
        received.push(...taken.frames)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    const events: unknown[] = []
    const control = {
      route: async () => ({ action: 'reject' as const, code: 404, reason: 'Not Found' }),
      failure: async () => ({ action: 'reject' as const, code: 480, reason: 'Temporarily Unavailable' }),
      event: (event: unknown) => void events.push(event),
    }
    const client = new EvapiClient({ port: (server.address() as net.AddressInfo).port, control, onHello: async () => {}, log: quiet })
    client.start()
    try {
      await until(() => peer !== null && client.connected, 3000, 'the connection')
      peer!.write(netstring(JSON.stringify({ event: 'call', call_id: 'c1', state: 'ringing', code: 180, reason: 'Ringing', by: 'callee', ts: 1 })))
      await until(() => received.length === 1, 3000, 'the ack')
      expect(received).toEqual(['{"cmd":"ack"}'])
      expect(ACK_FRAME.toString()).toBe('13:{"cmd":"ack"},')
      expect(events).toHaveLength(1)
      const route = {
        event: 'route',
        tindex: 1,
        tlabel: 2,
        call_id: 'c2',
        from_user: 'a',
        from_domain: 'localhost',
        ruri_user: 'b',
        ruri_domain: 'localhost',
        src_ip: '127.0.0.1',
        src_port: 1,
        transport: 'udp',
        source: 'device',
        trunk_id: null,
        x_headers: {},
      }
      peer!.write(netstring(JSON.stringify(route)))
      await until(() => received.length === 2, 3000, 'the decision')
      // A question is answered by its decision alone.
      expect(JSON.parse(received[1]!)).toEqual({ cmd: 'route', tindex: 1, tlabel: 2, action: 'reject', code: 404, reason: 'Not Found' })
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(received).toHaveLength(2)
    } finally {
      client.stop()
      server.close()
    }
  })
})

describe('the engine supervisor', () => {
  it('starts both engines, restarts Kamailio after SIGKILL and stops them with the server', async () => {
    await requireEngines()
    const config = await telephonyConfig()
    const started = Date.now()
    const engines = await startEngines(config, quiet)
    try {
      await engines.ready()
      const status = await engines.status()
      expect(status.kamailio).toMatchObject({ state: 'running', restarts: 0 })
      expect(status.kamailio.version).toMatch(/^\d+\.\d+/)
      expect(status.rtpengine.state).toBe('running')
      expect(Date.now() - started).toBeLessThan(10_000)
      const pid = status.kamailio.pid!
      process.kill(pid, 'SIGKILL')
      await until(async () => (await engines.status()).kamailio.restarts === 1, 5000, 'the restart to be noticed')
      await until(async () => (await engines.status()).kamailio.state === 'running', 15_000, 'Kamailio running again')
      const again = await engines.status()
      expect(again.kamailio.pid).not.toBe(pid)
      expect(again.kamailio.last_error).toMatch(/SIGKILL/)
      expect(await sipOptionsPing(config.host, config.sipPort, 1000)).toBe(200)
    } finally {
      await engines.stop()
    }
    expect(await sipOptionsPing(config.host, config.sipPort, 500)).toBeNull()
    expect((await engines.status()).kamailio.state).toBe('stopped')
  }, 40_000)

  it('without the binaries the server runs on and says exactly how to install them', async () => {
    const config = await telephonyConfig({ KAMAILIO_BIN: '/nonexistent/kamailio' })
    const warnings: string[] = []
    const engines = await startEngines(config, { ...quiet, warn: (_o: object, msg?: string) => warnings.push(msg ?? '') })
    const status = await engines.status()
    expect(status).toMatchObject({ kamailio: { state: 'missing' }, install_hint: INSTALL_HINT })
    expect(INSTALL_HINT).toBe('apt-get install kamailio kamailio-websocket-modules kamailio-extra-modules kamailio-utils-modules rtpengine-daemon')
    expect(warnings.join('\n')).toContain(INSTALL_HINT)
    await engines.stop()
  })
})

describe('GET /api/v1/pabx/telephony/status/', () => {
  const t = useTestApp()

  it('answers the engines status to those who may see trunks, and 403 to agents', async () => {
    const admin = await signedIn(t.app, 'admin')
    const response = await admin.request('GET', TELEPHONY_STATUS_PATH)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      mode: 'off',
      kamailio: { state: 'off', version: null, pid: null, restarts: 0, last_error: null },
      rtpengine: { state: 'off', version: null, pid: null, restarts: 0, last_error: null },
      install_hint: null,
      evapi: { connected: false },
      kamailio_load: null,
    })
    const agent = await signedIn(t.app, 'agent1')
    expect((await agent.request('GET', TELEPHONY_STATUS_PATH)).statusCode).toBe(403)
    expect((await new TestClient(t.app).request('GET', TELEPHONY_STATUS_PATH)).statusCode).toBe(401)
  })
})
