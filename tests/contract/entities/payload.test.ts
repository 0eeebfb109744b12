import { describe, expect, it } from 'vitest'
import { defineEntity, t } from '../../../contract/entities/define.ts'
import { description, field } from '../../../contract/entities/fields.ts'
import { entityByKey, formValuesFor, payloadFor, splitItems } from '../../../contract/entities/index.ts'
import type { Payload } from '../../../contract/entities/index.ts'

const tags = entityByKey('crm.tags')
const blacklists = entityByKey('service.blacklists')
const organizations = entityByKey('crm.organizations')
const soundsEntries = entityByKey('pabx.sounds-entries')
const sites = entityByKey('business.sites')

const audio = () => new File(['RIFF'], 'bem-vindo.wav', { type: 'audio/wav' })

function json(payload: Payload): Record<string, unknown> {
  if (!('json' in payload)) throw new Error('expected a JSON payload')
  return payload.json
}

function multipart(payload: Payload) {
  if (!('multipart' in payload)) throw new Error('expected a multipart payload')
  return payload.multipart
}

describe('payload rules (spec 001 §5)', () => {
  it('sends JSON when no file is being uploaded', () => {
    expect(payloadFor(tags, { description: 'VIP', is_active: true, color: '#ff0000' })).toEqual({
      json: { description: 'VIP', is_active: true, color: '#ff0000' },
    })
  })

  it('sends multipart with the other values as JSON in `params` when a file is uploaded', () => {
    const file = audio()
    const parts = multipart(payloadFor(soundsEntries, { sound: 4, description: 'Bem-vindo', is_active: true, file }))
    expect(parts).toHaveLength(2)
    expect(parts[0]![0]).toBe('params')
    expect(JSON.parse(parts[0]![1] as string)).toEqual({ sound: 4, description: 'Bem-vindo', is_active: true })
    expect(parts[1]).toEqual(['file', file])
  })

  it('sends one part per uploaded file', () => {
    const login = new File(['png'], 'login.png', { type: 'image/png' })
    const footer = new File(['png'], 'footer.png', { type: 'image/png' })
    const parts = multipart(payloadFor(sites, { description: 'Matriz', domain: 'atende.example', logo_login: login, logo_footer: footer }))
    expect(parts.map(([name]) => name)).toEqual(['params', 'logo_login', 'logo_footer'])
  })

  it('omits an unchanged existing file', () => {
    const original = { id: 3, sound: 4, description: 'Bem-vindo', file: '/media/sounds/3.wav' }
    expect(payloadFor(soundsEntries, { ...original, description: 'Boas-vindas' }, original)).toEqual({ json: { sound: 4, description: 'Boas-vindas' } })
  })

  it('removes the current file with null, and only when there is one', () => {
    const original = { sound: 4, description: 'Bem-vindo', file: '/media/sounds/3.wav' }
    expect(json(payloadFor(soundsEntries, { ...original, file: null }, original))).toEqual({ sound: 4, description: 'Bem-vindo', file: null })
    expect(json(payloadFor(soundsEntries, { sound: 4, description: 'Bem-vindo', file: null }, { file: null }))).not.toHaveProperty('file')
  })

  it('joins a combobox on its first delimiter', () => {
    expect(json(payloadFor(blacklists, { description: 'Trote', phones: ['5511999998888', '551133334444'] })).phones).toBe('5511999998888,551133334444')
    expect(json(payloadFor(organizations, { description: 'ACME', phones: ['1133334444', ' 11999998888 ', ''] })).phones).toBe('1133334444;11999998888')
  })

  it('joins on ; when the combobox names no delimiter', () => {
    const entity = defineEntity({
      area: 'crm',
      name: 'tags',
      model: 'tag',
      route: 'crm/tags',
      label: { singular: t('a', 'a', 'a'), plural: t('b', 'b', 'b') },
      fields: [description(), field('aliases', 'combobox', t('Apelidos', 'Aliases', 'Alias'), { delimiters: [] })],
    })
    expect(json(payloadFor(entity, { description: 'x', aliases: ['a', 'b'] })).aliases).toBe('a;b')
    expect(formValuesFor(entity, { description: 'x', aliases: 'a;b' }).aliases).toEqual(['a', 'b'])
  })

  it('splits a stored combobox back into items for the form', () => {
    expect(formValuesFor(blacklists, { description: 'Trote', phones: '5511999998888, 551133334444' }).phones).toEqual(['5511999998888', '551133334444'])
    expect(splitItems('a;;b ; c')).toEqual(['a', 'b', 'c'])
  })

  it('drops empty strings', () => {
    expect(json(payloadFor(tags, { description: 'VIP', color: '' }))).toEqual({ description: 'VIP' })
  })

  it('drops empty lists', () => {
    const pauses = entityByKey('service.pauses')
    expect(json(payloadFor(pauses, { description: 'Almoço', teams: [] }))).toEqual({ description: 'Almoço' })
    expect(json(payloadFor(blacklists, { description: 'Trote', phones: [] }))).toEqual({ description: 'Trote' })
  })

  it('keeps false, zero and null, which are values', () => {
    const pauses = entityByKey('service.pauses')
    expect(json(payloadFor(pauses, { description: 'Almoço', lock_screen: false, maximum_duration: 0, color: null }))).toEqual({
      description: 'Almoço',
      lock_screen: false,
      maximum_duration: 0,
      color: null,
    })
  })

  it('turns numbers typed as text into numbers', () => {
    const pauses = entityByKey('service.pauses')
    expect(json(payloadFor(pauses, { description: 'Almoço', maximum_duration: '3600' })).maximum_duration).toBe(3600)
    expect(json(payloadFor(pauses, { description: 'Almoço', maximum_duration: 'uma hora' })).maximum_duration).toBe('uma hora')
  })

  it('turns the id of a destination into an integer and clears appdata of apps without one', () => {
    const inbound = entityByKey('pabx.inbound-routes')
    expect(json(payloadFor(inbound, { description: 'R', destination: { app: 'queue', appdata: '7' } })).destination).toEqual({ app: 'queue', appdata: 7 })
    expect(json(payloadFor(inbound, { description: 'R', destination: { app: 'hangup', appdata: '7' } })).destination).toEqual({ app: 'hangup', appdata: '' })
    expect(json(payloadFor(inbound, { description: 'R', destination: { app: '', appdata: '' } }))).not.toHaveProperty('destination')
  })

  it('applies the rules inside datatable rows', () => {
    const forms = entityByKey('service.forms')
    const body = json(
      payloadFor(forms, { description: 'Venda', fields: [{ name: 'plano', label: 'Plano', type: 'select', options: ['Básico', 'Pro'], mask: '', min: '1' }] }),
    )
    expect(body.fields).toEqual([{ name: 'plano', label: 'Plano', type: 'select', options: 'Básico;Pro', min: 1 }])
  })

  it('sends only the entity’s own value fields', () => {
    const teams = entityByKey('service.teams')
    expect(json(payloadFor(teams, { id: 3, name: 'N1', permissions: [{ id: 1 }], site: 2 }))).toEqual({ name: 'N1' })
  })

  it('does not change the values it is given', () => {
    const values = { description: 'Trote', phones: ['5511999998888'] }
    payloadFor(blacklists, values)
    expect(values.phones).toEqual(['5511999998888'])
  })
})

describe('form values', () => {
  it('start from the defaults for a new row', () => {
    expect(formValuesFor(entityByKey('service.pauses'))).toMatchObject({ is_active: true, maximum_duration: 0, enable_webphone: true, lock_screen: false })
  })

  it('copy default lists so forms do not share them', () => {
    const devices = entityByKey('pabx.devices')
    const first = formValuesFor(devices)
    ;(first.codecs as string[]).push('G729')
    expect(formValuesFor(devices).codecs).toEqual(['PCMU', 'PCMA'])
  })
})
