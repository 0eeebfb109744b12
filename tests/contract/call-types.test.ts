import { describe, expect, it } from 'vitest'
import {
  CALL_TYPE,
  CALL_TYPE_GROUPS,
  CALL_TYPES,
  CHAT_OUTGOING_TYPES,
  callTypeGroup,
  callTypeLabel,
  callTypeMatchesKinds,
  isOutgoingChatType,
  outgoingCallType,
} from '../../contract/codes/index.ts'
import { LOCALES } from '../../contract/locales.ts'

describe('call types', () => {
  it('knows the call types of the spec', () => {
    expect([...CALL_TYPES]).toEqual([10, 11, 12, 14, 18, 19, 20, 21, 30, 31])
  })

  it.each([10, 11, 12, 14, 18, 19, 20, 21, 30, 31])('labels %i in every language', (code) => {
    for (const locale of LOCALES) {
      const label = callTypeLabel(code, locale)
      expect(label.trim(), `${code} ${locale}`).not.toBe('')
      expect(label).not.toBe(String(code))
    }
  })

  it('labels by meaning', () => {
    expect(callTypeLabel(20, 'pt-BR')).toBe('Receptiva')
    expect(callTypeLabel(21, 'en-US')).toBe('Inbound DDR')
    expect(callTypeLabel(31, 'es-ES')).toBe('Interna saliente')
    expect(callTypeLabel(12, 'en-US')).toBe('Dialer')
    expect(callTypeLabel(14, 'en-US')).toBe('Dialer')
  })

  it('shows unknown types raw and absent ones empty', () => {
    expect(callTypeLabel(13)).toBe('13')
    expect(callTypeLabel('x')).toBe('x')
    expect(callTypeLabel(null)).toBe('')
    expect(callTypeLabel('20', 'en-US')).toBe('Inbound')
  })

  it('groups outgoing 10-19, incoming 20-21, internal 30-31', () => {
    for (const code of [10, 11, 12, 14, 18, 19, 13]) expect(callTypeGroup(code), String(code)).toBe('outgoing')
    for (const code of [20, 21]) expect(callTypeGroup(code)).toBe('incoming')
    for (const code of [30, 31]) expect(callTypeGroup(code)).toBe('internal')
    expect(callTypeGroup('21')).toBe('incoming')
  })

  it('puts codes outside the ranges in no group', () => {
    for (const code of [0, 9, 22, 29, 32, 100, -10, 10.5, Number.NaN]) expect(callTypeGroup(code), String(code)).toBeUndefined()
    expect(callTypeGroup(null)).toBeUndefined()
    expect(callTypeGroup('ten')).toBeUndefined()
  })

  it('labels every group in every language', () => {
    for (const group of Object.values(CALL_TYPE_GROUPS)) {
      for (const locale of LOCALES) expect(group.label[locale].trim()).not.toBe('')
    }
  })
})

describe('classification kinds', () => {
  it('matches a call type against group ranges', () => {
    expect(callTypeMatchesKinds(12, ['10-19'])).toBe(true)
    expect(callTypeMatchesKinds(20, ['10-19'])).toBe(false)
    expect(callTypeMatchesKinds(21, ['10-19', '20-21'])).toBe(true)
    expect(callTypeMatchesKinds(31, ['30-31'])).toBe(true)
  })

  it('matches a call type listed directly', () => {
    expect(callTypeMatchesKinds(18, ['18'])).toBe(true)
    expect(callTypeMatchesKinds(18, [18])).toBe(true)
    expect(callTypeMatchesKinds(19, ['18'])).toBe(false)
  })

  it('matches nothing without kinds or a call type', () => {
    expect(callTypeMatchesKinds(10, [])).toBe(false)
    expect(callTypeMatchesKinds(10, null)).toBe(false)
    expect(callTypeMatchesKinds(null, ['10-19'])).toBe(false)
  })
})

describe('outgoing call type', () => {
  it('dials 5-digit internal extensions as internal outbound (31)', () => {
    expect(outgoingCallType('10000')).toBe(31)
    expect(outgoingCallType('99999')).toBe(31)
    expect(outgoingCallType('54321')).toBe(31)
    expect(outgoingCallType(10000)).toBe(31)
    expect(outgoingCallType(' 12345 ')).toBe(31)
  })

  it('dials anything else as active manual (10)', () => {
    expect(outgoingCallType('9999')).toBe(10)
    expect(outgoingCallType('100000')).toBe(10)
    expect(outgoingCallType(9999)).toBe(10)
    expect(outgoingCallType(100000)).toBe(10)
    expect(outgoingCallType('01234')).toBe(10)
    expect(outgoingCallType('1000a')).toBe(10)
    expect(outgoingCallType('10 000')).toBe(10)
    expect(outgoingCallType('+5511999998888')).toBe(10)
    expect(outgoingCallType('*1000')).toBe(10)
    expect(outgoingCallType('')).toBe(10)
    expect(outgoingCallType(null)).toBe(10)
    expect(outgoingCallType(10000.5)).toBe(10)
  })

  it('returns the named call types', () => {
    expect(outgoingCallType('10000')).toBe(CALL_TYPE.internalOutbound)
    expect(outgoingCallType('11999998888')).toBe(CALL_TYPE.activeManual)
  })
})

describe('outgoing chat types', () => {
  it('are 10, 11 and 31', () => {
    expect([...CHAT_OUTGOING_TYPES]).toEqual([10, 11, 31])
    for (const code of [10, 11, 31, '31']) expect(isOutgoingChatType(code), String(code)).toBe(true)
    for (const code of [12, 19, 20, 21, 30, null]) expect(isOutgoingChatType(code), String(code)).toBe(false)
  })
})
