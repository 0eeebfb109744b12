import { CALL_DESTINATIONS } from './apps.ts'
import { defineEntity, t } from './define.ts'
import { calendarCondition, choice, description, destination, embed, fk, integer, isActive, items, many, parentRef, text, toggle, when } from './fields.ts'
import { LANGUAGES } from './options.ts'

// Settings → PABX → routes: numbers (DIDs) point to inbound routes, which send calls to a destination (inside or
// outside a calendar's hours); outbound routes match dialled numbers and try their trunks in order.

const GENERAL = t('Geral', 'General', 'General')

export const inboundRoutes = defineEntity({
  area: 'pabx',
  name: 'inbound-routes',
  model: 'inboundroute',
  route: 'pabx/routes/inbound',
  label: { singular: t('Rota de entrada', 'Inbound route', 'Ruta de entrada'), plural: t('Rotas de entrada', 'Inbound routes', 'Rutas de entrada') },
  fields: [
    description(),
    isActive(),
    destination('destination', t('Destino', 'Destination', 'Destino'), 'pabx', CALL_DESTINATIONS, { required: true }),
    ...calendarCondition(CALL_DESTINATIONS),
    text('caller_name_prefix', t('Prefixo no nome de quem liga', 'Caller name prefix', 'Prefijo en el nombre de quien llama'), { max: 20 }),
    fk('moh', t('Música de espera', 'Music on hold', 'Música en espera'), 'pabx.moh'),
    choice('language', t('Idioma dos áudios', 'Prompt language', 'Idioma de los audios'), LANGUAGES, { required: true, default: 'pt-BR' }),
    toggle('record', t('Gravar chamadas', 'Record calls', 'Grabar llamadas'), { default: true }),
    fk('form', t('Formulário da chamada', 'Call form', 'Formulario de la llamada'), 'service.forms', {
      hint: t(
        'Quando a fila da chamada não nomeia um formulário',
        "When the call's queue names no form",
        'Cuando la cola de la llamada no nombra un formulario',
      ),
    }),
    // Issue 16 item 5: after the agent hangs up, the route's callers answer this survey by keypad (the media app).
    fk('nps', t('Pesquisa NPS após a chamada', 'NPS survey after the call', 'Encuesta NPS tras la llamada'), 'service.nps-telephony', {
      hint: t(
        'Quando a fila da chamada não nomeia uma pesquisa',
        "When the call's queue names no survey",
        'Cuando la cola de la llamada no nombra una encuesta',
      ),
    }),
  ],
  list: { columns: ['id', 'is_active', 'description', 'destination'] },
})

/** A number (DID) received from a trunk. */
export const numbers = defineEntity({
  area: 'pabx',
  name: 'numbers',
  model: 'number',
  route: 'pabx/routes/numbers',
  label: { singular: t('Número', 'Number', 'Número'), plural: t('Números', 'Numbers', 'Números') },
  titleField: 'number',
  fields: [
    text('number', t('Número (DID)', 'Number (DID)', 'Número (DID)'), { required: true, max: 20, unique: true, validation: 'phone', searchable: true }),
    description(),
    isActive(),
    fk('trunk', t('Tronco', 'Trunk', 'Troncal'), 'pabx.trunks', { hint: t('Vazio = qualquer tronco', 'Empty = any trunk', 'Vacío = cualquier troncal') }),
    fk('inbound_route', t('Rota de entrada', 'Inbound route', 'Ruta de entrada'), 'pabx.inbound-routes', { required: true }),
  ],
  list: { columns: ['id', 'is_active', 'number', 'description', 'inbound_route'] },
})

export const outboundRoutes = defineEntity({
  area: 'pabx',
  name: 'outbound-routes',
  model: 'outboundroute',
  route: 'pabx/routes/outbound',
  label: { singular: t('Rota de saída', 'Outbound route', 'Ruta de salida'), plural: t('Rotas de saída', 'Outbound routes', 'Rutas de salida') },
  fields: [
    description(),
    isActive(),
    items('dial_patterns', t('Padrões de discagem', 'Dial patterns', 'Patrones de marcación'), ',', {
      required: true,
      validation: 'dial-patterns',
      hint: t(
        'Separados por vírgula. X = 0-9, Z = 1-9, N = 2-9, [1-5] = faixa, . = um ou mais, ! = zero ou mais. Ex.: 0XXXXXXXXXX.',
        'Comma-separated. X = 0-9, Z = 1-9, N = 2-9, [1-5] = range, . = one or more, ! = zero or more. E.g. 0XXXXXXXXXX.',
        'Separados por comas. X = 0-9, Z = 1-9, N = 2-9, [1-5] = rango, . = uno o más, ! = cero o más. P. ej. 0XXXXXXXXXX.',
      ),
    }),
    integer('strip', t('Remover dígitos do início', 'Strip leading digits', 'Quitar dígitos iniciales'), { default: 0, max: 20 }),
    text('prefix', t('Prefixo a acrescentar', 'Prefix to add', 'Prefijo a añadir'), { max: 20 }),
    text('caller_id_number', t('Número de origem', 'Caller ID number', 'Número de origen'), { max: 20, validation: 'phone' }),
    integer('priority', t('Prioridade', 'Priority', 'Prioridad'), {
      default: 0,
      hint: t(
        'Com vários padrões iguais, a menor prioridade vence',
        'Among matching routes, the lowest priority wins',
        'Entre rutas coincidentes, gana la menor prioridad',
      ),
    }),
    toggle('webphone', t('Oferecer no webphone', 'Offer in the webphone', 'Ofrecer en el webphone'), { default: true }),
    toggle('record', t('Gravar chamadas', 'Record calls', 'Grabar llamadas'), { default: true }),
    many('teams', t('Equipes permitidas', 'Allowed teams', 'Equipos permitidos'), 'service.teams', { title: 'name' }),
    embed('trunks', t('Troncos', 'Trunks', 'Troncales'), 'pabx.outbound-route-trunks'),
  ],
  form: {
    tabs: [
      {
        key: 'general',
        label: GENERAL,
        fields: ['description', 'is_active', 'dial_patterns', 'strip', 'prefix', 'caller_id_number', 'priority', 'webphone', 'record'],
      },
      { key: 'teams', label: t('Equipes', 'Teams', 'Equipos'), fields: ['teams'] },
      { key: 'trunks', label: t('Troncos', 'Trunks', 'Troncales'), fields: ['trunks'] },
    ],
  },
  list: { columns: ['id', 'is_active', 'description', 'dial_patterns', 'priority'] },
})

/** The trunks of an outbound route, tried in order (pages at /settings/pabx/routes/outbound/{id}/channels). */
export const outboundRouteTrunks = defineEntity({
  area: 'pabx',
  name: 'outbound-route-trunks',
  model: 'outboundroutetrunk',
  route: 'pabx/routes/outbound/$id/channels',
  itemParam: 'tkid',
  parent: { entity: 'pabx.outbound-routes', field: 'outbound_route' },
  label: { singular: t('Tronco da rota', 'Route trunk', 'Troncal de la ruta'), plural: t('Troncos da rota', 'Route trunks', 'Troncales de la ruta') },
  titleField: 'trunk',
  fields: [
    parentRef('outbound_route', t('Rota de saída', 'Outbound route', 'Ruta de salida'), 'pabx.outbound-routes'),
    isActive(),
    fk('trunk', t('Tronco', 'Trunk', 'Troncal'), 'pabx.trunks', { required: true }),
    integer('order', t('Ordem', 'Order', 'Orden'), { default: 0 }),
    integer('strip', t('Remover dígitos do início', 'Strip leading digits', 'Quitar dígitos iniciales'), {
      max: 20,
      hint: t('Vazio = o da rota', "Empty = the route's", 'Vacío = el de la ruta'),
    }),
    text('prefix', t('Prefixo a acrescentar', 'Prefix to add', 'Prefijo a añadir'), {
      max: 20,
      hint: t('Vazio = o da rota', "Empty = the route's", 'Vacío = el de la ruta'),
    }),
  ],
  list: { columns: ['id', 'is_active', 'trunk', 'order'], ordering: ['order', 'id'] },
  uniqueTogether: [['outbound_route', 'trunk']],
})

export const PABX_ROUTES = [inboundRoutes, numbers, outboundRoutes, outboundRouteTrunks] as const
