import { appPermissionFields } from './apps.ts'
import { defineEntity, opt, t } from './define.ts'
import { choice, color, datetime, decimal, description, embed, fk, hour, integer, isActive, items, many, rows, text, toggle, when } from './fields.ts'
import { AFTER_SERVICE_MODE_OPTIONS, CHANNELS, CLASSIFICATION_KINDS, WEEKDAYS } from './options.ts'

// Settings → service: how agents work (teams, pauses, calendars, forms, blocked numbers, KPIs, operations).

export const blacklists = defineEntity({
  area: 'service',
  name: 'blacklists',
  model: 'blacklist',
  route: 'service/blacklists',
  label: { singular: t('Lista de bloqueio', 'Blocklist', 'Lista de bloqueo'), plural: t('Listas de bloqueio', 'Blocklists', 'Listas de bloqueo') },
  fields: [
    description(),
    isActive(),
    // Spec 000 §5: complete numbers (country code, area code, number), comma-separated.
    items('phones', t('Telefones', 'Phones', 'Teléfonos'), ',', {
      required: true,
      max: 65_535,
      validation: 'phones-list',
      searchable: true,
      hint: t(
        'Números completos (código do país, DDD e número) separados por vírgula, ex.: 5511999998888',
        'Complete numbers (country code, area code, number) separated by commas, e.g. 5511999998888',
        'Números completos (código de país, código de área y número) separados por comas, p. ej. 5511999998888',
      ),
    }),
    choice(
      'direction',
      t('Bloquear chamadas', 'Block calls', 'Bloquear llamadas'),
      [
        opt('both', 'Recebidas e realizadas', 'Inbound and outbound', 'Entrantes y salientes'),
        opt('inbound', 'Recebidas', 'Inbound', 'Entrantes'),
        opt('outbound', 'Realizadas', 'Outbound', 'Salientes'),
      ],
      { required: true, default: 'both' },
    ),
    datetime('expires_at', t('Válida até', 'Valid until', 'Válida hasta'), { hint: t('Vazio = sem validade', 'Empty = never expires', 'Vacío = no caduca') }),
  ],
  importable: { columns: ['description', 'phones', 'direction'] },
})

export const calendars = defineEntity({
  area: 'service',
  name: 'calendars',
  model: 'calendar',
  route: 'service/calendars',
  label: { singular: t('Calendário', 'Calendar', 'Calendario'), plural: t('Calendários', 'Calendars', 'Calendarios') },
  fields: [
    description(),
    isActive(),
    text('timezone', t('Fuso horário', 'Time zone', 'Zona horaria'), { required: true, max: 64, default: 'America/Sao_Paulo' }),
    rows('hours', t('Horário de atendimento', 'Business hours', 'Horario de atención'), [
      choice('weekday', t('Dia da semana', 'Weekday', 'Día de la semana'), WEEKDAYS, { required: true }),
      hour('start', t('Início', 'Start', 'Inicio'), { required: true }),
      hour('end', t('Fim', 'End', 'Fin'), { required: true }),
    ]),
    rows('holidays', t('Feriados', 'Holidays', 'Festivos'), [
      text('description', t('Descrição', 'Description', 'Descripción'), { required: true }),
      datetime('start', t('Início', 'Start', 'Inicio'), { required: true }),
      datetime('end', t('Fim', 'End', 'Fin'), { required: true }),
      toggle('yearly', t('Repete todo ano', 'Repeats every year', 'Se repite cada año')),
    ]),
  ],
  form: {
    tabs: [
      { key: 'general', label: t('Geral', 'General', 'General'), fields: ['description', 'is_active', 'timezone'] },
      { key: 'hours', label: t('Horários', 'Hours', 'Horarios'), fields: ['hours'] },
      { key: 'holidays', label: t('Feriados', 'Holidays', 'Festivos'), fields: ['holidays'] },
    ],
  },
})

/** The form builder's field types (spec 001 §3), with the names administrators see. */
const FORM_FIELD_TYPES = [
  opt('text', 'Texto curto', 'Short text', 'Texto corto'),
  opt('textarea', 'Texto longo', 'Long text', 'Texto largo'),
  opt('number', 'Número', 'Number', 'Número'),
  opt('switch', 'Interruptor', 'Switch', 'Interruptor'),
  opt('select', 'Seleção', 'Selection', 'Selección'),
  opt('combobox', 'Combobox', 'Combobox', 'Combobox'),
  opt('autocomplete', 'Autocompletar', 'Autocomplete', 'Autocompletar'),
  opt('api', 'API', 'API', 'API'),
  opt('cpf', 'CPF', 'CPF', 'CPF'),
  opt('cnpj', 'CNPJ', 'CNPJ', 'CNPJ'),
  opt('file', 'Arquivo', 'File', 'Archivo'),
  opt('datetimepicker', 'Data', 'Date', 'Fecha'),
  opt('hidden', 'Oculto', 'Hidden', 'Oculto'),
  opt('popup', 'Popup', 'Pop-up', 'Ventana emergente'),
]

/** Show a builder attribute only for the field types it applies to. */
const forTypes = (...types: string[]) => ({ field: 'type', oneOf: types }) as const
const CHOICE_TYPES = ['select', 'autocomplete', 'api']
const LIST_TYPES = [...CHOICE_TYPES, 'combobox']

export const forms = defineEntity({
  area: 'service',
  name: 'forms',
  model: 'form',
  route: 'service/forms',
  label: { singular: t('Formulário', 'Form', 'Formulario'), plural: t('Formulários', 'Forms', 'Formularios') },
  fields: [
    description(),
    isActive(),
    // Spec 001 §3 "form field definition"; §5: name and label required. The spec's returnObject, returnToString and
    // date format are return_object, return_to_string and date_format here (API names are snake_case).
    // src/features/settings/formBuilder/builderFields.ts turns a row into the renderer's field.
    rows('fields', t('Campos', 'Fields', 'Campos'), [
      text('name', t('Nome', 'Name', 'Nombre'), { required: true, max: 50, unique: true }),
      text('label', t('Rótulo', 'Label', 'Etiqueta'), { required: true, max: 100 }),
      choice('type', t('Tipo', 'Type', 'Tipo'), FORM_FIELD_TYPES, { required: true, default: 'text' }),
      text('tab', t('Aba', 'Tab', 'Pestaña'), { max: 50 }),
      choice('cols', t('Largura', 'Width', 'Ancho'), [opt(6, 'Meia linha', 'Half row', 'Media fila'), opt(12, 'Linha inteira', 'Full row', 'Fila completa')], {
        default: 12,
      }),
      toggle('required', t('Obrigatório', 'Required', 'Obligatorio')),
      toggle('readonly', t('Somente leitura', 'Read-only', 'Solo lectura')),
      toggle('multiple', t('Múltiplo', 'Multiple', 'Múltiple'), { visibleWhen: forTypes(...CHOICE_TYPES) }),
      integer('min', t('Mínimo', 'Minimum', 'Mínimo')),
      integer('max', t('Máximo', 'Maximum', 'Máximo')),
      text('value', t('Valor padrão', 'Default value', 'Valor predeterminado'), {
        hint: t(
          'No Pop-up, o endereço que ele abre; {nome} é trocado pelo valor do campo nome',
          'For a pop-up, the address it opens; {name} is replaced by the value of the field name',
          'En la ventana emergente, la dirección que abre; {nombre} se sustituye por el valor del campo nombre',
        ),
      }),
      items('options', t('Opções', 'Options', 'Opciones'), ';', {
        visibleWhen: forTypes('select', 'combobox', 'autocomplete'),
        requiredWhen: forTypes('select'),
        hint: t('valor=Texto, ou só o valor', 'value=Text, or just the value', 'valor=Texto, o solo el valor'),
      }),
      text('mask', t('Máscara', 'Mask', 'Máscara'), { max: 50, visibleWhen: forTypes('text') }),
      choice('validation', t('Validação', 'Validation', 'Validación'), [
        opt('phone', 'Telefone', 'Phone', 'Teléfono'),
        opt('cpf', 'CPF', 'CPF', 'CPF'),
        opt('cnpj', 'CNPJ', 'CNPJ', 'CNPJ'),
        opt('email', 'E-mail', 'E-mail', 'Correo electrónico'),
      ]),
      choice('delimiters', t('Separador', 'Separator', 'Separador'), [opt(';', ';', ';', ';'), opt(',', ',', ',', ',')], {
        visibleWhen: forTypes(...LIST_TYPES),
      }),
      text('api', t('API', 'API', 'API'), { max: 255, visibleWhen: forTypes('api', 'autocomplete'), requiredWhen: forTypes('api') }),
      toggle('return_object', t('Retornar objeto', 'Return object', 'Devolver objeto'), {
        visibleWhen: forTypes(...CHOICE_TYPES),
        hint: t(
          'O valor é a opção escolhida, {value, text}, e não só o seu valor',
          'The value is the chosen option, {value, text}, not just its value',
          'El valor es la opción elegida, {value, text}, y no solo su valor',
        ),
      }),
      toggle('return_to_string', t('Retornar como texto', 'Return as text', 'Devolver como texto'), {
        visibleWhen: forTypes(...LIST_TYPES),
        hint: t(
          'Vários itens vão num único texto, unidos pelo separador (vírgula por padrão)',
          'Several items go as one text, joined by the separator (comma by default)',
          'Varios elementos van en un único texto, unidos por el separador (coma por defecto)',
        ),
      }),
      text('date_format', t('Formato da data', 'Date format', 'Formato de fecha'), {
        max: 50,
        validation: 'date-format',
        visibleWhen: forTypes('datetimepicker'),
        hint: t(
          'Formato dayjs em que a data é mostrada e enviada, ex.: DD/MM/YYYY HH:mm; vazio = ISO 8601',
          'dayjs format the date is shown and sent in, e.g. DD/MM/YYYY HH:mm; empty = ISO 8601',
          'Formato dayjs en que se muestra y envía la fecha, p. ej. DD/MM/YYYY HH:mm; vacío = ISO 8601',
        ),
      }),
      // The three below act in the agent's call and chat forms only (the settings renderer has no call or chat to
      // act on): the answer stored encrypted, a button that calls or opens a chat with the field's phone.
      toggle('cryptography', t('Criptografado', 'Encrypted', 'Cifrado'), {
        visibleWhen: forTypes('text', 'textarea', 'number', 'cpf', 'cnpj', 'hidden'),
        hint: t(
          'Nos formulários de chamada e chat, a resposta é guardada criptografada',
          'In call and chat forms, the answer is stored encrypted',
          'En los formularios de llamada y chat, la respuesta se guarda cifrada',
        ),
      }),
      toggle('btn_phone', t('Botão de ligar', 'Call button', 'Botón de llamar'), {
        visibleWhen: forTypes('text', 'number'),
        hint: t(
          'Nos formulários de chamada e chat, um botão liga para o telefone do campo',
          "In call and chat forms, a button calls the field's phone number",
          'En los formularios de llamada y chat, un botón llama al teléfono del campo',
        ),
      }),
      toggle('btn_chat', t('Botão de chat', 'Chat button', 'Botón de chat'), {
        visibleWhen: forTypes('text', 'number'),
        hint: t(
          'Nos formulários de chamada e chat, um botão abre uma conversa com o telefone do campo',
          "In call and chat forms, a button opens a chat with the field's phone number",
          'En los formularios de llamada y chat, un botón abre una conversación con el teléfono del campo',
        ),
      }),
    ]),
  ],
  form: {
    tabs: [
      { key: 'general', label: t('Geral', 'General', 'General'), fields: ['description', 'is_active'] },
      { key: 'fields', label: t('Campos', 'Fields', 'Campos'), fields: ['fields'] },
    ],
  },
})

export const kpi = defineEntity({
  area: 'service',
  name: 'kpi',
  model: 'kpi',
  route: 'service/kpi',
  label: { singular: t('Indicador (KPI)', 'KPI', 'Indicador (KPI)'), plural: t('Indicadores (KPI)', 'KPIs', 'Indicadores (KPI)') },
  fields: [
    description(),
    isActive(),
    choice(
      'metric',
      t('Métrica', 'Metric', 'Métrica'),
      [
        opt('service_level', 'Nível de serviço', 'Service level', 'Nivel de servicio'),
        opt('abandonment_rate', 'Taxa de abandono', 'Abandonment rate', 'Tasa de abandono'),
        opt('average_wait_time', 'Tempo médio de espera', 'Average wait time', 'Tiempo medio de espera'),
        opt('average_handle_time', 'Tempo médio de atendimento', 'Average handle time', 'Tiempo medio de atención'),
        opt('occupancy', 'Ocupação', 'Occupancy', 'Ocupación'),
        opt('nps', 'NPS', 'NPS', 'NPS'),
      ],
      { required: true },
    ),
    choice('channel', t('Canal', 'Channel', 'Canal'), CHANNELS, { required: true, default: 'telephony' }),
    many('queues', t('Filas de telefonia', 'Telephony queues', 'Colas de telefonía'), 'pabx.queues', {
      visibleWhen: { field: 'channel', oneOf: ['telephony'] },
    }),
    many('chat_queues', t('Filas de chat', 'Chat queues', 'Colas de chat'), 'chat.queues', { visibleWhen: { field: 'channel', oneOf: ['chat'] } }),
    integer('service_level_seconds', t('Atendidas em até (segundos)', 'Answered within (seconds)', 'Atendidas en hasta (segundos)'), {
      default: 20,
      ...when({ field: 'metric', oneOf: ['service_level'] }),
    }),
    decimal('target', t('Meta', 'Target', 'Meta'), { required: true }),
    decimal('warning', t('Alerta a partir de', 'Warn from', 'Alerta a partir de')),
    toggle('higher_is_better', t('Quanto maior, melhor', 'Higher is better', 'Cuanto mayor, mejor'), { default: true }),
    choice(
      'period',
      t('Período', 'Period', 'Período'),
      [opt('day', 'Dia', 'Day', 'Día'), opt('week', 'Semana', 'Week', 'Semana'), opt('month', 'Mês', 'Month', 'Mes')],
      { required: true, default: 'day' },
    ),
  ],
})

export const operations = defineEntity({
  area: 'service',
  name: 'operations',
  model: 'operation',
  route: 'service/operations',
  label: { singular: t('Operação', 'Operation', 'Operación'), plural: t('Operações', 'Operations', 'Operaciones') },
  fields: [
    description(),
    isActive(),
    fk('contract', t('Contrato', 'Contract', 'Contrato'), 'business.contracts'),
    fk('department', t('Departamento', 'Department', 'Departamento'), 'business.departments'),
    fk('calendar', t('Calendário', 'Calendar', 'Calendario'), 'service.calendars'),
    many('teams', t('Equipes', 'Teams', 'Equipos'), 'service.teams', { title: 'name' }),
    many('supervisors', t('Supervisores', 'Supervisors', 'Supervisores'), 'business.users', { title: 'username' }),
  ],
})

export const pauses = defineEntity({
  area: 'service',
  name: 'pauses',
  model: 'pause',
  route: 'service/pauses',
  label: { singular: t('Pausa', 'Break', 'Pausa'), plural: t('Pausas', 'Breaks', 'Pausas') },
  fields: [
    description(),
    isActive(),
    integer('maximum_duration', t('Duração máxima (segundos)', 'Maximum duration (seconds)', 'Duración máxima (segundos)'), {
      default: 0,
      hint: t(
        'Passado este tempo a pausa é excedente e pede justificativa; 0 = sem limite',
        'Past this time the break is exceeded and needs a justification; 0 = no limit',
        'Pasado este tiempo la pausa es excedida y requiere justificación; 0 = sin límite',
      ),
    }),
    color('color', t('Cor', 'Colour', 'Color')),
    toggle('productive', t('Pausa produtiva', 'Productive break', 'Pausa productiva'), {
      hint: t(
        'Conta como tempo produtivo nos relatórios (ex.: treinamento)',
        'Counts as productive time in reports (e.g. training)',
        'Cuenta como tiempo productivo en los informes (p. ej. formación)',
      ),
    }),
    toggle('agent_can_start', t('O agente pode iniciar', 'Agents may start it', 'El agente puede iniciarla'), { default: true }),
    many('teams', t('Equipes', 'Teams', 'Equipos'), 'service.teams', {
      title: 'name',
      hint: t('Vazio = todas as equipes', 'Empty = every team', 'Vacío = todos los equipos'),
    }),
    toggle('enable_webphone', t('Pausar o webphone', 'Pause the webphone', 'Pausar el webphone'), { default: true }),
    toggle('allow_incoming_call', t('Permitir chamadas recebidas', 'Allow incoming calls', 'Permitir llamadas entrantes'), {
      visibleWhen: { field: 'enable_webphone', oneOf: [true] },
    }),
    toggle('allow_outgoing_call', t('Permitir chamadas realizadas', 'Allow outgoing calls', 'Permitir llamadas salientes'), {
      visibleWhen: { field: 'enable_webphone', oneOf: [true] },
    }),
    toggle('enable_webchat', t('Pausar o chat', 'Pause the chat', 'Pausar el chat'), { default: true }),
    toggle('allow_incoming_chat', t('Permitir chats recebidos', 'Allow incoming chats', 'Permitir chats entrantes'), {
      visibleWhen: { field: 'enable_webchat', oneOf: [true] },
    }),
    toggle('allow_outgoing_chat', t('Permitir chats iniciados pelo agente', 'Allow outgoing chats', 'Permitir chats salientes'), {
      visibleWhen: { field: 'enable_webchat', oneOf: [true] },
    }),
    toggle('lock_screen', t('Bloquear a tela', 'Lock the screen', 'Bloquear la pantalla')),
  ],
  form: {
    tabs: [
      {
        key: 'general',
        label: t('Geral', 'General', 'General'),
        fields: ['description', 'is_active', 'maximum_duration', 'color', 'productive', 'agent_can_start', 'teams'],
      },
      {
        key: 'behaviour',
        label: t('Comportamento', 'Behaviour', 'Comportamiento'),
        fields: [
          'enable_webphone',
          'allow_incoming_call',
          'allow_outgoing_call',
          'enable_webchat',
          'allow_incoming_chat',
          'allow_outgoing_chat',
          'lock_screen',
        ],
      },
    ],
  },
})

const AFTER_SERVICE_ON = { field: 'enable_after_service', oneOf: [true] } as const

export const teams = defineEntity({
  area: 'service',
  name: 'teams',
  model: 'team',
  route: 'service/teams',
  label: { singular: t('Equipe', 'Team', 'Equipo'), plural: t('Equipes', 'Teams', 'Equipos') },
  titleField: 'name',
  fields: [
    text('name', t('Nome', 'Name', 'Nombre'), { required: true, max: 150, unique: true, searchable: true }),
    isActive(),
    // The join table belongs to the outbound route's `teams`; both forms edit it.
    many('outbound_routes', t('Rotas de saída', 'Outbound routes', 'Rutas de salida'), 'pabx.outbound-routes', { via: 'teams' }),
    toggle('enable_auto_login_webphone', t('Login automático no webphone', 'Automatic webphone sign-in', 'Inicio de sesión automático en el webphone')),
    toggle('enable_webphone_auto_answer', t('Atendimento automático no webphone', 'Webphone auto answer', 'Respuesta automática en el webphone')),
    toggle('enable_auto_login_webchat', t('Login automático no chat', 'Automatic chat sign-in', 'Inicio de sesión automático en el chat')),
    toggle('enable_webchat_auto_answer', t('Atendimento automático no chat', 'Chat auto answer', 'Respuesta automática en el chat')),
    integer('chat_limit_per_user', t('Chats simultâneos por agente', 'Simultaneous chats per agent', 'Chats simultáneos por agente'), { default: 1, max: 100 }),
    integer(
      'chat_timeout_to_remove_inactive',
      t('Remover chat encerrado após (segundos)', 'Remove an ended chat after (seconds)', 'Quitar el chat finalizado tras (segundos)'),
      {
        default: 15,
        max: 3600,
      },
    ),
    toggle('enable_after_service', t('Pós-atendimento', 'After-service', 'Posatención')),
    integer(
      'duration_of_after_service',
      t('Duração do pós-atendimento (segundos)', 'After-service duration (seconds)', 'Duración de la posatención (segundos)'),
      {
        default: 0,
        visibleWhen: AFTER_SERVICE_ON,
      },
    ),
    integer(
      'ignore_after_service_with_duration_shorter_than',
      t(
        'Sem pós-atendimento em chamadas menores que (segundos)',
        'No after-service for calls shorter than (seconds)',
        'Sin posatención en llamadas de menos de (segundos)',
      ),
      { default: 0, visibleWhen: AFTER_SERVICE_ON },
    ),
    toggle(
      'ignore_after_service_unaccepted',
      t('Sem pós-atendimento em chamadas não atendidas', 'No after-service for unanswered calls', 'Sin posatención en llamadas no atendidas'),
      {
        visibleWhen: AFTER_SERVICE_ON,
      },
    ),
    choice('after_service_mode', t('Modo do pós-atendimento', 'After-service mode', 'Modo de la posatención'), AFTER_SERVICE_MODE_OPTIONS, {
      default: 'spec',
      visibleWhen: AFTER_SERVICE_ON,
    }),
    fk('after_service_pause', t('Pausa do pós-atendimento', 'After-service break', 'Pausa de posatención'), 'service.pauses', {
      visibleWhen: AFTER_SERVICE_ON,
    }),
    choice('enable_classifications', t('Classificação obrigatória em', 'Classification required on', 'Clasificación obligatoria en'), CLASSIFICATION_KINDS, {
      multiple: true,
      cols: 12,
    }),
    toggle('enable_comment', t('Comentário no formulário', 'Comment on the call form', 'Comentario en el formulario')),
    integer('minimum_comment_size', t('Tamanho mínimo do comentário', 'Minimum comment length', 'Longitud mínima del comentario'), {
      default: 0,
      max: 10_000,
      visibleWhen: { field: 'enable_comment', oneOf: [true] },
      hint: t('Acima de 0 o comentário é obrigatório', 'Above 0 the comment is required', 'Por encima de 0 el comentario es obligatorio'),
    }),
    integer('maximum_comment_size', t('Tamanho máximo do comentário', 'Maximum comment length', 'Longitud máxima del comentario'), {
      default: 255,
      max: 10_000,
      visibleWhen: { field: 'enable_comment', oneOf: [true] },
    }),
    embed('permissions', t('Permissões', 'Permissions', 'Permisos'), 'service.team-permissions'),
  ],
  form: {
    tabs: [
      { key: 'general', label: t('Geral', 'General', 'General'), fields: ['name', 'is_active', 'outbound_routes'] },
      { key: 'webphone', label: t('Webphone', 'Webphone', 'Webphone'), fields: ['enable_auto_login_webphone', 'enable_webphone_auto_answer'] },
      {
        key: 'chat',
        label: t('Chat', 'Chat', 'Chat'),
        fields: ['enable_auto_login_webchat', 'enable_webchat_auto_answer', 'chat_limit_per_user', 'chat_timeout_to_remove_inactive'],
      },
      {
        key: 'after_service',
        label: t('Pós-atendimento', 'After-service', 'Posatención'),
        fields: [
          'enable_after_service',
          'duration_of_after_service',
          'ignore_after_service_with_duration_shorter_than',
          'ignore_after_service_unaccepted',
          'after_service_mode',
          'after_service_pause',
        ],
      },
      {
        key: 'classification',
        label: t('Classificação', 'Classification', 'Clasificación'),
        fields: ['enable_classifications', 'enable_comment', 'minimum_comment_size', 'maximum_comment_size'],
      },
      { key: 'permissions', label: t('Permissões', 'Permissions', 'Permisos'), fields: ['permissions'] },
    ],
  },
  list: { columns: ['id', 'is_active', 'name', 'chat_limit_per_user', 'enable_after_service'] },
})

/** Where the team's agents may call and transfer to (spec 000 §6 "per-endpoint application permission lists"). */
export const teamPermissions = defineEntity({
  area: 'service',
  name: 'team-permissions',
  model: 'teampermission',
  route: 'service/teams/$id/permissions',
  itemParam: 'gid',
  parent: { entity: 'service.teams', field: 'team' },
  label: {
    singular: t('Permissão da equipe', 'Team permission', 'Permiso del equipo'),
    plural: t('Permissões da equipe', 'Team permissions', 'Permisos del equipo'),
  },
  titleField: 'destination',
  fields: appPermissionFields('team', t('Equipe', 'Team', 'Equipo'), 'service.teams'),
  list: { columns: ['id', 'is_active', 'destination', 'allow_call', 'allow_transfer'] },
  uniqueTogether: [['team', 'destination']],
})

export const SERVICE = [blacklists, calendars, forms, kpi, operations, pauses, teams, teamPermissions] as const
