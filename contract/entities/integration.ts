import { defineEntity, opt, t } from './define.ts'
import { choice, description, fk, integer, isActive, secret, text, textarea, toggle, when } from './fields.ts'

// Settings → system → integration: outside systems called when telephony events happen (spec 000 §3 event types),
// and the HTTP proxies used to reach them. Permission prefix `integration.`.

/** Spec 000 §3 event types. */
const EVENT_TYPES = [
  opt('softphone_form_get', 'Formulário do softphone (consulta)', 'Softphone form (get)', 'Formulario del softphone (consulta)'),
  opt('softphone_form_send', 'Formulário do softphone (envio)', 'Softphone form (send)', 'Formulario del softphone (envío)'),
  opt('classification_get', 'Classificação (consulta)', 'Classification (get)', 'Clasificación (consulta)'),
  opt('classification_send', 'Classificação (envio)', 'Classification (send)', 'Clasificación (envío)'),
  opt('click_to_call', 'Clique para ligar', 'Click-to-call', 'Clic para llamar'),
  opt('call_answer', 'Chamada atendida', 'Call answered', 'Llamada atendida'),
  opt('call_hangup', 'Chamada encerrada', 'Call hung up', 'Llamada finalizada'),
  opt('dialer_call', 'Chamada do discador', 'Dialer call', 'Llamada del marcador'),
]

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => opt(m, m, m, m))

export const events = defineEntity({
  area: 'integration',
  name: 'events',
  model: 'event',
  route: 'system/integration/events',
  label: { singular: t('Evento', 'Event', 'Evento'), plural: t('Eventos', 'Events', 'Eventos') },
  fields: [
    description(),
    isActive(),
    choice('event_type', t('Evento', 'Event', 'Evento'), EVENT_TYPES, { required: true }),
    fk('integration', t('Integração', 'Integration', 'Integración'), 'integration.integrations', { required: true }),
    choice('method', t('Método', 'Method', 'Método'), METHODS, { required: true, default: 'POST' }),
    text('path', t('Caminho', 'Path', 'Ruta'), {
      max: 500,
      hint: t(
        'Somado à URL da integração; aceita {variáveis} da chamada',
        "Appended to the integration's URL; takes the call's {variables}",
        'Se añade a la URL de la integración; admite {variables} de la llamada',
      ),
    }),
    textarea('payload', t('Corpo (JSON)', 'Body (JSON)', 'Cuerpo (JSON)'), {
      max: 65_535,
      hint: t(
        'Modelo do corpo enviado; aceita {variáveis} da chamada',
        "Template of the body sent; takes the call's {variables}",
        'Plantilla del cuerpo enviado; admite {variables} de la llamada',
      ),
    }),
  ],
  list: { columns: ['id', 'is_active', 'description', 'event_type', 'integration'] },
})

const AUTH_BASIC = { field: 'auth_type', oneOf: ['basic'] } as const

export const integrations = defineEntity({
  area: 'integration',
  name: 'integrations',
  model: 'integration',
  route: 'system/integration/integrations',
  label: { singular: t('Integração', 'Integration', 'Integración'), plural: t('Integrações', 'Integrations', 'Integraciones') },
  fields: [
    description(),
    isActive(),
    text('base_url', t('URL base', 'Base URL', 'URL base'), { required: true, validation: 'url', max: 500 }),
    choice(
      'auth_type',
      t('Autenticação', 'Authentication', 'Autenticación'),
      [
        opt('none', 'Nenhuma', 'None', 'Ninguna'),
        opt('basic', 'Usuário e senha (Basic)', 'Username and password (Basic)', 'Usuario y contraseña (Basic)'),
        opt('bearer', 'Token (Bearer)', 'Token (Bearer)', 'Token (Bearer)'),
        opt('header', 'Cabeçalho personalizado', 'Custom header', 'Encabezado personalizado'),
      ],
      { required: true, default: 'none' },
    ),
    text('username', t('Usuário', 'Username', 'Usuario'), { max: 150, ...when(AUTH_BASIC) }),
    secret('password', t('Senha', 'Password', 'Contraseña'), 'opaque', when(AUTH_BASIC)),
    text('header_name', t('Nome do cabeçalho', 'Header name', 'Nombre del encabezado'), { max: 100, ...when({ field: 'auth_type', oneOf: ['header'] }) }),
    secret('token', t('Token', 'Token', 'Token'), 'opaque', { max: 2048, ...when({ field: 'auth_type', oneOf: ['bearer', 'header'] }) }),
    integer('timeout', t('Tempo limite (segundos)', 'Time-out (seconds)', 'Tiempo límite (segundos)'), { default: 10, min: 1, max: 120 }),
    toggle('verify_tls', t('Verificar o certificado TLS', 'Verify the TLS certificate', 'Verificar el certificado TLS'), { default: true }),
    fk('proxy', t('Proxy', 'Proxy', 'Proxy'), 'integration.proxies'),
  ],
  list: { columns: ['id', 'is_active', 'description', 'base_url'] },
})

export const proxies = defineEntity({
  area: 'integration',
  name: 'proxies',
  model: 'proxy',
  route: 'system/integration/proxies',
  label: { singular: t('Proxy', 'Proxy', 'Proxy'), plural: t('Proxies', 'Proxies', 'Proxies') },
  fields: [
    description(),
    isActive(),
    choice(
      'protocol',
      t('Protocolo', 'Protocol', 'Protocolo'),
      [opt('http', 'HTTP', 'HTTP', 'HTTP'), opt('https', 'HTTPS', 'HTTPS', 'HTTPS'), opt('socks5', 'SOCKS5', 'SOCKS5', 'SOCKS5')],
      {
        required: true,
        default: 'http',
      },
    ),
    text('host', t('Servidor', 'Host', 'Servidor'), { required: true, validation: 'host' }),
    integer('port', t('Porta', 'Port', 'Puerto'), { required: true, default: 3128, min: 1, max: 65_535 }),
    text('username', t('Usuário', 'Username', 'Usuario'), { max: 150 }),
    secret('password', t('Senha', 'Password', 'Contraseña'), 'opaque'),
  ],
  list: { columns: ['id', 'is_active', 'description', 'host', 'port'] },
})

export const INTEGRATION = [events, integrations, proxies] as const
