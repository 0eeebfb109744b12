import { t } from './define.ts'
import { destination, isActive, parentRef, toggle } from './fields.ts'
import type { EntityKey } from './keys.ts'
import type { AppFamily, Texts } from './types.ts'

// Destinations: an `app` field stores the app's name and its appdata (the target's id, a number to dial, or
// nothing). The telephony names are the spec's (000 §7: ivrbasic, queue, nps, announce, pjsip, callgroup, voicemail,
// number); lookups go to the spec's /v1/service/apps/ paths. A destination protects the row it names: a queue that
// an inbound route sends calls to cannot be deleted.
export type DestinationApp = {
  readonly label: Texts
  /** What appdata holds: the id of a row of `entity`, a number to dial, or nothing. */
  readonly appdata: 'id' | 'number' | 'none'
  readonly entity?: EntityKey
  readonly lookup?: string
}

const APPS_API = '/api/v1/service/apps'

export const PABX_APPS = {
  ivrbasic: { label: t('URA', 'IVR', 'IVR'), appdata: 'id', entity: 'pabx.ivrs', lookup: `${APPS_API}/pabx/ivrs/` },
  queue: { label: t('Fila', 'Queue', 'Cola'), appdata: 'id', entity: 'pabx.queues', lookup: `${APPS_API}/pabx/queues/` },
  nps: { label: t('Pesquisa NPS', 'NPS survey', 'Encuesta NPS'), appdata: 'id', entity: 'service.nps-telephony', lookup: `${APPS_API}/pabx/nps/` },
  announce: { label: t('Anúncio', 'Announcement', 'Anuncio'), appdata: 'id', entity: 'pabx.sounds-entries', lookup: `${APPS_API}/pabx/sounds-entries/` },
  pjsip: { label: t('Ramal', 'Extension', 'Extensión'), appdata: 'id', entity: 'pabx.devices', lookup: `${APPS_API}/pabx/endpoints/` },
  callgroup: {
    label: t('Grupo de chamada', 'Call group', 'Grupo de llamada'),
    appdata: 'id',
    entity: 'pabx.call-groups',
    lookup: `${APPS_API}/pabx/call-groups/`,
  },
  voicemail: { label: t('Correio de voz', 'Voicemail', 'Buzón de voz'), appdata: 'id', entity: 'pabx.voicemails', lookup: `${APPS_API}/pabx/voicemails/` },
  number: { label: t('Número externo', 'External number', 'Número externo'), appdata: 'number' },
  hangup: { label: t('Desligar', 'Hang up', 'Colgar'), appdata: 'none' },
} as const satisfies Record<string, DestinationApp>

export const CHAT_APPS = {
  flow: { label: t('Fluxo', 'Flow', 'Flujo'), appdata: 'id', entity: 'chat.flows', lookup: `${APPS_API}/chat/flows/` },
  queue: { label: t('Fila', 'Queue', 'Cola'), appdata: 'id', entity: 'chat.queues', lookup: `${APPS_API}/chat/queues/` },
  message: { label: t('Mensagem', 'Message', 'Mensaje'), appdata: 'id', entity: 'chat.messages', lookup: `${APPS_API}/chat/text-messages/` },
  nps: { label: t('Pesquisa NPS', 'NPS survey', 'Encuesta NPS'), appdata: 'id', entity: 'service.nps-chat', lookup: `${APPS_API}/chat/nps/` },
  bot: { label: t('Robô', 'Bot', 'Bot'), appdata: 'id', entity: 'chat.bots', lookup: `${APPS_API}/chat/bots/` },
  close: { label: t('Encerrar', 'Close', 'Cerrar'), appdata: 'none' },
} as const satisfies Record<string, DestinationApp>

export type PabxApp = keyof typeof PABX_APPS
export type ChatApp = keyof typeof CHAT_APPS

export const DESTINATION_APPS: Readonly<Record<AppFamily, Readonly<Record<string, DestinationApp>>>> = { pabx: PABX_APPS, chat: CHAT_APPS }

export function destinationApp(family: AppFamily, app: string): DestinationApp | undefined {
  return Object.hasOwn(DESTINATION_APPS[family], app) ? DESTINATION_APPS[family][app] : undefined
}

/** Apps a call may be sent to from an inbound route, IVR option, queue overflow, ... */
export const CALL_DESTINATIONS: readonly PabxApp[] = ['ivrbasic', 'queue', 'nps', 'announce', 'pjsip', 'callgroup', 'voicemail', 'number', 'hangup']
export const CHAT_DESTINATIONS: readonly ChatApp[] = ['flow', 'queue', 'message', 'nps', 'bot', 'close']

/**
 * The rows of a permission screen (team and call-group permissions, spec 000 §6): which destinations the members'
 * extensions may call and transfer to; what the webphone's permission-apps lookups answer.
 */
export const appPermissionFields = <const P extends string>(parent: P, parentLabel: Texts, parentKey: EntityKey) =>
  [
    parentRef(parent, parentLabel, parentKey),
    isActive(),
    destination(
      'destination',
      t('Destino', 'Destination', 'Destino'),
      'pabx',
      CALL_DESTINATIONS.filter((app) => app !== 'hangup'),
      { required: true },
    ),
    toggle('allow_call', t('Pode ligar', 'May call', 'Puede llamar'), { default: true }),
    toggle('allow_transfer', t('Pode transferir', 'May transfer', 'Puede transferir'), { default: true }),
  ] as const
