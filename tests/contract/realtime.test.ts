import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import {
  CLIENT_MESSAGES,
  LATER_CLIENT_ACTIONS,
  SERVER_ACTIONS,
  SERVER_MESSAGES,
  isClientAction,
  parseServerMessage,
} from '../../contract/realtime/index.ts'
import { FORWARDED_ACTIONS } from '../../machines/serviceSocket.machine.ts'
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
  it('has a schema for every server action, and covers every action the service socket machine forwards that exists yet', () => {
    expect(Object.keys(SERVER_MESSAGES).sort()).toEqual([...SERVER_ACTIONS].sort())
    // startWebphone, startWebchat, clickToCall, dial, afterServiceTimeout, changeCallStep, changeDeviceState: later issues.
    const now = ['pause', 'startPause', 'stopPause', 'activity', 'startService', 'serviceElsewhere', 'dnd', 'updateUser', 'refresh', 'openUrl']
    for (const action of now) {
      expect(FORWARDED_ACTIONS as readonly string[]).toContain(action)
      expect(SERVER_ACTIONS as readonly string[]).toContain(action)
    }
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
      id: 4, user: 3, destination: '1001', client: null, mailing: null, mailing_client: null, campaign: null, dialer: null,
      count: 0, done: false, start: '2030-01-01T10:00:00.000Z', end: null, subject: '', type: 'call', target: '', active: true,
      automatic_execution: true, created_by: 1, created: '2030-01-01T09:00:00.000Z', updated: '2030-01-01T09:00:00.000Z',
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
