import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { users } from '../db/schema/index.ts'
import type { SiteRow } from '../db/schema/index.ts'
import type { EntityContext } from '../entities/context.ts'
import { syncVoipAccounts } from '../entities/voip-sync.ts'
import { seedDemoSounds } from './demo-sounds.ts'
import { seedRecord } from './seed-record.ts'

// The settings of the demo contact centre, enough for every later feature to run against: pauses, SIP devices for
// the two agents, a test trunk (the "outside" peer on 127.0.0.1:5090: a test baresip or bench/telephony.ts), outbound
// and inbound routes, an IVR in front of two queues and a direct line to support, classifications, a WhatsApp channel
// (pointed at the local simulator, simulator/whatsapp/, with its made-up credentials) and a website widget, blocklists
// and CRM data.

/**
 * The demo WhatsApp number, as the local simulator knows it too (server/seed/demo-simulator.ts hands the channel's
 * stored values to the simulator). Made-up values: nothing is ever sent to Meta with them.
 */
export const DEMO_WHATSAPP = {
  phone_number: '5511999990000',
  phone_number_id: '100000000000001',
  waba_id: '200000000000001',
  access_token: 'demo-access-token-not-a-real-credential',
  app_secret: 'demo-app-secret-not-a-real-credential',
  verify_token: 'demo-verify-token',
} as const

export type DemoSettingsInput = {
  site: SiteRow
  teamId: number
  userIds: Record<'agent1' | 'agent2' | 'supervisor', number>
  /** The agents' webphone passwords: their SIP devices get the same secrets. */
  voipPasswords: Record<'agent1' | 'agent2', string>
  /** Where the demo prompts are written; without it the sound entries have no file. */
  mediaDir?: string
  /** Where the spoken demo prompts and music are made once and kept (npm start); without it the prompts are tones. */
  soundsDir?: string
  /** The Graph API address of the demo WhatsApp channel: the local simulator (default http://127.0.0.1:8091). */
  whatsappGraphUrl?: string
}

const hangup = { app: 'hangup', appdata: '' }

export async function seedDemoSettings(db: Db, input: DemoSettingsInput): Promise<void> {
  const ctx: EntityContext = { db, site: input.site, userId: null, lang: 'pt-BR', mediaDir: input.mediaDir ?? '' }
  const seed = (key: Parameters<typeof seedRecord>[1], body: Record<string, unknown>, options?: Parameters<typeof seedRecord>[3]) =>
    seedRecord(ctx, key, body, options)
  const { agent1, agent2 } = input.userIds
  const members = [
    { user: agent1, penalty: 0 },
    { user: agent2, penalty: 1 },
  ]

  const salesTeam = await seed('service.teams', { name: 'Equipe Vendas', chat_limit_per_user: 2, enable_after_service: true, duration_of_after_service: 15 })
  const teams = [input.teamId, salesTeam]

  // Breaks (seconds): lunch locks the screen; training keeps the webphone taking and placing calls.
  await seed('service.pauses', { description: 'Almoço', maximum_duration: 3600, color: '#ff8f00', lock_screen: true })
  await seed('service.pauses', { description: 'Café', maximum_duration: 900, color: '#795548' })
  await seed('service.pauses', {
    description: 'Treinamento',
    maximum_duration: 0,
    color: '#1976d2',
    productive: true,
    enable_webphone: true,
    allow_incoming_call: true,
    allow_outgoing_call: true,
  })
  await seed('service.pauses', { description: 'Banheiro', maximum_duration: 600, color: '#9e9e9e' })

  // The agents' SIP devices carry the secrets their webphone profiles already hold; their calls are recorded.
  const device = (username: string, user: 'agent1' | 'agent2', name: string) =>
    seed('pabx.devices', {
      description: `Ramal ${username} (${name})`,
      username,
      secret: input.voipPasswords[user],
      callerid_name: name,
      transport: 'wss',
      recording: 'always',
    })
  const devices = { agent1: await device('10001', 'agent1', 'Ana Agente'), agent2: await device('10002', 'agent2', 'Bruno Agente') }
  for (const user of ['agent1', 'agent2'] as const) {
    await db
      .update(users)
      .set({ deviceId: devices[user] })
      .where(and(eq(users.id, input.userIds[user]), eq(users.siteId, input.site.id)))
  }
  await syncVoipAccounts(ctx, { userIds: [agent1, agent2] })

  const trunk = await seed('pabx.trunks', {
    description: 'Tronco de teste (baresip)',
    host: '127.0.0.1',
    port: 5090,
    transport: 'udp',
    codecs: ['PCMU', 'PCMA'],
    qualify: true,
  })
  const outbound = await seed('pabx.outbound-routes', {
    description: 'Saída Brasil',
    // Leads and clients keep their numbers in E.164 (one normaliser): Brazilian ones are dialled as stored too.
    dial_patterns: '0XXXXXXXXXX,0XXXXXXXXX,NXXXXXXX,9XXXXXXXX,+55XXXXXXXXXX,+55XXXXXXXXXXX',
    teams: [input.teamId],
    webphone: true,
  })
  await seed('pabx.outbound-route-trunks', { outbound_route: outbound, trunk, order: 0 })

  const { welcome, invalid, pleaseHold, moh } = await seedDemoSounds(seed, {
    ...(input.mediaDir ? { mediaDir: input.mediaDir } : {}),
    ...(input.soundsDir ? { soundsDir: input.soundsDir } : {}),
  })

  const queue = (description: string, strategy: string, queueTeams: number[]) =>
    seed('pabx.queues', {
      description,
      strategy,
      queue_type: 'inbound',
      teams: queueTeams,
      members,
      moh,
      max_wait_time: 300,
      periodic_announce: pleaseHold,
      announce_position: true,
    })
  const support = await queue('Suporte', 'leastrecent', [input.teamId])
  const sales = await queue('Vendas', 'rrmemory', teams)

  const ivr = await seed('pabx.ivrs', {
    description: 'URA principal',
    greeting: welcome,
    invalid_audio: invalid,
    options: [
      { digit: '1', destination: { app: 'queue', appdata: support } },
      { digit: '2', destination: { app: 'queue', appdata: sales } },
    ],
    timeout_destination: { app: 'queue', appdata: support },
  })
  const inbound = await seed('pabx.inbound-routes', { description: 'Entrada principal', destination: { app: 'ivrbasic', appdata: ivr }, moh })
  await seed('pabx.numbers', { number: '551130000000', description: 'Número principal', trunk, inbound_route: inbound })
  // The IVR needs the media app; the direct line reaches the support queue through the SIP engines alone.
  const direct = await seed('pabx.inbound-routes', { description: 'Linha direta do suporte', destination: { app: 'queue', appdata: support } })
  await seed('pabx.numbers', { number: '551130000001', description: 'Linha direta do suporte', trunk, inbound_route: direct })

  const chatQueue = await seed('chat.queues', { description: 'Atendimento Chat', strategy: 'leastrecent', teams: [input.teamId], members })
  const whatsapp = await seed('chat.channels', {
    description: 'WhatsApp Demo',
    type: 'whatsapp',
    ...DEMO_WHATSAPP,
    graph_url: input.whatsappGraphUrl ?? 'http://127.0.0.1:8091',
  })
  const website = await seed('chat.channels', {
    description: 'Chat do site',
    type: 'webchat',
    widget_title: 'Fale conosco',
    welcome_message: 'Olá! Como podemos ajudar?',
    offline_message: 'No momento não há atendentes online. Deixe sua mensagem que responderemos em breve.',
    widget_color: '#7a4b24',
    // The product's own origin (its /widget-demo page) is always allowed; these are for a local test page.
    allowed_domains: 'localhost, 127.0.0.1',
    require_name: true,
    require_email: true,
  })
  for (const [channel, description] of [
    [whatsapp, 'Entrada WhatsApp'],
    [website, 'Entrada do site'],
  ] as const) {
    await seed('chat.inbounds', { description, channel, destination: { app: 'queue', appdata: chatQueue } })
  }

  // Classifications: queue → classification → sub-classification, joined by unions.
  const primary = async (description: string, queues: number[]) => seed('service.classifications', { description, queues, chat_queues: [chatQueue] })
  const secondary = async (description: string, result: string) => seed('service.sub-classifications', { description, result })
  const doubt = await primary('Dúvida', [support, sales])
  const complaint = await primary('Reclamação', [support])
  const sale = await primary('Venda', [sales])
  const solved = await secondary('Resolvido', 'positive')
  const unsolved = await secondary('Não resolvido', 'negative')
  const callback = await secondary('Retornar depois', 'neutral')
  const sold = await secondary('Venda realizada', 'positive')
  const unions: [number, number][] = [
    [doubt, solved],
    [doubt, unsolved],
    [complaint, solved],
    [complaint, unsolved],
    [sale, sold],
  ]
  for (const [classification, sub] of unions) await seed('service.unions', { classification, sub_classification: sub })
  for (const classification of [doubt, sale]) {
    await seed('service.unions', {
      classification,
      sub_classification: callback,
      enable_schedule: true,
      schedule_interval_applied: 60,
      auto_run_schedule: 3,
      schedule_send_to: 1,
    })
  }

  await seed('service.blacklists', { description: 'Trote recorrente', phones: '5511987654321,5521987654321', direction: 'inbound' })
  await seed('service.blacklists', { description: 'Pediu para não ser contatado', phones: '5531988887777', direction: 'outbound' })

  const vip = await seed('crm.tags', { description: 'Cliente VIP', color: '#ffd600' })
  await seed('crm.tags', { description: 'Inadimplente', color: '#dd2c00' })
  await seed('crm.organizations', {
    description: 'Acme Comércio Ltda',
    trade_name: 'Acme',
    document: '11.222.333/0001-81',
    email: 'contato@acme.example',
    phones: '551133334444',
    city: 'São Paulo',
    state: 'SP',
    tags: [vip],
  })
  await seed('crm.organizations', { description: 'Padaria Pão Quente ME', trade_name: 'Pão Quente', city: 'Belo Horizonte', state: 'MG' })
  await seed('crm.products', { description: 'Internet Fibra 500 Mb', code: 'FIBRA500', price: 99.9 })
  await seed('crm.products', { description: 'Internet Fibra 1 Gb', code: 'FIBRA1G', price: 149.9 })
  await seed('crm.products', { description: 'Telefone fixo ilimitado', code: 'FIXO', price: 39.9 })
  for (const [order, description, isFinal] of [
    [1, 'Novo', false],
    [2, 'Em negociação', false],
    [3, 'Fechado', true],
  ] as const) {
    await seed('crm.status', { description, order, is_final: isFinal })
  }
}
