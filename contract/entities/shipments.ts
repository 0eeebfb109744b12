import { defineEntity, opt, t } from './define.ts'
import { choice, description, fk, integer, isActive, items, many, rows, text, toggle } from './fields.ts'
import { NO_LIMIT } from './options.ts'

// Settings → service → shipments (spec 000 §2 service/shipments/layout): how the columns of a CSV of leads map to a
// lead's fields. A layout is saved once and chosen at each import into a mailing (server/crm/lead-import/); columns
// it maps to no field are kept in the lead's `data` for the call form. Column names match the header case-insensitively.

export const leadLayouts = defineEntity({
  area: 'service',
  name: 'shipments-layouts',
  model: 'layout',
  route: 'service/shipments/layout',
  label: { singular: t('Layout de importação', 'Import layout', 'Diseño de importación'), plural: t('Layouts de importação', 'Import layouts', 'Diseños de importación') },
  fields: [
    description(),
    text('name_column', t('Coluna do nome', 'Name column', 'Columna del nombre'), { required: true, max: 100 }),
    text('surname_column', t('Coluna do sobrenome', 'Surname column', 'Columna del apellido'), { max: 100 }),
    items('phone_columns', t('Colunas de telefone', 'Phone columns', 'Columnas de teléfono'), ';', {
      required: true,
      max: 1000,
      hint: t('Separadas por ;, ex.: celular;fixo', 'Separated by ;, e.g. mobile;landline', 'Separadas por ;, p. ej. movil;fijo'),
    }),
  ],
  list: { columns: ['id', 'description', 'name_column', 'phone_columns'] },
})

/** The dialer's modes (spec 000 §4 call types: preview 18, progressive/power/predictive 12 and 14). */
export const DIALER_MODES = [
  opt('preview', 'Preview', 'Preview', 'Vista previa'),
  opt('progressive', 'Progressivo', 'Progressive', 'Progresivo'),
  opt('power', 'Power', 'Power', 'Power'),
  opt('predictive', 'Preditivo', 'Predictive', 'Predictivo'),
] as const

// Settings → service → shipments → campaign (spec 000 §2; dialer configuration §3): one campaign holds its dialer
// (mode, queue, caller id, calendar) and its persistence rules (attempts, intervals, dial time) — the spec lists the
// dialer and persistence-rules pages beside it; they stay fields of the campaign until a campaign needs to share them.
// Started, paused and stopped at runtime by server/dialer/ (its state is not a setting: dialer_campaign_runs).
const DIALER = t('Discador', 'Dialer', 'Marcador')
const PERSISTENCE = t('Regras de persistência', 'Persistence rules', 'Reglas de persistencia')
export const dialerCampaigns = defineEntity({
  area: 'service',
  name: 'shipments-campaigns',
  model: 'campaign',
  route: 'service/shipments/campaign',
  label: { singular: t('Campanha', 'Campaign', 'Campaña'), plural: t('Campanhas', 'Campaigns', 'Campañas') },
  fields: [
    description(),
    isActive(),
    many('mailings', t('Mailings', 'Mailings', 'Mailings'), 'crm.mailings', { required: true }),
    choice('mode', t('Modo de discagem', 'Dialling mode', 'Modo de marcación'), DIALER_MODES, { required: true, default: 'progressive' }),
    fk('queue', t('Fila', 'Queue', 'Cola'), 'pabx.queues', { required: true }),
    fk('outbound_route', t('Rota de saída', 'Outbound route', 'Ruta de salida'), 'pabx.outbound-routes'),
    text('caller_id', t('Identificador de chamada (Bina)', 'Caller ID', 'Identificador de llamada'), { max: 40 }),
    fk('calendar', t('Calendário', 'Calendar', 'Calendario'), 'service.calendars'),
    // Issue 15 item 1: the form beside a campaign's calls (before the queue's: a campaign asks its own questions).
    fk('form', t('Formulário da chamada', 'Call form', 'Formulario de la llamada'), 'service.forms', {
      hint: t(
        'Aberto ao lado das chamadas da campanha no webphone; antes do formulário da fila',
        "Opened beside the campaign's calls in the webphone; before the queue's form",
        'Se abre junto a las llamadas de la campaña en el webphone; antes del formulario de la cola',
      ),
    }),
    integer('ratio', t('Chamadas por agente livre (power)', 'Calls per free agent (power)', 'Llamadas por agente libre (power)'), { default: 2, min: 1, max: 10 }),
    integer('preview_countdown', t('Contagem do preview (segundos)', 'Preview countdown (seconds)', 'Cuenta atrás del preview (segundos)'), { default: 0, max: 600, hint: t('0 = só com clique', '0 = click only', '0 = solo con clic') }),
    // Issue 18: the answer analysis (server/media/app/amd.ts): a machine is hung up as 552, a fax (CNG tone) as 510,
    // never given to an agent.
    toggle('amd', t('Detectar secretária eletrônica e fax', 'Detect answering machines and faxes', 'Detectar contestador automático y fax'), {
      hint: t(
        'Ouve os primeiros segundos do atendimento; secretária eletrônica desliga com status 552, fax (tom CNG) com 510',
        'Listens to the first seconds after the answer; an answering machine is hung up with status 552, a fax (CNG tone) with 510',
        'Escucha los primeros segundos tras la respuesta; un contestador se cuelga con estado 552, un fax (tono CNG) con 510',
      ),
    }),
    integer('max_attempts', t('Tentativas por lead', 'Attempts per lead', 'Intentos por lead'), { default: 3, min: 1, max: 50 }),
    integer('min_interval', t('Intervalo mínimo entre chamadas (minutos)', 'Minimum interval between calls (minutes)', 'Intervalo mínimo entre llamadas (minutos)'), { default: 30, max: 100_000 }),
    integer('dial_time', t('Tempo de discagem (segundos)', 'Dial time (seconds)', 'Tiempo de marcación (segundos)'), { default: 30, min: 5, max: 120 }),
    integer('inactivate_by_duration', t('Inativar lead por duração da chamada (segundos)', 'Inactivate lead by call duration (seconds)', 'Inactivar lead por duración de la llamada (segundos)'), { default: 0, max: 100_000, hint: t('0 = nunca', '0 = never', '0 = nunca') }),
    integer('max_abandon_rate', t('Taxa máxima de abandono (%)', 'Maximum abandon rate (%)', 'Tasa máxima de abandono (%)'), { default: 3, max: 100, hint: NO_LIMIT }),
  ],
  list: { columns: ['id', 'description', 'is_active', 'mode', 'queue'] },
  form: {
    tabs: [
      { key: 'dialer', label: DIALER, fields: ['description', 'is_active', 'mailings', 'mode', 'queue', 'outbound_route', 'caller_id', 'calendar', 'form', 'ratio', 'preview_countdown', 'amd'] },
      { key: 'persistence', label: PERSISTENCE, fields: ['max_attempts', 'min_interval', 'dial_time', 'inactivate_by_duration', 'max_abandon_rate'] },
    ],
  },
})

// Settings → service → chats → campaign (spec 000 §2 service/chats; issue 18 item 4): the same mailings as the dialer's,
// sent an approved WhatsApp template through the chat engine's outbox (server/chat/campaigns.ts). Each template
// parameter takes a lead's field; the customer's reply opens a room in the campaign's chat queue.
export const chatCampaigns = defineEntity({
  area: 'service',
  name: 'chats-campaigns',
  model: 'chatcampaign',
  route: 'service/chats/campaign',
  label: { singular: t('Campanha de WhatsApp', 'WhatsApp campaign', 'Campaña de WhatsApp'), plural: t('Campanhas de WhatsApp', 'WhatsApp campaigns', 'Campañas de WhatsApp') },
  fields: [
    description(),
    isActive(),
    many('mailings', t('Mailings', 'Mailings', 'Mailings'), 'crm.mailings', { required: true }),
    fk('channel', t('Canal', 'Channel', 'Canal'), 'chat.channels', { required: true }),
    fk('template', t('Template', 'Template', 'Plantilla'), 'chat.templates', { required: true }),
    rows('params', t('Parâmetros do template', 'Template parameters', 'Parámetros de la plantilla'), [
      text('name', t('Parâmetro', 'Parameter', 'Parámetro'), { required: true, max: 50, unique: true, hint: t('Ex.: 1 para {{1}}', 'E.g. 1 for {{1}}', 'P. ej. 1 para {{1}}') }),
      text('lead_field', t('Campo do lead', 'Lead field', 'Campo del lead'), {
        max: 100,
        hint: t(
          'name, surname, full_name, phone ou uma coluna da importação',
          'name, surname, full_name, phone or a column of the import',
          'name, surname, full_name, phone o una columna de la importación',
        ),
      }),
      text('value', t('Valor padrão', 'Default value', 'Valor predeterminado'), { max: 255 }),
    ]),
    fk('queue', t('Fila de chat das respostas', 'Chat queue for replies', 'Cola de chat de las respuestas'), 'chat.queues', { required: true }),
    integer('reply_wait_hours', t('Aguardar resposta (horas)', 'Wait for a reply (hours)', 'Esperar respuesta (horas)'), {
      default: 72,
      min: 1,
      max: 720,
      hint: t(
        'Depois disso o chat sem resposta é encerrado; uma resposta mais tarde segue a entrada do canal',
        "After that an unanswered chat is closed; a later reply follows the channel's inbound route",
        'Después de eso el chat sin respuesta se cierra; una respuesta posterior sigue la entrada del canal',
      ),
    }),
  ],
  list: { columns: ['id', 'description', 'is_active', 'channel', 'template', 'queue'] },
})

export const SHIPMENTS = [leadLayouts, dialerCampaigns, chatCampaigns] as const
