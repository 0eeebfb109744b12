import { describe, expect, it } from 'vitest'
import { isCnpj, isCpf, isCpfOrCnpj } from '../../../contract/entities/validators.ts'
import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { BRAZIL_PLAIN, canonicalPhone, e164 } from '../../../contract/phone.ts'
import { normaliseDocuments, normalisePhones, phoneKey } from '../../../server/crm/keys.ts'

describe('CPF and CNPJ check digits', () => {
  it('accepts documents whose check digits match, with or without punctuation', () => {
    expect(isCpf('529.982.247-25')).toBe(true)
    expect(isCpf('52998224725')).toBe(true)
    expect(isCnpj('11.222.333/0001-81')).toBe(true)
    expect(isCnpj('11222333000181')).toBe(true)
    expect(isCpfOrCnpj('529.982.247-25')).toBe(true)
    expect(isCpfOrCnpj('11.222.333/0001-81')).toBe(true)
  })

  it('refuses a wrong check digit, repeated digits and wrong lengths', () => {
    expect(isCpf('529.982.247-24')).toBe(false)
    expect(isCpf('529.982.247-15')).toBe(false)
    expect(isCpf('111.111.111-11')).toBe(false)
    expect(isCpf('5299822472')).toBe(false)
    expect(isCnpj('11.222.333/0001-82')).toBe(false)
    expect(isCnpj('11.222.333/0001-71')).toBe(false)
    expect(isCnpj('00.000.000/0000-00')).toBe(false)
    expect(isCpfOrCnpj('123')).toBe(false)
  })

  it('stores documents as bare digits, each once', () => {
    expect(normaliseDocuments('529.982.247-25; 11.222.333/0001-81;52998224725')).toBe('52998224725;11222333000181')
  })
})

describe('the one phone normaliser (E.164, Brazil’s ninth digit folded)', () => {
  const BR_MOBILE = '+5511987654321'

  it('reads a Brazilian mobile the same with or without +55, the ninth digit, spaces and punctuation', () => {
    for (const typed of ['(11) 98765-4321', '11 98765 4321', '11987654321', '+55 11 98765-4321', '5511987654321', '0055 11 98765-4321', '11 8765-4321', '+55 11 8765-4321', '551187654321'])
      expect(e164(typed), typed).toBe(BR_MOBILE)
  })

  it('reads the Brazilian numbers it takes without libphonenumber exactly as libphonenumber does, for every DDD', () => {
    // The fast path of the leads import (issue 17): mobiles with their nine and landlines 2–5 are given back as they are.
    for (let ddd = 11; ddd <= 99; ddd++) {
      if (ddd % 10 === 0) continue
      for (const rest of ['987654321', '900000000', '999999999', '23456789', '30001000', '59999999']) {
        const digits = `55${ddd}${rest}`
        expect(BRAZIL_PLAIN.test(digits)).toBe(true)
        expect(parsePhoneNumberFromString(`+${digits}`)?.number).toBe(`+${digits}`)
        expect(e164(`+${digits}`)).toBe(`+${digits}`)
        expect(e164(`(${ddd}) ${rest}`)).toBe(`+${digits}`)
      }
    }
  })

  it('keeps a Brazilian landline at 8 digits, with or without +55 and the long-distance 0', () => {
    for (const typed of ['(11) 3322-1100', '11 33221100', '+55 11 3322-1100', '011 3322-1100', '551133221100']) expect(e164(typed), typed).toBe('+551133221100')
  })

  it('reads Argentina and the United States by their country code, or nationally with their default country', () => {
    expect(e164('+54 9 11 2345-6789')).toBe('+5491123456789')
    expect(e164('011 15 2345-6789', { defaultCountry: 'AR' })).toBe('+5491123456789')
    expect(e164('+1 (650) 555-1234')).toBe('+16505551234')
    expect(e164('(650) 555-1234', { defaultCountry: 'US' })).toBe('+16505551234')
  })

  it('reads bare digits as international without a default country (chat wa_ids), as chat did', () => {
    expect(canonicalPhone('554899887766')).toBe('5548999887766')
    expect(canonicalPhone('16505551234')).toBe('16505551234')
    expect(canonicalPhone('')).toBe('')
  })

  it('stores a client’s phones in E.164, each once, and keeps what is not a number for validation to answer', () => {
    expect(normalisePhones('(11) 98765-4321; +55 11 8765-4321; 11 3322-1100')).toBe('+5511987654321;+551133221100')
    expect(normalisePhones('abc')).toBe('abc')
    expect(phoneKey('5511987654321')).toBe(BR_MOBILE)
    expect(phoneKey('12')).toBe('')
  })
})
