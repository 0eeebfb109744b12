import { describe, expect, it } from 'vitest'
import {
  ENDPOINT_STATUS_COLORS,
  ENDPOINT_STATUS_LABELS,
  ENDPOINT_STATUSES,
  REGISTRATION_STATE_COLORS,
  REGISTRATION_STATE_LABELS,
  REGISTRATION_STATES,
  endpointStatusColor,
  endpointStatusLabel,
  isRegistrationDown,
  registrationStateLabel,
} from '../../contract/codes/index.ts'
import { LOCALES } from '../../contract/locales.ts'

const JOY_COLORS = ['primary', 'neutral', 'success', 'warning', 'danger']

describe('registration states', () => {
  it('are the five of the spec', () => {
    expect([...REGISTRATION_STATES].sort()).toEqual(['connected', 'disconnected', 'registered', 'registrationFailed', 'unregistered'])
  })

  it.each([...REGISTRATION_STATES])('%s has a label in every language and a Joy colour', (state) => {
    for (const locale of LOCALES) expect(registrationStateLabel(state, locale).trim(), locale).not.toBe('')
    expect(Object.keys(REGISTRATION_STATE_LABELS[state]).sort()).toEqual([...LOCALES].sort())
    expect(JOY_COLORS).toContain(REGISTRATION_STATE_COLORS[state])
  })

  it('marks failed, unregistered and disconnected as down', () => {
    expect(REGISTRATION_STATES.filter(isRegistrationDown).sort()).toEqual(['disconnected', 'registrationFailed', 'unregistered'])
    expect(isRegistrationDown(undefined)).toBe(false)
  })

  it('labels nothing for other values', () => {
    expect(registrationStateLabel('registering')).toBe('')
    expect(registrationStateLabel(null)).toBe('')
  })
})

describe('endpoint statuses', () => {
  it('are the seventeen of the spec', () => {
    expect([...ENDPOINT_STATUSES]).toEqual([
      'unknown',
      'not_inuse',
      'inuse',
      'busy',
      'invalid',
      'unavailable',
      'ringing',
      'ringinuse',
      'onhold',
      'onmute',
      'inconference',
      'after_service',
      'click_to_call',
      'in_activity',
      'paused',
      'blocked',
      'do_not_disturb',
    ])
  })

  it.each([...ENDPOINT_STATUSES])('%s has a label in every language and a Joy colour', (status) => {
    for (const locale of LOCALES) {
      const label = endpointStatusLabel(status, locale)
      expect(label.trim(), locale).not.toBe('')
      expect(label).not.toBe(status)
    }
    expect(Object.keys(ENDPOINT_STATUS_LABELS[status]).sort()).toEqual([...LOCALES].sort())
    expect(JOY_COLORS).toContain(endpointStatusColor(status))
  })

  it("shows not_inuse as 'Disponível', green", () => {
    expect(endpointStatusLabel('not_inuse')).toBe('Disponível')
    expect(endpointStatusLabel('not_inuse', 'en-US')).toBe('Available')
    expect(endpointStatusLabel('not_inuse', 'es-ES')).toBe('Disponible')
    expect(endpointStatusColor('not_inuse')).toBe('success')
  })

  it('keeps green for the one status that takes work', () => {
    const green = ENDPOINT_STATUSES.filter((status) => ENDPOINT_STATUS_COLORS[status] === 'success')
    expect(green).toEqual(['not_inuse'])
  })

  it('colours after-service amber and unreachable agents red', () => {
    expect(endpointStatusColor('after_service')).toBe('warning')
    expect(endpointStatusColor('paused')).toBe('warning')
    expect(endpointStatusColor('busy')).toBe('danger')
    expect(endpointStatusColor('do_not_disturb')).toBe('danger')
  })

  it('does not show other call status values', () => {
    expect(endpointStatusLabel('terminated')).toBe('')
    expect(endpointStatusLabel('NOT_INUSE')).toBe('')
    expect(endpointStatusLabel(undefined)).toBe('')
    expect(endpointStatusColor('terminated')).toBe('neutral')
  })
})
