import { describe, expect, it } from 'vitest'
import {
  invalidDialPatterns,
  invalidPhones,
  isCnpj,
  isColor,
  isCompletePhone,
  isCpf,
  isEmail,
  isExtension,
  isHost,
  isPhone,
  isUrl,
} from '../../../contract/entities/index.ts'

describe('CPF check digits', () => {
  it.each(['529.982.247-25', '52998224725', '111.444.777-35', '390.533.447-05'])('accepts %s', (cpf) => {
    expect(isCpf(cpf)).toBe(true)
  })

  it.each([
    ['a wrong first check digit', '529.982.247-35'],
    ['a wrong second check digit', '529.982.247-24'],
    ['repeated digits', '111.111.111-11'],
    ['too few digits', '529.982.247-2'],
    ['letters', '529.982.24A-25'],
    ['nothing', ''],
  ])('refuses %s', (_why, cpf) => {
    expect(isCpf(cpf)).toBe(false)
  })
})

describe('CNPJ check digits', () => {
  it.each(['11.222.333/0001-81', '11222333000181', '45.723.174/0001-10'])('accepts the numeric %s', (cnpj) => {
    expect(isCnpj(cnpj)).toBe(true)
  })

  it('accepts the alphanumeric CNPJ (letters count as their code minus 48)', () => {
    expect(isCnpj('12.ABC.345/01DE-35')).toBe(true)
    expect(isCnpj('12abc34501de35')).toBe(true)
  })

  it.each([
    ['a wrong first check digit', '11.222.333/0001-91'],
    ['a wrong second check digit', '11.222.333/0001-80'],
    ['a wrong alphanumeric check digit', '12.ABC.345/01DE-36'],
    ['letters in the check digits', '12.ABC.345/01DE-3A'],
    ['repeated digits', '00.000.000/0000-00'],
    ['a CPF', '529.982.247-25'],
    ['too many characters', '11.222.333/0001-811'],
  ])('refuses %s', (_why, cnpj) => {
    expect(isCnpj(cnpj)).toBe(false)
  })
})

describe('phones', () => {
  it('accepts what people type, with separators', () => {
    expect(isPhone('(11) 99999-8888')).toBe(true)
    expect(isPhone('+55 11 3333-4444')).toBe(true)
    expect(isPhone('3333-4444')).toBe(true)
  })

  it('refuses letters and numbers too short or too long', () => {
    expect(isPhone('9999-888')).toBe(false)
    expect(isPhone('0800 ABC')).toBe(false)
    expect(isPhone('1234567890123456')).toBe(false)
  })
})

describe('complete phones (blocklists)', () => {
  it.each([
    ['a Brazilian mobile', '5511999998888'],
    ['a Brazilian landline', '551133334444'],
    ['a formatted Brazilian number with +', '+55 (11) 99999-8888'],
    ['a North American number', '12125550123'],
    ['another country', '442079460958'],
  ])('accepts %s', (_what, phone) => {
    expect(isCompletePhone(phone)).toBe(true)
  })

  it.each([
    ['a number without the country code', '11999998888'],
    ['a number without the area code', '55999998888'],
    ['a local number', '999998888'],
    ['a Brazilian mobile missing a digit', '551199999888'],
    ['an area code with a zero', '551099998888'],
    ['a 9-digit subscriber not starting with 9', '5511899998888'],
    ['a North American area code starting with 1', '11125550123'],
    ['a leading zero', '005511999998888'],
    ['letters', '55119999A8888'],
  ])('refuses %s', (_what, phone) => {
    expect(isCompletePhone(phone)).toBe(false)
  })

  it('lists the incomplete entries of a comma-separated list', () => {
    expect(invalidPhones('5511999998888,551133334444')).toEqual([])
    expect(invalidPhones('5511999998888, 551133334444')).toEqual([])
    expect(invalidPhones('5511999998888,11999998888,551133334444')).toEqual(['11999998888'])
  })

  it('refuses other separators and empty entries', () => {
    expect(invalidPhones('5511999998888;551133334444')).toEqual(['5511999998888;551133334444'])
    expect(invalidPhones('5511999998888,')).toEqual([''])
  })
})

describe('other checks', () => {
  it('e-mail', () => {
    expect(isEmail('ana@example.com.br')).toBe(true)
    expect(isEmail('ana@example')).toBe(false)
    expect(isEmail('ana example.com')).toBe(false)
  })

  it('internal extensions are 5 digits from 10000 to 99999', () => {
    expect(isExtension('10000')).toBe(true)
    expect(isExtension('99999')).toBe(true)
    expect(isExtension('01234')).toBe(false)
    expect(isExtension('1000')).toBe(false)
    expect(isExtension('100000')).toBe(false)
  })

  it('hosts are names or IP addresses', () => {
    for (const host of ['sip.example.com', 'localhost', '10.0.0.1', '[2001:db8::1]', '2001:db8::1']) expect(isHost(host), host).toBe(true)
    for (const host of ['999.1.1.1', 'sip_example.com', '-sip.example.com', 'sip.example.com:5060', '']) expect(isHost(host), host).toBe(false)
  })

  it('URLs use http or https', () => {
    expect(isUrl('https://graph.facebook.com')).toBe(true)
    expect(isUrl('http://127.0.0.1:8080/path')).toBe(true)
    expect(isUrl('ftp://example.com')).toBe(false)
    expect(isUrl('example.com')).toBe(false)
  })

  it('colours are #RRGGBB', () => {
    expect(isColor('#1976d2')).toBe(true)
    expect(isColor('#fff')).toBe(false)
    expect(isColor('1976d2')).toBe(false)
  })

  it('dial patterns use digits, X, Z, N, ranges and a final . or !', () => {
    expect(invalidDialPatterns('0XXXXXXXXXX, 00XX., [2-5]XXXXXXX, +55ZZ9XXXXXXXX, 1[0-9]!')).toEqual([])
    expect(invalidDialPatterns('0XX.X, ABC, [2-]X, ')).toEqual(['0XX.X', 'ABC', '[2-]X', ''])
  })
})
