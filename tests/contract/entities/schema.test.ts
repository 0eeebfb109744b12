import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ENTITY_MESSAGES, entityByKey, entityMessage, isRequired, valibotSchema } from '../../../contract/entities/index.ts'
import { LOCALES } from '../../../contract/locales.ts'
import { errorsOf, parsed } from './helpers.ts'

const tags = entityByKey('crm.tags')
const users = entityByKey('business.users')
const chatQueues = entityByKey('chat.queues')
const blacklists = entityByKey('service.blacklists')

describe('messages', () => {
  it('exist in every language with the same placeholders', () => {
    for (const [key, texts] of Object.entries(ENTITY_MESSAGES)) {
      const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort()
      for (const locale of LOCALES) {
        expect(texts[locale].trim(), `${key} ${locale}`).not.toBe('')
        expect(placeholders(texts[locale]), `${key} ${locale}`).toEqual(placeholders(texts['pt-BR']))
      }
    }
  })

  it('fall back to pt-BR for an unknown language', () => {
    expect(entityMessage('invalidDate', 'fr-FR')).toBe('Data inválida ou não preenchida')
  })
})

describe('required fields', () => {
  it.each([
    ['pt-BR', 'Este campo é obrigatório'],
    ['en-US', 'This field is required'],
    ['es-ES', 'Este campo es obligatorio'],
  ])('answer in %s when missing, blank or null', (lang, text) => {
    expect(errorsOf(tags, {}, 'create', lang)).toEqual({ description: [text] })
    expect(errorsOf(tags, { description: '   ' }, 'create', lang)).toEqual({ description: [text] })
    expect(errorsOf(tags, { description: null }, 'create', lang)).toEqual({ description: [text] })
  })

  it('ask for a date with the date message', () => {
    const contracts = entityByKey('business.contracts')
    expect(errorsOf(contracts, { description: 'C', organization: 1 }).start_date).toEqual(['Data inválida ou não preenchida'])
    expect(errorsOf(contracts, { description: 'C', organization: 1 }, 'create', 'en-US').start_date).toEqual(['Invalid or missing date'])
  })

  it('ask for a destination when its app is blank', () => {
    const inbound = entityByKey('pabx.inbound-routes')
    expect(errorsOf(inbound, { description: 'R', destination: { app: '', appdata: '' } }).destination).toEqual(['Este campo é obrigatório'])
  })
})

describe('lengths', () => {
  it.each([
    ['pt-BR', 'Este campo é menor do que o permitido que é 8'],
    ['en-US', 'This field is shorter than the allowed minimum of 8'],
    ['es-ES', 'Este campo es más corto que el mínimo permitido de 8'],
  ])('below the minimum answer in %s', (lang, text) => {
    expect(errorsOf(users, { username: 'ana', password: 'short' }, 'create', lang).password).toEqual([text])
  })

  it.each([
    ['pt-BR', 'Este campo é maior do que o permitido que é 255'],
    ['en-US', 'This field is longer than the allowed maximum of 255'],
    ['es-ES', 'Este campo es más largo que el máximo permitido de 255'],
  ])('above the maximum answer in %s', (lang, text) => {
    expect(errorsOf(tags, { description: 'x'.repeat(256) }, 'create', lang).description).toEqual([text])
  })

  it('trim text before measuring it', () => {
    expect(parsed(tags, { description: '  VIP  ' }).description).toBe('VIP')
  })
})

describe('numbers', () => {
  const kpi = entityByKey('service.kpi')
  const base = { description: 'SLA', metric: 'occupancy', channel: 'telephony' }

  it('have a minimum of 0 unless the field says otherwise', () => {
    expect(errorsOf(kpi, { ...base, target: -1 }).target).toEqual(['Este valor é menor do que o mínimo permitido que é 0'])
    expect(errorsOf(kpi, { ...base, target: 0 })).toEqual({})
  })

  it('respect their maximum', () => {
    const ivrs = entityByKey('pabx.ivrs')
    expect(errorsOf(ivrs, { description: 'U', greeting: 1, repeat_count: 11 }, 'create', 'en-US').repeat_count).toEqual([
      'This value is above the allowed maximum of 10',
    ])
  })

  it('accept numbers typed as text, with a decimal comma', () => {
    expect(parsed(kpi, { ...base, target: '92,5' }).target).toBe(92.5)
  })

  it('refuse fractions in whole-number fields and text that is not a number', () => {
    const pauses = entityByKey('service.pauses')
    expect(errorsOf(pauses, { description: 'Almoço', maximum_duration: '90.5' }).maximum_duration).toEqual(['Informe um número inteiro'])
    expect(errorsOf(pauses, { description: 'Almoço', maximum_duration: 'uma hora' }).maximum_duration).toEqual(['Informe um número'])
  })
})

describe('dates and times', () => {
  const contracts = entityByKey('business.contracts')

  it('take ISO dates with seconds (the datetime-local step)', () => {
    expect(errorsOf(contracts, { description: 'C', organization: 1, start_date: '2025-04-22T22:50:13' })).toEqual({})
  })

  it('refuse impossible dates with the date message', () => {
    expect(errorsOf(contracts, { description: 'C', organization: 1, start_date: '2025-02-30T10:00:00' }).start_date).toEqual([
      'Data inválida ou não preenchida',
    ])
    expect(errorsOf(contracts, { description: 'C', organization: 1, start_date: '22/04/2025' }).start_date).toEqual(['Data inválida ou não preenchida'])
  })

  it('refuse hours past 23:59', () => {
    const calendars = entityByKey('service.calendars')
    const errors = errorsOf(calendars, { description: 'Comercial', hours: [{ weekday: 1, start: '08:00', end: '24:00' }] })
    expect(errors).toEqual({ 'hours.0.end': ['Hora inválida (use HH:mm)'] })
  })
})

describe('choices and references', () => {
  it('refuse an option the field does not offer', () => {
    expect(errorsOf(chatQueues, { description: 'Q', strategy: 'roundrobin' }).strategy).toEqual(['Opção inválida'])
  })

  it('check every option of a multiple choice', () => {
    const devices = entityByKey('pabx.devices')
    expect(errorsOf(devices, { description: 'D', username: '10001', secret: 'segredo123', codecs: ['PCMU', 'GSM'] }).codecs).toEqual(['Opção inválida'])
  })

  it('take ids as numbers, text or looked-up rows', () => {
    const numbers = entityByKey('pabx.numbers')
    expect(parsed(numbers, { number: '551140041234', description: 'SAC', inbound_route: { id: 3, description: 'SAC' } }).inbound_route).toBe(3)
    expect(parsed(numbers, { number: '551140041234', description: 'SAC', inbound_route: '3' }).inbound_route).toBe(3)
    expect(errorsOf(numbers, { number: '551140041234', description: 'SAC', inbound_route: 0 }).inbound_route).toEqual(['Registro inválido'])
  })
})

describe('destinations', () => {
  const inbound = entityByKey('pabx.inbound-routes')

  it('take an app and the id of its target', () => {
    expect(parsed(inbound, { description: 'R', destination: { app: 'queue', appdata: 7 } }).destination).toEqual({ app: 'queue', appdata: '7' })
  })

  it('refuse a bad id, an unknown app and an app the field does not offer', () => {
    expect(errorsOf(inbound, { description: 'R', destination: { app: 'queue', appdata: 'x' } }).destination).toEqual(['Destino inválido'])
    expect(errorsOf(inbound, { description: 'R', destination: { app: 'fax', appdata: '1' } }).destination).toEqual(['Destino inválido'])
    const detours = entityByKey('pabx.detours')
    expect(errorsOf(detours, { description: 'D', device: 1, destination: { app: 'hangup' } }).destination).toEqual(['Destino inválido'])
  })

  it('store no appdata for apps that take none', () => {
    expect(parsed(inbound, { description: 'R', destination: { app: 'hangup', appdata: '99' } }).destination).toEqual({ app: 'hangup', appdata: '' })
  })

  it('take a number to dial for the number app', () => {
    expect(parsed(inbound, { description: 'R', destination: { app: 'number', appdata: '+5511999998888' } }).destination).toEqual({
      app: 'number',
      appdata: '+5511999998888',
    })
  })
})

describe('named validations', () => {
  it('check CPF and CNPJ fields', () => {
    const organizations = entityByKey('crm.organizations')
    expect(errorsOf(organizations, { description: 'ACME', document: '11.222.333/0001-80' }).document).toEqual(['CNPJ inválido'])
    expect(errorsOf(organizations, { description: 'ACME', document: '11.222.333/0001-81' })).toEqual({})
  })

  it('check e-mail fields with the shared message', () => {
    const departments = entityByKey('business.departments')
    expect(errorsOf(departments, { description: 'TI', email: 'ti@' }, 'create', 'es-ES').email).toEqual(['Correo electrónico no válido'])
  })

  it('check each item of a delimited list', () => {
    const organizations = entityByKey('crm.organizations')
    expect(errorsOf(organizations, { description: 'ACME', phones: ['1133334444', 'abc'] }).phones).toEqual(['Telefone inválido'])
    expect(errorsOf(organizations, { description: 'ACME', phones: '1133334444;11999998888' })).toEqual({})
  })

  it('check extensions', () => {
    const devices = entityByKey('pabx.devices')
    expect(errorsOf(devices, { description: 'D', username: '1234', secret: 'segredo123' }).username).toEqual([
      'Ramal inválido: use 5 dígitos, de 10000 a 99999',
    ])
  })
})

describe('blocklist phones', () => {
  it('must be complete and comma-separated, naming the bad ones', () => {
    expect(errorsOf(blacklists, { description: 'Trote', phones: '5511999998888,11999998888' }).phones).toEqual([
      'Telefones incompletos ou inválidos: 11999998888. Informe código do país, DDD e número, separados por vírgula',
    ])
  })

  it.each(LOCALES)('are refused in %s', (lang) => {
    const [message] = errorsOf(blacklists, { description: 'Trote', phones: '999998888' }, 'create', lang).phones!
    expect(message).toBe(entityMessage('invalidPhonesList', lang, { phones: '999998888' }))
  })

  it('accept a list of items and store it joined on commas', () => {
    expect(parsed(blacklists, { description: 'Trote', phones: ['5511999998888', '551133334444'] }).phones).toBe('5511999998888,551133334444')
  })

  it('are required', () => {
    expect(errorsOf(blacklists, { description: 'Trote', phones: [] }).phones).toEqual(['Este campo é obrigatório'])
  })
})

describe('chat announcement rules', () => {
  const base = { description: 'Suporte' }

  it('need nothing more without an announcement', () => {
    expect(errorsOf(chatQueues, { ...base, announcement: 'no' })).toEqual({})
    expect(errorsOf(chatQueues, base)).toEqual({})
  })

  it.each([
    ['pt-BR', 'Este campo é obrigatório'],
    ['en-US', 'This field is required'],
    ['es-ES', 'Este campo es obligatorio'],
  ])('need the type and the message when announcing (%s)', (lang, text) => {
    expect(errorsOf(chatQueues, { ...base, announcement: 'entry' }, 'create', lang)).toEqual({ announcement_type: [text], announcement_message: [text] })
  })

  it('are met with a type and a message', () => {
    expect(
      errorsOf(chatQueues, { ...base, announcement: 'periodic', announcement_type: 'position', announcement_message: 'Você é o {position}º da fila' }),
    ).toEqual({})
  })

  it('need the time-out message when sending one as the time-out action', () => {
    expect(errorsOf(chatQueues, { ...base, action_when_time_expires: 'send_message' })).toEqual({ time_expires_message: ['Este campo é obrigatório'] })
    expect(errorsOf(chatQueues, { ...base, action_when_time_expires: 'send_message', time_expires_message: 'Tempo esgotado' })).toEqual({})
    expect(errorsOf(chatQueues, { ...base, action_when_time_expires: 'close' })).toEqual({})
  })

  it('tell the form which fields to star', () => {
    const field = chatQueues.fields.find((f) => f.name === 'announcement_message')!
    expect(isRequired(field, { announcement: 'no' })).toBe(false)
    expect(isRequired(field, { announcement: 'entry' })).toBe(true)
    expect(isRequired(field, { announcement: '' })).toBe(false)
  })
})

describe('conditional fields', () => {
  const channels = entityByKey('chat.channels')

  it('are required only while shown', () => {
    expect(errorsOf(channels, { description: 'Site', type: 'webchat' })).toEqual({ widget_title: ['Este campo é obrigatório'] })
    expect(errorsOf(channels, { description: 'Site', type: 'webchat', widget_title: 'Fale conosco' })).toEqual({})
    expect(Object.keys(errorsOf(channels, { description: 'WhatsApp', type: 'whatsapp' })).sort()).toEqual(
      ['access_token', 'app_secret', 'phone_number', 'phone_number_id', 'verify_token', 'waba_id'].sort(),
    )
  })

  it('need a mailing only when scheduling sends to one', () => {
    const unions = entityByKey('service.unions')
    const base = { classification: 1, sub_classification: 2, enable_schedule: true }
    expect(errorsOf(unions, { ...base, schedule_send_to: 3 }).mailing).toEqual(['Este campo é obrigatório'])
    expect(errorsOf(unions, { ...base, schedule_send_to: '3', mailing: 5 })).toEqual({})
    expect(errorsOf(unions, { ...base, schedule_send_to: 1 })).toEqual({})
  })
})

describe('secrets and files', () => {
  it('require a secret on create only (empty keeps it on update)', () => {
    expect(errorsOf(users, { username: 'ana' }).password).toEqual(['Este campo é obrigatório'])
    expect(errorsOf(users, { username: 'ana' }, 'update')).toEqual({})
    expect(
      errorsOf(
        channels(),
        { description: 'W', type: 'whatsapp', phone_number: '5511999998888', phone_number_id: '1', waba_id: '2', verify_token: 't' },
        'update',
      ),
    ).toEqual({})
  })

  it('do not trim secrets', () => {
    expect(parsed(users, { username: 'ana', password: ' senha com espaço ' }).password).toBe(' senha com espaço ')
  })

  it('never require a file, and take only null (remove) in the body', () => {
    const entries = entityByKey('pabx.sounds-entries')
    expect(errorsOf(entries, { sound: 1, description: 'Bem-vindo' })).toEqual({})
    expect(parsed(entries, { sound: 1, description: 'Bem-vindo', file: null }).file).toBeNull()
    expect(errorsOf(entries, { sound: 1, description: 'Bem-vindo', file: '/etc/passwd' }).file).toEqual(['Valor inválido'])
  })

  function channels() {
    return entityByKey('chat.channels')
  }
})

describe('datatable rows', () => {
  const ivrs = entityByKey('pabx.ivrs')

  it('are validated row by row, with paths to the cell', () => {
    const errors = errorsOf(ivrs, { description: 'U', greeting: 1, options: [{ digit: '1', destination: { app: 'queue', appdata: '2' } }, { digit: '2' }] })
    expect(errors).toEqual({ 'options.1.destination': ['Este campo é obrigatório'] })
  })

  it('refuse a repeated key on the repeating row, even beside other errors', () => {
    const errors = errorsOf(ivrs, {
      description: 'U',
      greeting: 1,
      options: [{ digit: '1', destination: { app: 'queue', appdata: '2' } }, { digit: '1', destination: { app: 'pjsip', appdata: '3' } }, { digit: '3' }],
    })
    expect(errors).toEqual({ 'options.1.digit': ['Valor repetido: 1'], 'options.2.destination': ['Este campo é obrigatório'] })
  })

  it('hold at most ten IVR options', () => {
    const options = Array.from({ length: 11 }, (_, i) => ({ digit: String(i % 10), destination: { app: 'hangup' } }))
    expect(errorsOf(ivrs, { description: 'U', greeting: 1, options }).options).toContain('Escolha no máximo 10')
  })
})

describe('the parsed body', () => {
  it('fills defaults on create', () => {
    const body = parsed(entityByKey('service.pauses'), { description: 'Almoço' })
    expect(body).toMatchObject({ is_active: true, maximum_duration: 0, enable_webphone: true, enable_webchat: true, lock_screen: false, agent_can_start: true })
  })

  it('does not share default lists between parses', () => {
    const devices = entityByKey('pabx.devices')
    const first = parsed(devices, { description: 'D', username: '10001', secret: 'segredo123' })
    ;(first.codecs as string[]).push('G729')
    expect(parsed(devices, { description: 'D', username: '10002', secret: 'segredo123' }).codecs).toEqual(['PCMU', 'PCMA'])
  })

  it('drops unknown keys, read-only and layout fields', () => {
    const body = parsed(entityByKey('service.teams'), { name: 'N1', id: 9, site_id: 2, permissions: [1] })
    expect(body).not.toHaveProperty('id')
    expect(body).not.toHaveProperty('site_id')
    expect(body).not.toHaveProperty('permissions')
  })

  it('is cached per entity and mode', () => {
    expect(valibotSchema(tags, 'create')).toBe(valibotSchema(tags, 'create'))
    expect(valibotSchema(tags, 'create')).not.toBe(valibotSchema(tags, 'update'))
  })

  it('answers a non-object with one root error', () => {
    const result = v.safeParse(valibotSchema(tags, 'create'), 'tag')
    expect(result.success).toBe(false)
  })
})
