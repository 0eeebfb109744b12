import { describe, expect, it } from 'vitest'
import { defineEntity, opt, t } from '../../../contract/entities/define.ts'
import { field } from '../../../contract/entities/fields.ts'
import { conditionHolds, entityByKey, formValuesFor, isDateFormat, isRequired, payloadFor } from '../../../contract/entities/index.ts'
import type { Field, Payload, Values } from '../../../contract/entities/index.ts'
import { errorsOf, parsed } from './helpers.ts'

// The form definition attributes (spec 001 §3) that reshape a value whatever the field: returnObject (the chosen
// option itself), returnToString (a list joined into one string), dateFormat (a date in a dayjs format); and the form
// builder's rows that store them.

const LABEL = t('Campo X', 'Field X', 'Campo X')
const UF = [opt('SP', 'São Paulo', 'São Paulo', 'São Paulo'), opt('RJ', 'Rio de Janeiro', 'Rio de Janeiro', 'Río de Janeiro')]
const LOOKUP = { path: '/api/v1/crm/tags/', value: 'id', label: 'description' }

const tiny = (...fields: Field[]) =>
  defineEntity({ area: 'crm', name: 'tags', model: 'tag', route: 'crm/tags', label: { singular: LABEL, plural: LABEL }, fields })

function json(payload: Payload): Values {
  if (!('json' in payload)) throw new Error('expected a JSON payload')
  return payload.json
}

describe('returnObject', () => {
  const single = tiny(field('uf', 'select', LABEL, { options: UF, returnObject: true }))
  const many = tiny(field('uf', 'select', LABEL, { options: UF, returnObject: true, multiple: true, max: 1 }))

  it('stores the chosen option as JSON', () => {
    expect(single.fields[0]!.storage).toBe('jsonb')
  })

  it('sends the chosen option itself, { value, text }', () => {
    const body = json(payloadFor(single, { uf: { value: 'SP', text: 'São Paulo' } }))
    expect(body).toEqual({ uf: { value: 'SP', text: 'São Paulo' } })
    expect(parsed(single, body)).toEqual({ uf: { value: 'SP', text: 'São Paulo' } })
  })

  it('refuses a bare value, and an option the field does not offer', () => {
    expect(errorsOf(single, { uf: 'SP' })).toEqual({ uf: ['Valor inválido'] })
    expect(errorsOf(single, { uf: { value: 'MG', text: 'Minas Gerais' } })).toEqual({ uf: ['Opção inválida'] })
  })

  it('holds a list of options with multiple, counted against max', () => {
    expect(parsed(many, { uf: [{ value: 'RJ', text: 'Rio de Janeiro' }] })).toEqual({ uf: [{ value: 'RJ', text: 'Rio de Janeiro' }] })
    expect(
      errorsOf(many, {
        uf: [
          { value: 'RJ', text: 'Rio' },
          { value: 'SP', text: 'SP' },
        ],
      }),
    ).toEqual({ uf: ['Escolha no máximo 1'] })
  })

  it('checks a lookup option as a row id', () => {
    const api = tiny(field('tag', 'api', LABEL, { lookup: LOOKUP, returnObject: true }))
    expect(parsed(api, { tag: { value: 3, text: 'Suporte' } })).toEqual({ tag: { value: 3, text: 'Suporte' } })
    expect(errorsOf(api, { tag: { value: 'x', text: 'X' } })).toEqual({ tag: ['Registro inválido'] })
  })

  it('is required like any value, and conditions read its value', () => {
    const withCondition = tiny(
      field('uf', 'select', LABEL, { options: UF, returnObject: true, required: true }),
      field('city', 'text', t('Cidade', 'City', 'Ciudad'), { visibleWhen: { field: 'uf', oneOf: ['SP'] } }),
    )
    expect(errorsOf(withCondition, { uf: '' })).toEqual({ uf: ['Este campo é obrigatório'] })
    expect(conditionHolds(withCondition.fields[1]!.visibleWhen, { uf: { value: 'SP', text: 'São Paulo' } })).toBe(true)
  })
})

describe('returnToString', () => {
  const comma = tiny(field('uf', 'select', LABEL, { options: UF, multiple: true, returnToString: true, max: 2 }))
  const semicolon = tiny(field('uf', 'select', LABEL, { options: UF, multiple: true, returnToString: true, delimiters: [';'] }))

  it('stores the joined items as text', () => {
    expect(comma.fields[0]!.storage).toBe('text')
  })

  it("sends the items as one string joined on ',' by default, or on the field's delimiter", () => {
    expect(json(payloadFor(comma, { uf: ['SP', 'RJ'] }))).toEqual({ uf: 'SP,RJ' })
    expect(json(payloadFor(semicolon, { uf: ['SP', 'RJ'] }))).toEqual({ uf: 'SP;RJ' })
    expect(parsed(comma, { uf: 'SP,RJ' })).toEqual({ uf: 'SP,RJ' })
  })

  it('joins the values of chosen options when returnObject is set too', () => {
    const both = tiny(field('uf', 'select', LABEL, { options: UF, multiple: true, returnToString: true, returnObject: true }))
    const body = json(
      payloadFor(both, {
        uf: [
          { value: 'SP', text: 'São Paulo' },
          { value: 'RJ', text: 'Rio de Janeiro' },
        ],
      }),
    )
    expect(body).toEqual({ uf: 'SP,RJ' })
    expect(parsed(both, body)).toEqual({ uf: 'SP,RJ' })
  })

  it('splits the string back into items for the form', () => {
    expect(formValuesFor(comma, { uf: 'SP, RJ' })).toEqual({ uf: ['SP', 'RJ'] })
    expect(formValuesFor(semicolon, { uf: 'SP;RJ' })).toEqual({ uf: ['SP', 'RJ'] })
  })

  it('checks options and the item count on the items, not on the text', () => {
    expect(errorsOf(comma, { uf: 'SP,MG' })).toEqual({ uf: ['Opção inválida'] })
    expect(errorsOf(comma, { uf: ['SP', 'RJ', 'SP'] })).toEqual({ uf: ['Escolha no máximo 2'] })
  })

  it('leaves a multiple field without it as a list', () => {
    const list = tiny(field('uf', 'select', LABEL, { options: UF, multiple: true }))
    expect(json(payloadFor(list, { uf: ['SP', 'RJ'] }))).toEqual({ uf: ['SP', 'RJ'] })
  })
})

describe('dateFormat', () => {
  const entity = tiny(field('when', 'datetimepicker', LABEL, { dateFormat: 'DD/MM/YYYY HH:mm', required: true }))

  it('stores the formatted text', () => {
    expect(entity.fields[0]!.storage).toBe('text')
  })

  it('accepts a date written in the format and refuses others, with the date message', () => {
    expect(parsed(entity, { when: '25/12/2026 14:30' })).toEqual({ when: '25/12/2026 14:30' })
    expect(errorsOf(entity, { when: '2026-12-25T14:30:00-03:00' })).toEqual({ when: ['Data inválida ou não preenchida'] })
    expect(errorsOf(entity, { when: '31/02/2026 14:30' })).toEqual({ when: ['Data inválida ou não preenchida'] })
    expect(errorsOf(entity, {}, 'create', 'en-US')).toEqual({ when: ['Invalid or missing date'] })
  })

  it('keeps ISO 8601 without a format', () => {
    const iso = tiny(field('when', 'datetimepicker', LABEL))
    expect(iso.fields[0]!.storage).toBe('timestamptz')
    expect(errorsOf(iso, { when: '25/12/2026 14:30' })).toEqual({ when: ['Data inválida ou não preenchida'] })
  })

  it('accepts dayjs formats of numeric tokens only', () => {
    for (const format of ['DD/MM/YYYY', 'DD/MM/YYYY HH:mm:ss', 'YYYY-MM-DD[T]HH:mm', 'HH:mm', 'hh:mm A', 'DD.MM.YY'])
      expect(isDateFormat(format), format).toBe(true)
    for (const format of ['', 'foo', 'DD/MMM/YYYY', 'YYY-MM-DD', 'YYYY-MM-DDTHH:mm', 'dddd', '[dia]']) expect(isDateFormat(format), format).toBe(false)
  })
})

describe('the form builder rows (service.forms fields)', () => {
  const forms = entityByKey('service.forms')
  const row = (def: Values) => ({ description: 'Pós-venda', fields: [{ name: 'x', label: 'X', ...def }] })
  const attribute = (name: string) => forms.fields.find((f) => f.name === 'fields')!.fields!.find((f) => f.name === name)!

  it('hold every attribute of the spec', () => {
    const names = forms.fields.find((f) => f.name === 'fields')!.fields!.map((f) => f.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'type',
        'name',
        'label',
        'cols',
        'value',
        'min',
        'max',
        'multiple',
        'api',
        'required',
        'readonly',
        'options',
        'mask',
        'validation',
        'cryptography',
        'delimiters',
        'return_object',
        'return_to_string',
        'btn_phone',
        'btn_chat',
        'date_format',
      ]),
    )
    expect(attribute('type').options!.map((o) => o.value)).toEqual(
      expect.arrayContaining(['switch', 'text', 'textarea', 'number', 'select', 'combobox', 'autocomplete', 'datetimepicker', 'api', 'hidden', 'popup']),
    )
  })

  it('store the new attributes', () => {
    const body = row({ type: 'select', options: 'SP;RJ', multiple: true, return_object: true, return_to_string: true, delimiters: ';' })
    expect(parsed(forms, body).fields).toEqual([expect.objectContaining({ return_object: true, return_to_string: true, delimiters: ';' })])
    expect(parsed(forms, row({ type: 'datetimepicker', date_format: 'DD/MM/YYYY' })).fields).toEqual([expect.objectContaining({ date_format: 'DD/MM/YYYY' })])
  })

  it('refuse a date format dayjs cannot read back', () => {
    expect(errorsOf(forms, row({ type: 'datetimepicker', date_format: 'DD/MMM/YYYY' }))).toEqual({
      'fields.0.date_format': ['Formato de data inválido: use DD, MM, YYYY, HH, mm, ss e separadores, ex.: DD/MM/YYYY HH:mm'],
    })
  })

  it('need the API path of an api field and the options of a select', () => {
    expect(errorsOf(forms, row({ type: 'api' }))).toEqual({ 'fields.0.api': ['Este campo é obrigatório'] })
    expect(errorsOf(forms, row({ type: 'select' }))).toEqual({ 'fields.0.options': ['Este campo é obrigatório'] })
    expect(errorsOf(forms, row({ type: 'text' }))).toEqual({})
  })

  it('offer each attribute only for the types it applies to', () => {
    const shown = (name: string, type: string) => conditionHolds(attribute(name).visibleWhen, { type })
    expect(['select', 'autocomplete', 'api', 'text'].map((type) => shown('return_object', type))).toEqual([true, true, true, false])
    expect(['select', 'combobox', 'api', 'number'].map((type) => shown('return_to_string', type))).toEqual([true, true, true, false])
    expect(['datetimepicker', 'text'].map((type) => shown('date_format', type))).toEqual([true, false])
    expect(['text', 'number', 'switch'].map((type) => shown('btn_phone', type))).toEqual([true, true, false])
    expect(['text', 'switch'].map((type) => shown('cryptography', type))).toEqual([true, false])
    expect(isRequired(attribute('api'), { type: 'autocomplete' })).toBe(false)
  })
})
