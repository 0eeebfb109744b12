import { CHAT_DESTINATIONS } from './apps.ts'
import { defineEntity, opt, t } from './define.ts'
import { choice, color, description, destination, fk, integer, isActive, items, many, rows, secret, text, textarea, toggle, upload, when } from './fields.ts'
import type { Condition } from './types.ts'

// Settings → chat: channels (WhatsApp Cloud API numbers and website widgets), where their chats go (inbounds, flows,
// bots), canned messages and WhatsApp templates. The chat queues are in service-queues.ts.

const GENERAL = t('Geral', 'General', 'General')
const WHATSAPP: Condition = { field: 'type', oneOf: ['whatsapp'] }
const WIDGET: Condition = { field: 'type', oneOf: ['webchat'] }

export const bots = defineEntity({
  area: 'chat',
  name: 'bots',
  model: 'bot',
  route: 'chat/bots',
  label: { singular: t('Robô', 'Bot', 'Bot'), plural: t('Robôs', 'Bots', 'Bots') },
  fields: [
    description(),
    isActive(),
    text('url', t('URL do webhook', 'Webhook URL', 'URL del webhook'), {
      required: true,
      validation: 'url',
      max: 500,
      hint: t(
        'Recebe cada mensagem do cliente e responde com mensagens ou um destino',
        'Receives each client message and answers with messages or a destination',
        'Recibe cada mensaje del cliente y responde con mensajes o un destino',
      ),
    }),
    secret('auth_token', t('Token de autenticação', 'Auth token', 'Token de autenticación'), 'opaque', { max: 512 }),
    integer('timeout', t('Tempo de resposta (segundos)', 'Response time-out (seconds)', 'Tiempo de respuesta (segundos)'), { default: 10, min: 1, max: 60 }),
    destination(
      'fallback',
      t('Destino se o robô falhar', 'Destination if the bot fails', 'Destino si el bot falla'),
      'chat',
      ['queue', 'message', 'flow', 'close'],
      {
        required: true,
        default: { app: 'close', appdata: '' },
      },
    ),
  ],
})

export const channels = defineEntity({
  area: 'chat',
  name: 'channels',
  model: 'channel',
  route: 'chat/channels',
  label: { singular: t('Canal', 'Channel', 'Canal'), plural: t('Canais', 'Channels', 'Canales') },
  fields: [
    description(),
    isActive(),
    choice(
      'type',
      t('Tipo', 'Type', 'Tipo'),
      [
        opt('whatsapp', 'WhatsApp (Cloud API)', 'WhatsApp (Cloud API)', 'WhatsApp (Cloud API)'),
        opt('webchat', 'Widget do site', 'Website widget', 'Widget del sitio web'),
      ],
      { required: true, default: 'whatsapp' },
    ),
    // WhatsApp Cloud API (WHATSAPP.md): webhooks are routed on phone_number_id, signed with the app secret and
    // verified with the channel's own verify token; messages are sent with the access token.
    text('phone_number', t('Número exibido', 'Display number', 'Número mostrado'), { max: 20, validation: 'phone', ...when(WHATSAPP) }),
    text('phone_number_id', t('ID do número (phone_number_id)', 'Phone number ID', 'ID del número (phone_number_id)'), {
      max: 64,
      unique: true,
      ...when(WHATSAPP),
    }),
    text('waba_id', t('ID da conta WhatsApp Business', 'WhatsApp Business account ID', 'ID de la cuenta de WhatsApp Business'), { max: 64, ...when(WHATSAPP) }),
    secret('access_token', t('Token de acesso', 'Access token', 'Token de acceso'), 'opaque', { max: 1024, ...when(WHATSAPP) }),
    secret('app_secret', t('Chave secreta do app (assinatura)', 'App secret (signature)', 'Clave secreta de la app (firma)'), 'opaque', { ...when(WHATSAPP) }),
    text('verify_token', t('Token de verificação do webhook', 'Webhook verify token', 'Token de verificación del webhook'), { max: 128, ...when(WHATSAPP) }),
    text('api_version', t('Versão da Graph API', 'Graph API version', 'Versión de la Graph API'), { max: 10, default: 'v23.0', visibleWhen: WHATSAPP }),
    text('graph_url', t('Endereço da Graph API', 'Graph API address', 'Dirección de la Graph API'), {
      validation: 'url',
      max: 255,
      default: 'https://graph.facebook.com',
      visibleWhen: WHATSAPP,
      hint: t('Altere apenas para usar o simulador local', 'Change only to use the local simulator', 'Cámbielo solo para usar el simulador local'),
    }),
    // WHATSAPP.md §A1.9: 80 by default, up to 1,000 for an upgraded number, 20 in coexistence with the Business app.
    integer('messages_per_second', t('Mensagens por segundo', 'Messages per second', 'Mensajes por segundo'), {
      default: 80,
      min: 1,
      max: 1000,
      visibleWhen: WHATSAPP,
      hint: t(
        'Vazão do número na Meta: 80 por padrão, até 1.000 em números promovidos, 20 em coexistência',
        "The number's throughput at Meta: 80 by default, up to 1,000 for upgraded numbers, 20 in coexistence",
        'Capacidad del número en Meta: 80 por defecto, hasta 1.000 en números promovidos, 20 en coexistencia',
      ),
    }),
    // Website widget.
    text('widget_title', t('Título do widget', 'Widget title', 'Título del widget'), { max: 60, ...when(WIDGET) }),
    color('widget_color', t('Cor do widget', 'Widget colour', 'Color del widget'), { default: '#1976d2', visibleWhen: WIDGET }),
    upload('widget_logo', t('Logo do widget', 'Widget logo', 'Logo del widget'), 'image/png,image/jpeg,image/svg+xml,image/webp', { visibleWhen: WIDGET }),
    textarea('welcome_message', t('Mensagem de boas-vindas', 'Welcome message', 'Mensaje de bienvenida'), { max: 1024, visibleWhen: WIDGET }),
    textarea('offline_message', t('Mensagem fora do horário', 'Offline message', 'Mensaje fuera de horario'), { max: 1024, visibleWhen: WIDGET }),
    items('allowed_domains', t('Domínios permitidos', 'Allowed domains', 'Dominios permitidos'), ',', {
      visibleWhen: WIDGET,
      hint: t(
        'Sites onde o widget pode ser embutido, separados por vírgula',
        'Sites that may embed the widget, comma-separated',
        'Sitios que pueden insertar el widget, separados por comas',
      ),
    }),
    toggle('require_name', t('Pedir o nome', 'Ask for the name', 'Pedir el nombre'), { default: true, visibleWhen: WIDGET }),
    toggle('require_email', t('Pedir o e-mail', 'Ask for the e-mail', 'Pedir el correo'), { visibleWhen: WIDGET }),
    toggle('require_phone', t('Pedir o telefone', 'Ask for the phone', 'Pedir el teléfono'), { visibleWhen: WIDGET }),
    // What the console offers in this channel's chats (spec 001 §3 `compatibility`).
    toggle('send_attachment', t('Enviar anexos', 'Send attachments', 'Enviar adjuntos'), { default: true }),
    toggle('emoji', t('Emojis', 'Emoji', 'Emojis'), { default: true }),
    toggle('send_voice', t('Enviar áudio gravado', 'Send voice notes', 'Enviar notas de voz'), { default: true }),
    toggle('show_message_status', t('Mostrar status das mensagens', 'Show message status', 'Mostrar el estado de los mensajes'), { default: true }),
    toggle('btn_template', t('Enviar templates', 'Send templates', 'Enviar plantillas'), { default: true, visibleWhen: WHATSAPP }),
    toggle('btn_dial', t('Botão de ligar', 'Call button', 'Botón de llamar'), { default: true }),
  ],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'type'] },
      {
        key: 'whatsapp',
        label: t('WhatsApp', 'WhatsApp', 'WhatsApp'),
        fields: ['phone_number', 'phone_number_id', 'waba_id', 'access_token', 'app_secret', 'verify_token', 'api_version', 'graph_url', 'messages_per_second'],
      },
      {
        key: 'widget',
        label: t('Widget', 'Widget', 'Widget'),
        fields: [
          'widget_title',
          'widget_color',
          'widget_logo',
          'welcome_message',
          'offline_message',
          'allowed_domains',
          'require_name',
          'require_email',
          'require_phone',
        ],
      },
      {
        key: 'options',
        label: t('Opções', 'Options', 'Opciones'),
        fields: ['send_attachment', 'emoji', 'send_voice', 'show_message_status', 'btn_template', 'btn_dial'],
      },
    ],
  },
  list: { columns: ['id', 'is_active', 'description', 'type', 'phone_number'] },
})

/** A menu for chats, the chat twin of an IVR: a welcome text, numbered options and where each leads. */
export const flows = defineEntity({
  area: 'chat',
  name: 'flows',
  model: 'flow',
  route: 'chat/flows',
  label: { singular: t('Fluxo', 'Flow', 'Flujo'), plural: t('Fluxos', 'Flows', 'Flujos') },
  fields: [
    description(),
    isActive(),
    textarea('welcome_message', t('Mensagem inicial', 'Opening message', 'Mensaje inicial'), { required: true, max: 1024 }),
    rows('options', t('Opções', 'Options', 'Opciones'), [
      text('key', t('Resposta', 'Answer', 'Respuesta'), { required: true, max: 10, unique: true }),
      text('label', t('Texto da opção', 'Option text', 'Texto de la opción'), { required: true, max: 100 }),
      destination('destination', t('Destino', 'Destination', 'Destino'), 'chat', CHAT_DESTINATIONS, { required: true }),
    ]),
    textarea('invalid_message', t('Mensagem de opção inválida', 'Invalid option message', 'Mensaje de opción no válida'), { max: 1024 }),
    integer('timeout', t('Tempo para responder (segundos)', 'Time to answer (seconds)', 'Tiempo para responder (segundos)'), {
      default: 300,
      min: 10,
      max: 86_400,
    }),
    integer('repeat_count', t('Repetições', 'Repeats', 'Repeticiones'), { default: 3, max: 10 }),
    destination('timeout_destination', t('Destino sem resposta', 'Destination without an answer', 'Destino sin respuesta'), 'chat', CHAT_DESTINATIONS, {
      required: true,
      default: { app: 'close', appdata: '' },
    }),
  ],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'welcome_message'] },
      { key: 'options', label: t('Opções', 'Options', 'Opciones'), fields: ['options', 'invalid_message'] },
      { key: 'timeout', label: t('Tempo esgotado', 'Time-out', 'Tiempo agotado'), fields: ['timeout', 'repeat_count', 'timeout_destination'] },
    ],
  },
})

/** A group of canned messages, offered to some teams. */
export const chatGroups = defineEntity({
  area: 'chat',
  name: 'groups',
  model: 'group',
  route: 'chat/groups',
  label: { singular: t('Grupo de mensagens', 'Message group', 'Grupo de mensajes'), plural: t('Grupos de mensagens', 'Message groups', 'Grupos de mensajes') },
  fields: [
    description(),
    isActive(),
    many('teams', t('Equipes', 'Teams', 'Equipos'), 'service.teams', {
      title: 'name',
      hint: t('Vazio = todas as equipes', 'Empty = every team', 'Vacío = todos los equipos'),
    }),
  ],
})

/** Where a channel's new chats go, inside or outside a calendar's hours. */
export const inbounds = defineEntity({
  area: 'chat',
  name: 'inbounds',
  model: 'inbound',
  route: 'chat/inbounds',
  label: { singular: t('Entrada de chat', 'Chat inbound route', 'Entrada de chat'), plural: t('Entradas de chat', 'Chat inbound routes', 'Entradas de chat') },
  fields: [
    description(),
    isActive(),
    fk('channel', t('Canal', 'Channel', 'Canal'), 'chat.channels', { required: true, unique: true }),
    destination('destination', t('Destino', 'Destination', 'Destino'), 'chat', CHAT_DESTINATIONS, { required: true }),
    fk('calendar', t('Calendário de atendimento', 'Business-hours calendar', 'Calendario de atención'), 'service.calendars'),
    destination(
      'closed_destination',
      t('Destino fora do horário', 'Out-of-hours destination', 'Destino fuera de horario'),
      'chat',
      CHAT_DESTINATIONS,
      when({ field: 'calendar', setAndNot: [] }),
    ),
  ],
  list: { columns: ['id', 'is_active', 'description', 'channel', 'destination'] },
})

/** A canned message: sent by agents with its shortcut, or by flows and queues as a destination. */
export const messages = defineEntity({
  area: 'chat',
  name: 'messages',
  model: 'message',
  route: 'chat/messages',
  label: {
    singular: t('Mensagem pronta', 'Canned message', 'Mensaje predefinido'),
    plural: t('Mensagens prontas', 'Canned messages', 'Mensajes predefinidos'),
  },
  fields: [
    description(),
    isActive(),
    fk('group', t('Grupo', 'Group', 'Grupo'), 'chat.groups'),
    text('shortcut', t('Atalho', 'Shortcut', 'Atajo'), {
      max: 30,
      unique: true,
      searchable: true,
      hint: t('Ex.: /bomdia', 'E.g. /goodmorning', 'P. ej. /buenosdias'),
    }),
    textarea('content', t('Conteúdo', 'Content', 'Contenido'), { required: true, max: 4096, searchable: true }),
    upload('attachment', t('Anexo', 'Attachment', 'Adjunto'), 'image/*,video/*,audio/*,application/pdf'),
  ],
})

const MEDIA_TEMPLATE: Condition = { field: 'template_type', oneOf: ['IMAGE', 'VIDEO'] }

/** An approved WhatsApp template (spec 001 §3), the only thing that may reopen a chat past its 24-hour window. */
export const templates = defineEntity({
  area: 'chat',
  name: 'templates',
  model: 'template',
  route: 'chat/templates',
  label: { singular: t('Template', 'Template', 'Plantilla'), plural: t('Templates', 'Templates', 'Plantillas') },
  fields: [
    description({
      label: t('Nome do template', 'Template name', 'Nombre de la plantilla'),
      max: 512,
      hint: t('Exatamente o nome aprovado pela Meta', 'Exactly the name Meta approved', 'Exactamente el nombre aprobado por Meta'),
    }),
    isActive(),
    fk('channel', t('Canal', 'Channel', 'Canal'), 'chat.channels', { required: true }),
    choice(
      'language',
      t('Idioma', 'Language', 'Idioma'),
      [
        opt('pt_BR', 'Português (Brasil)', 'Portuguese (Brazil)', 'Portugués (Brasil)'),
        opt('en_US', 'Inglês (EUA)', 'English (US)', 'Inglés (EE. UU.)'),
        opt('es_ES', 'Espanhol (Espanha)', 'Spanish (Spain)', 'Español (España)'),
      ],
      {
        required: true,
        default: 'pt_BR',
      },
    ),
    choice(
      'category',
      t('Categoria', 'Category', 'Categoría'),
      [
        opt('UTILITY', 'Utilidade', 'Utility', 'Utilidad'),
        opt('MARKETING', 'Marketing', 'Marketing', 'Marketing'),
        opt('AUTHENTICATION', 'Autenticação', 'Authentication', 'Autenticación'),
      ],
      {
        required: true,
        default: 'UTILITY',
      },
    ),
    choice(
      'template_type',
      t('Tipo', 'Type', 'Tipo'),
      [opt('TEXT', 'Texto', 'Text', 'Texto'), opt('IMAGE', 'Imagem', 'Image', 'Imagen'), opt('VIDEO', 'Vídeo', 'Video', 'Vídeo')],
      {
        required: true,
        default: 'TEXT',
      },
    ),
    upload('media', t('Mídia do cabeçalho', 'Header media', 'Medio del encabezado'), 'image/jpeg,image/png,video/mp4', { visibleWhen: MEDIA_TEMPLATE }),
    textarea('content', t('Conteúdo', 'Content', 'Contenido'), {
      required: true,
      max: 1024,
      hint: t('Parâmetros como {{1}}, na ordem aprovada', 'Parameters as {{1}}, in the approved order', 'Parámetros como {{1}}, en el orden aprobado'),
    }),
    rows('params', t('Parâmetros', 'Parameters', 'Parámetros'), [
      text('name', t('Nome', 'Name', 'Nombre'), { required: true, max: 50, unique: true }),
      text('value', t('Valor padrão', 'Default value', 'Valor predeterminado'), { max: 255 }),
    ]),
    many('teams', t('Equipes', 'Teams', 'Equipos'), 'service.teams', {
      title: 'name',
      hint: t('Vazio = todas as equipes', 'Empty = every team', 'Vacío = todos los equipos'),
    }),
  ],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'channel', 'language', 'category', 'teams'] },
      { key: 'content', label: t('Conteúdo', 'Content', 'Contenido'), fields: ['template_type', 'media', 'content', 'params'] },
    ],
  },
  list: { columns: ['id', 'is_active', 'description', 'channel', 'template_type'] },
})

export const CHAT = [bots, channels, flows, chatGroups, inbounds, messages, templates] as const
