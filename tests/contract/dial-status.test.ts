import { describe, expect, it } from 'vitest'
import { DIAL_STATUS_CODES, DIAL_STATUS_LABELS, dialStatusLabel } from '../../contract/codes/index.ts'
import { LOCALES } from '../../contract/locales.ts'

// Spec 000 §4, copied code by code.
const SPEC_CODES = [
  100, 180, 183, 200, 380, 400, 401, 402, 403, 404, 405, 406, 407, 408, 480, 481, 482, 483, 484, 486, 487, 488, 500, 502, 503, 504, 510, 511, 531, 550, 551,
  552, 559, 600, 603, 606, 608, 609,
]

describe('dial status codes', () => {
  it('knows exactly the codes of the spec', () => {
    expect([...DIAL_STATUS_CODES]).toEqual(SPEC_CODES)
  })

  it.each(SPEC_CODES)('labels %i in every language', (code) => {
    for (const locale of LOCALES) {
      const label = dialStatusLabel(code, locale)
      expect(label.trim(), `${code} ${locale}`).not.toBe('')
      expect(label).not.toBe(String(code))
    }
  })

  it('uses the spec meanings in pt-BR', () => {
    expect(dialStatusLabel(200, 'pt-BR')).toBe('Atendida')
    expect(dialStatusLabel(486, 'pt-BR')).toBe('Destino ocupado')
    expect(dialStatusLabel(404, 'pt-BR')).toBe('Número inexistente')
    expect(dialStatusLabel(552, 'pt-BR')).toBe('Caixa postal')
  })

  it('translates the label to the chosen language', () => {
    expect(dialStatusLabel(486, 'en-US')).toBe('Destination busy')
    expect(dialStatusLabel(486, 'es-ES')).toBe('Destino ocupado')
    expect(dialStatusLabel(200, 'es-ES')).toBe('Contestada')
    expect(dialStatusLabel(603, 'en-US')).toBe('Rejected')
  })

  it('gives codes with one meaning the same label', () => {
    expect(dialStatusLabel(180)).toBe(dialStatusLabel(183))
    for (const code of [406, 488]) expect(dialStatusLabel(code)).toBe(dialStatusLabel(405))
    for (const code of [603, 606, 608]) expect(dialStatusLabel(code)).toBe(dialStatusLabel(502))
  })

  it('defaults to pt-BR and accepts lower-case or bare language tags', () => {
    expect(dialStatusLabel(480)).toBe('Não atendida')
    expect(dialStatusLabel(480, 'en-us')).toBe('Not answered')
    expect(dialStatusLabel(480, 'es')).toBe('No contestada')
    expect(dialStatusLabel(480, 'fr-FR')).toBe('Não atendida')
  })

  it('reads codes sent as strings', () => {
    expect(dialStatusLabel('200', 'en-US')).toBe('Answered')
    expect(dialStatusLabel(' 487 ', 'en-US')).toBe('Cancelled or timed out')
  })

  it('shows unknown codes raw', () => {
    expect(dialStatusLabel(999)).toBe('999')
    expect(dialStatusLabel(181, 'en-US')).toBe('181')
    expect(dialStatusLabel('ABC')).toBe('ABC')
    expect(dialStatusLabel(200.5)).toBe('200.5')
  })

  it('shows nothing for an absent code', () => {
    expect(dialStatusLabel(null)).toBe('')
    expect(dialStatusLabel(undefined)).toBe('')
  })

  it('has no code whose label is missing a language', () => {
    for (const texts of Object.values(DIAL_STATUS_LABELS)) expect(Object.keys(texts).sort()).toEqual([...LOCALES].sort())
  })
})
