import { CALL_DESTINATIONS, appPermissionFields } from './apps.ts'
import { defineEntity, opt, t } from './define.ts'
import { choice, datetime, description, destination, embed, fk, integer, isActive, items, many, parentRef, secret, text, toggle, when } from './fields.ts'
import { CODECS, DTMF_MODES, LANGUAGES, NO_LIMIT, RECORDING_MODES, SIP_TRANSPORTS } from './options.ts'

// Settings → PABX: SIP devices and trunks (what Kamailio authenticates and routes to), voicemail, call groups and
// detours. Media (sounds, music on hold, IVRs) is in pabx-media.ts; routes in pabx-routes.ts.

const GENERAL = t('Geral', 'General', 'General')
const MEDIA = t('Mídia', 'Media', 'Medios')
const LIMITS = t('Limites', 'Limits', 'Límites')
const FEATURES = t('Recursos', 'Features', 'Funciones')
const ALLOWED_IPS_HINT = t(
  'Endereços ou redes (CIDR) separados por vírgula; vazio = qualquer',
  'Addresses or networks (CIDR) separated by commas; empty = any',
  'Direcciones o redes (CIDR) separadas por comas; vacío = cualquiera',
)

/** A SIP account: the webphone's (WebSocket, DTLS-SRTP) or a desk phone's (UDP/TCP/TLS). */
export const devices = defineEntity({
  area: 'pabx',
  name: 'devices',
  model: 'device',
  route: 'pabx/devices',
  label: { singular: t('Ramal', 'Extension', 'Extensión'), plural: t('Ramais', 'Extensions', 'Extensiones') },
  fields: [
    description(),
    isActive(),
    text('username', t('Ramal (usuário SIP)', 'Extension (SIP username)', 'Extensión (usuario SIP)'), {
      required: true,
      max: 5,
      unique: true,
      searchable: true,
      validation: 'extension',
      hint: t('5 dígitos, de 10000 a 99999', '5 digits, 10000 to 99999', '5 dígitos, de 10000 a 99999'),
    }),
    secret('secret', t('Senha SIP', 'SIP password', 'Contraseña SIP'), 'ha1', { required: true, min: 8, max: 64 }),
    text('callerid_name', t('Nome exibido', 'Caller ID name', 'Nombre mostrado'), { max: 80 }),
    text('callerid_number', t('Número exibido', 'Caller ID number', 'Número mostrado'), { max: 20, validation: 'phone' }),
    choice('codecs', t('Codecs, em ordem de preferência', 'Codecs, in order of preference', 'Códecs, en orden de preferencia'), CODECS, {
      multiple: true,
      required: true,
      default: ['PCMU', 'PCMA'],
    }),
    choice('transport', t('Transporte', 'Transport', 'Transporte'), SIP_TRANSPORTS, { required: true, default: 'wss' }),
    toggle('webrtc', t('WebRTC (navegador)', 'WebRTC (browser)', 'WebRTC (navegador)'), {
      default: true,
      hint: t('DTLS-SRTP, ICE e rtcp-mux pelo rtpengine', 'DTLS-SRTP, ICE and rtcp-mux through rtpengine', 'DTLS-SRTP, ICE y rtcp-mux mediante rtpengine'),
    }),
    toggle('nat', t('Atrás de NAT', 'Behind NAT', 'Detrás de NAT'), { default: true }),
    choice('dtmf_mode', t('Modo DTMF', 'DTMF mode', 'Modo DTMF'), DTMF_MODES, { required: true, default: 'rfc4733' }),
    integer('max_contacts', t('Registros simultâneos', 'Simultaneous registrations', 'Registros simultáneos'), { default: 1, min: 1, max: 10 }),
    integer('max_concurrent_calls', t('Chamadas simultâneas', 'Concurrent calls', 'Llamadas simultáneas'), { default: 2, min: 1, max: 20 }),
    integer('device_state_busy_at', t('Ocupado a partir de (chamadas)', 'Busy from (calls)', 'Ocupado a partir de (llamadas)'), {
      default: 1,
      min: 1,
      max: 20,
      hint: t(
        'Com este número de chamadas ativas, novas chamadas são recusadas',
        'With this many active calls, new calls are refused',
        'Con este número de llamadas activas, las nuevas se rechazan',
      ),
    }),
    items('allowed_ips', t('IPs permitidos', 'Allowed IPs', 'IP permitidas'), ',', { hint: ALLOWED_IPS_HINT }),
    choice(
      'context',
      t('Pode ligar para', 'May call', 'Puede llamar a'),
      [
        opt('internal', 'Somente ramais', 'Extensions only', 'Solo extensiones'),
        opt('local', 'Ramais e locais', 'Extensions and local numbers', 'Extensiones y números locales'),
        opt('national', 'Nacionais', 'National numbers', 'Números nacionales'),
        opt('international', 'Internacionais', 'International numbers', 'Números internacionales'),
      ],
      { required: true, default: 'national' },
    ),
    many('outbound_routes', t('Rotas de saída', 'Outbound routes', 'Rutas de salida'), 'pabx.outbound-routes', {
      hint: t('Vazio = as rotas da equipe do usuário', "Empty = the user's team routes", 'Vacío = las rutas del equipo del usuario'),
    }),
    fk('voicemail', t('Correio de voz', 'Voicemail', 'Buzón de voz'), 'pabx.voicemails'),
    fk('moh', t('Música de espera', 'Music on hold', 'Música en espera'), 'pabx.moh'),
    choice('recording', t('Gravação', 'Recording', 'Grabación'), RECORDING_MODES, { required: true, default: 'never' }),
    choice('language', t('Idioma dos áudios', 'Prompt language', 'Idioma de los audios'), LANGUAGES, { required: true, default: 'pt-BR' }),
  ],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'username', 'secret', 'callerid_name', 'callerid_number'] },
      { key: 'media', label: MEDIA, fields: ['codecs', 'transport', 'webrtc', 'nat', 'dtmf_mode'] },
      { key: 'limits', label: LIMITS, fields: ['max_contacts', 'max_concurrent_calls', 'device_state_busy_at', 'allowed_ips'] },
      { key: 'features', label: FEATURES, fields: ['context', 'outbound_routes', 'voicemail', 'moh', 'recording', 'language'] },
    ],
  },
  list: { columns: ['id', 'is_active', 'description', 'username', 'transport'] },
})

const REGISTERING = { field: 'register', oneOf: [true] } as const

/** A SIP trunk (pages at /settings/pabx/routes/channels). */
export const trunks = defineEntity({
  area: 'pabx',
  name: 'trunks',
  model: 'trunk',
  route: 'pabx/routes/channels',
  label: { singular: t('Tronco', 'Trunk', 'Troncal'), plural: t('Troncos', 'Trunks', 'Troncales') },
  fields: [
    description(),
    isActive(),
    text('host', t('Servidor', 'Host', 'Servidor'), { required: true, validation: 'host', searchable: true }),
    integer('port', t('Porta', 'Port', 'Puerto'), { default: 5060, min: 1, max: 65_535 }),
    choice(
      'transport',
      t('Transporte', 'Transport', 'Transporte'),
      SIP_TRANSPORTS.filter((o) => ['udp', 'tcp', 'tls'].includes(String(o.value))),
      {
        required: true,
        default: 'udp',
      },
    ),
    text('outbound_proxy', t('Proxy de saída', 'Outbound proxy', 'Proxy de salida'), { validation: 'host' }),
    text('auth_username', t('Usuário de autenticação', 'Auth username', 'Usuario de autenticación'), { max: 80, requiredWhen: REGISTERING }),
    secret('auth_secret', t('Senha de autenticação', 'Auth password', 'Contraseña de autenticación'), 'opaque', { requiredWhen: REGISTERING }),
    text('from_user', t('Usuário no From', 'From user', 'Usuario en From'), { max: 80 }),
    text('from_domain', t('Domínio no From', 'From domain', 'Dominio en From'), { validation: 'host' }),
    toggle('register', t('Registrar no provedor', 'Register with the provider', 'Registrarse en el proveedor')),
    integer('registration_expiry', t('Validade do registro (segundos)', 'Registration expiry (seconds)', 'Caducidad del registro (segundos)'), {
      default: 3600,
      min: 60,
      max: 86_400,
      visibleWhen: REGISTERING,
    }),
    toggle('qualify', t('Monitorar com OPTIONS', 'Monitor with OPTIONS', 'Supervisar con OPTIONS'), { default: true }),
    text('caller_id_number', t('Número de origem', 'Caller ID number', 'Número de origen'), { max: 20, validation: 'phone' }),
    text('caller_id_name', t('Nome de origem', 'Caller ID name', 'Nombre de origen'), { max: 80 }),
    integer('max_channels', t('Máximo de canais', 'Maximum channels', 'Máximo de canales'), { default: 0, hint: NO_LIMIT }),
    choice('codecs', t('Codecs, em ordem de preferência', 'Codecs, in order of preference', 'Códecs, en orden de preferencia'), CODECS, {
      multiple: true,
      required: true,
      default: ['PCMA', 'PCMU'],
    }),
    choice('dtmf_mode', t('Modo DTMF', 'DTMF mode', 'Modo DTMF'), DTMF_MODES, { required: true, default: 'rfc4733' }),
    items('allowed_ips', t('IPs de origem das chamadas', 'Source IPs of calls', 'IP de origen de las llamadas'), ',', {
      hint: t(
        'Chamadas destes endereços chegam por este tronco; vazio = o servidor',
        'Calls from these addresses arrive through this trunk; empty = the host',
        'Las llamadas de estas direcciones llegan por esta troncal; vacío = el servidor',
      ),
    }),
  ],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'host', 'port', 'transport', 'outbound_proxy', 'allowed_ips'] },
      {
        key: 'auth',
        label: t('Autenticação', 'Authentication', 'Autenticación'),
        fields: ['auth_username', 'auth_secret', 'from_user', 'from_domain', 'register', 'registration_expiry', 'qualify'],
      },
      { key: 'calls', label: t('Chamadas', 'Calls', 'Llamadas'), fields: ['caller_id_number', 'caller_id_name', 'max_channels', 'codecs', 'dtmf_mode'] },
    ],
  },
  list: { columns: ['id', 'is_active', 'description', 'host', 'max_channels'] },
})

export const voicemails = defineEntity({
  area: 'pabx',
  name: 'voicemails',
  model: 'voicemail',
  route: 'pabx/voicemails',
  label: { singular: t('Correio de voz', 'Voicemail', 'Buzón de voz'), plural: t('Correios de voz', 'Voicemails', 'Buzones de voz') },
  fields: [
    description(),
    isActive(),
    text('mailbox', t('Caixa postal', 'Mailbox', 'Buzón'), { required: true, max: 20, unique: true, searchable: true }),
    secret('pin', t('Senha (PIN)', 'PIN', 'PIN'), 'opaque', { min: 4, max: 8 }),
    text('email', t('Enviar recados para o e-mail', 'Send messages to e-mail', 'Enviar mensajes al correo'), { validation: 'email', max: 254 }),
    toggle('attach_audio', t('Anexar o áudio ao e-mail', 'Attach the audio to the e-mail', 'Adjuntar el audio al correo'), { default: true }),
    toggle('delete_after_email', t('Apagar após enviar', 'Delete after sending', 'Borrar tras enviar')),
    fk('greeting', t('Saudação', 'Greeting', 'Saludo'), 'pabx.sounds-entries'),
    integer('max_message_seconds', t('Duração máxima do recado (segundos)', 'Maximum message length (seconds)', 'Duración máxima del mensaje (segundos)'), {
      default: 180,
      min: 10,
      max: 3600,
    }),
    integer('max_messages', t('Máximo de recados', 'Maximum messages', 'Máximo de mensajes'), { default: 100, min: 1, max: 10_000 }),
  ],
})

export const callGroups = defineEntity({
  area: 'pabx',
  name: 'call-groups',
  model: 'callgroup',
  route: 'pabx/call-groups',
  label: { singular: t('Grupo de chamada', 'Call group', 'Grupo de llamada'), plural: t('Grupos de chamada', 'Call groups', 'Grupos de llamada') },
  fields: [
    description(),
    isActive(),
    text('number', t('Número interno', 'Internal number', 'Número interno'), { max: 5, unique: true, validation: 'extension' }),
    choice(
      'strategy',
      t('Toque', 'Ringing', 'Timbre'),
      [
        opt('ringall', 'Todos ao mesmo tempo', 'All at once', 'Todos a la vez'),
        opt('linear', 'Um de cada vez, em ordem', 'One at a time, in order', 'Uno a la vez, en orden'),
      ],
      { required: true, default: 'ringall' },
    ),
    integer('ring_time', t('Tempo de toque (segundos)', 'Ring time (seconds)', 'Tiempo de timbre (segundos)'), { default: 20, min: 5, max: 300 }),
    destination('timeout_destination', t('Se ninguém atender', 'If nobody answers', 'Si nadie contesta'), 'pabx', CALL_DESTINATIONS),
    toggle('pickup', t('Captura entre membros', 'Pickup among members', 'Captura entre miembros'), { default: true }),
    fk('moh', t('Música de espera', 'Music on hold', 'Música en espera'), 'pabx.moh'),
    embed('members', t('Membros', 'Members', 'Miembros'), 'pabx.call-group-members'),
    embed('permissions', t('Permissões', 'Permissions', 'Permisos'), 'pabx.call-group-permissions'),
  ],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'number', 'strategy', 'ring_time', 'timeout_destination', 'pickup', 'moh'] },
      { key: 'members', label: t('Membros', 'Members', 'Miembros'), fields: ['members'] },
      { key: 'permissions', label: t('Permissões', 'Permissions', 'Permisos'), fields: ['permissions'] },
    ],
  },
})

export const callGroupMembers = defineEntity({
  area: 'pabx',
  name: 'call-group-members',
  model: 'callgroupmember',
  route: 'pabx/call-groups/$id/membership',
  itemParam: 'gid',
  parent: { entity: 'pabx.call-groups', field: 'call_group' },
  label: { singular: t('Membro do grupo', 'Group member', 'Miembro del grupo'), plural: t('Membros do grupo', 'Group members', 'Miembros del grupo') },
  titleField: 'device',
  fields: [
    parentRef('call_group', t('Grupo de chamada', 'Call group', 'Grupo de llamada'), 'pabx.call-groups'),
    isActive(),
    fk('device', t('Ramal', 'Extension', 'Extensión'), 'pabx.devices', { kind: 'autocomplete', required: true, onDelete: 'cascade' }),
    integer('order', t('Ordem', 'Order', 'Orden'), { default: 0 }),
  ],
  list: { columns: ['id', 'is_active', 'device', 'order'], ordering: ['order', 'id'] },
  uniqueTogether: [['call_group', 'device']],
})

export const callGroupPermissions = defineEntity({
  area: 'pabx',
  name: 'call-group-permissions',
  model: 'callgrouppermission',
  route: 'pabx/call-groups/$id/permissions',
  itemParam: 'gid',
  parent: { entity: 'pabx.call-groups', field: 'call_group' },
  label: {
    singular: t('Permissão do grupo', 'Group permission', 'Permiso del grupo'),
    plural: t('Permissões do grupo', 'Group permissions', 'Permisos del grupo'),
  },
  titleField: 'destination',
  fields: appPermissionFields('call_group', t('Grupo de chamada', 'Call group', 'Grupo de llamada'), 'pabx.call-groups'),
  list: { columns: ['id', 'is_active', 'destination', 'allow_call', 'allow_transfer'] },
  uniqueTogether: [['call_group', 'destination']],
})

/** Call forwarding of an extension: always, when busy, unanswered or unreachable; optionally within a calendar. */
export const detours = defineEntity({
  area: 'pabx',
  name: 'detours',
  model: 'detour',
  route: 'pabx/detours',
  label: { singular: t('Desvio', 'Call forwarding', 'Desvío'), plural: t('Desvios', 'Call forwardings', 'Desvíos') },
  fields: [
    description(),
    isActive(),
    fk('device', t('Ramal', 'Extension', 'Extensión'), 'pabx.devices', { kind: 'autocomplete', required: true, onDelete: 'cascade' }),
    choice(
      'condition',
      t('Quando', 'When', 'Cuándo'),
      [
        opt('always', 'Sempre', 'Always', 'Siempre'),
        opt('busy', 'Ocupado', 'Busy', 'Ocupado'),
        opt('no_answer', 'Não atende', 'No answer', 'No contesta'),
        opt('unavailable', 'Indisponível', 'Unavailable', 'No disponible'),
      ],
      { required: true, default: 'always' },
    ),
    integer('ring_time', t('Tocar antes de desviar (segundos)', 'Ring before forwarding (seconds)', 'Sonar antes de desviar (segundos)'), {
      default: 20,
      min: 5,
      max: 300,
      ...when({ field: 'condition', oneOf: ['no_answer'] }),
    }),
    destination('destination', t('Destino', 'Destination', 'Destino'), 'pabx', ['pjsip', 'callgroup', 'queue', 'voicemail', 'ivrbasic', 'number'], {
      required: true,
    }),
    fk('calendar', t('Somente no horário do calendário', "Only within the calendar's hours", 'Solo en el horario del calendario'), 'service.calendars'),
    datetime('starts_at', t('A partir de', 'From', 'Desde')),
    datetime('ends_at', t('Até', 'Until', 'Hasta')),
  ],
  list: { columns: ['id', 'is_active', 'description', 'device', 'condition'] },
})

export const PABX = [devices, trunks, voicemails, callGroups, callGroupMembers, callGroupPermissions, detours] as const
