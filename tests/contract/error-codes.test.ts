import { describe, expect, it } from 'vitest'
import { SOFTPHONE_ERROR_CODES, SOFTPHONE_EXCEPTION_CODES, isSoftphoneErrorCode, softphoneErrorLabel } from '../../contract/codes/index.ts'
import { LOCALES } from '../../contract/locales.ts'

describe('softphone error codes', () => {
  it('names the two exception codes of the spec', () => {
    expect(Object.values(SOFTPHONE_EXCEPTION_CODES).sort()).toEqual(['id_not_found', 'session_not_found'])
  })

  it('names one internal error code per operation of the spec, all distinct', () => {
    const codes = Object.values(SOFTPHONE_ERROR_CODES)
    expect(codes).toHaveLength(18)
    expect(new Set(codes).size).toBe(codes.length)
    for (const code of ['plugin_start', 'dtmf', 'press_key', 'cancel_transfer', 'confirm_transfer', 'save_form']) {
      expect(codes).toContain(code)
    }
  })

  it.each(Object.values(SOFTPHONE_ERROR_CODES))('%s has an alert title in every language', (code) => {
    expect(isSoftphoneErrorCode(code)).toBe(true)
    for (const locale of LOCALES) {
      const label = softphoneErrorLabel(code, locale)
      expect(label.trim(), locale).not.toBe('')
      expect(label).not.toBe(code)
    }
  })

  it('shows an unknown code raw', () => {
    expect(isSoftphoneErrorCode('id_not_found')).toBe(false)
    expect(softphoneErrorLabel('boom')).toBe('boom')
    expect(softphoneErrorLabel('save_form', 'en-US')).toBe('Error saving the form')
  })
})
