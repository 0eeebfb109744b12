import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import {
  CLIENT_MESSAGES,
  LATER_CLIENT_ACTIONS,
  SERVER_ACTIONS,
  SERVER_MESSAGES,
  LATER_SERVER_ACTIONS,
  isClientAction,
  parseServerMessage,
  readServerFrame,
} from '../../contract/realtime/index.ts'
import { FORWARDED_ACTIONS, SOCKET_OWN_ACTIONS } from '../../machines/serviceSocket.machine.ts'
import { Id, PauseStartBody, PauseStopBody } from '../../contract/api/agent.ts'

const parse = (action: keyof typeof CLIENT_MESSAGES, frame: unknown, lang = 'en-US') =>
  v.safeParse(CLIENT_MESSAGES[action], frame, { lang, abortPipeEarly: true })

describe('service socket: client frames', () => {
  it('accepts the frames the machines send', () => {
    // machines/serviceSocket, tabOwnership, pause and agentStatus send exactly these.
    const frames = [
      { action: 'login' },
      { action: 'ping' },
      { action: 'server_pong' },
      { action: 'get_pauses' },
      { action: 'get_activities' },
      { action: 'service_here' },
      { action: 'logout' },
      { action: 'change_page', page: '/en-us/phonecalls' },
      { action: 'changePage', page: '/' },
      { action: 'change_state', channel: 'telephony', status: 'do_not_disturb' },
      { action: 'change_state', channel: 'chat', status: 'busy' },
      { action: 'start_pause', id: 12 },
      { action: 'start_pause', id: '12' },
      { action: 'done_activity', id: 3 },
    ] as const
    for (const frame of frames) expect(parse(frame.action, frame).success, JSON.stringify(frame)).toBe(true)
  })

  it('refuses bad fields', () => {
    expect(parse('change_state', { action: 'change_state', channel: 'chat', status: 'ringing' }).success).toBe(false)
    expect(parse('change_state', { action: 'change_state', channel: 'fax', status: 'busy' }).success).toBe(false)
    expect(parse('change_page', { action: 'change_page', page: 'x'.repeat(2001) }).success).toBe(false)
    expect(parse('start_pause', { action: 'start_pause', id: 0 }).success).toBe(false)
    expect(parse('start_pause', { action: 'start_pause', id: 1.5 }).success).toBe(false)
    expect(parse('start_pause', { action: 'start_pause' }).success).toBe(false)
  })

  it('knows its actions; the later issues’ actions are not among them', () => {
    expect(isClientAction('login')).toBe(true)
    expect(isClientAction('toString')).toBe(false)
    for (const action of LATER_CLIENT_ACTIONS) expect(isClientAction(action)).toBe(false)
  })
})

describe('service socket: server frames', () => {
  it('has a schema for every server action; the socket machine forwards every one but its own', () => {
    expect(Object.keys(SERVER_MESSAGES).sort()).toEqual([...SERVER_ACTIONS].sort())
    expect([...FORWARDED_ACTIONS, ...SOCKET_OWN_ACTIONS].sort()).toEqual([...SERVER_ACTIONS].sort())
    expect(FORWARDED_ACTIONS.filter((action) => (SOCKET_OWN_ACTIONS as readonly string[]).includes(action))).toEqual([])
    // The console acts on these already; the server sends them with later issues (tests/server/realtime/server-frames).
    for (const action of LATER_SERVER_ACTIONS) expect(FORWARDED_ACTIONS as readonly string[]).toContain(action)
  })

  it('reads the webphone commands of spec 000 §7', () => {
    expect(parseServerMessage({ action: 'startWebphone' })).toEqual({ action: 'startWebphone' })
    expect(parseServerMessage({ action: 'clickToCall', number: ' 1140001000 ' })).toEqual({ action: 'clickToCall', number: '1140001000' })
    expect(parseServerMessage({ action: 'clickToCall', number: '1140001000', force: true })).toMatchObject({ force: true })
    expect(parseServerMessage({ action: 'clickToCall', number: '  ' })).toBeNull()
    expect(parseServerMessage({ action: 'clickToCall', phone: '1140001000' })).toBeNull()
    expect(parseServerMessage({ action: 'changeDeviceState', state: 'in_activity' })).toEqual({ action: 'changeDeviceState', state: 'in_activity' })
    expect(parseServerMessage({ action: 'changeDeviceState', state: null })).not.toBeNull()
    expect(parseServerMessage({ action: 'changeDeviceState', state: 'sleeping' })).toBeNull()
  })

  it('tells an unknown action from a malformed frame of a known one', () => {
    expect(readServerFrame({ action: 'mystery' })).toEqual({ kind: 'unknown', action: 'mystery' })
    expect(readServerFrame('pong')).toEqual({ kind: 'unknown', action: null })
    expect(readServerFrame({ action: 'toString' })).toEqual({ kind: 'unknown', action: 'toString' })
    const bad = readServerFrame({ action: 'dnd', dnd: 'yes' })
    expect(bad).toMatchObject({ kind: 'invalid', action: 'dnd' })
    expect(bad.kind === 'invalid' && bad.issues[0]).toMatch(/^dnd: /)
    expect(readServerFrame({ action: 'dnd', dnd: true })).toEqual({ kind: 'message', message: { action: 'dnd', dnd: true } })
  })

  it('parses what the server sends and rejects the rest', () => {
    const pause = { id: 7, user: 3, started_by: 1, pending: false, description: 'Café' }
    expect(parseServerMessage({ action: 'startPause', pause })).toEqual({ action: 'startPause', pause })
    expect(parseServerMessage({ action: 'pause', pause: null })).toEqual({ action: 'pause', pause: null })
    expect(parseServerMessage({ action: 'stopPause', pause, stopped_by: 1 })).not.toBeNull()
    expect(parseServerMessage({ action: 'openUrl', url: 'not a url' })).toBeNull()
    expect(parseServerMessage({ action: 'openUrl', url: 'javascript:alert(1)' })).toBeNull()
    expect(parseServerMessage({ action: 'openUrl', url: 'https://intranet.example/a' })).not.toBeNull()
    const activity = {
      id: 4,
      user: 3,
      destination: '1001',
      client: null,
      mailing: null,
      mailing_client: null,
      campaign: null,
      dialer: null,
      count: 0,
      done: false,
      start: '2030-01-01T10:00:00.000Z',
      end: null,
      subject: '',
      type: 'call',
      target: '',
      active: true,
      automatic_execution: true,
      created_by: 1,
      created: '2030-01-01T09:00:00.000Z',
      updated: '2030-01-01T09:00:00.000Z',
    }
    expect(parseServerMessage({ action: 'activity', activities: [activity] })).toEqual({ action: 'activity', activities: [activity] })
    expect(parseServerMessage({ action: 'activity', activities: [{ id: 4 }] })).toBeNull()
    expect(parseServerMessage({ action: 'dial' })).toBeNull()
    expect(parseServerMessage('pong')).toBeNull()
  })
})

describe('agent API schemas', () => {
  it('reads ids from numbers and numeric strings only', () => {
    expect(v.parse(Id, '42')).toBe(42)
    expect(v.parse(Id, 42)).toBe(42)
    for (const bad of ['', ' ', '4x', -1, 0, 2 ** 31, '99999999999', null]) expect(v.safeParse(Id, bad).success, String(bad)).toBe(false)
  })

  it('trims reasons; a stop without a body is a stop without a reason', () => {
    expect(v.parse(PauseStopBody, undefined)).toEqual({})
    expect(v.parse(PauseStopBody, { reason: '  longa fila  ' })).toEqual({ reason: 'longa fila' })
    expect(v.parse(PauseStartBody, { pause_id: '3' })).toEqual({ pause_id: 3 })
    expect(v.safeParse(PauseStartBody, { reason: 'x' }).success).toBe(false)
  })
})
