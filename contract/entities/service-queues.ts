import { CALL_DESTINATIONS, CHAT_DESTINATIONS } from './apps.ts'
import { defineEntity, opt, t } from './define.ts'
import { choice, description, destination, fk, integer, isActive, many, rows, textarea, toggle, when } from './fields.ts'
import { LANGUAGES, NO_LIMIT, QUEUE_STRATEGIES } from './options.ts'
import type { Condition } from './types.ts'

// Settings → service → queues and NPS. The queues keep the API paths the spec names (/v1/pabx/queues/ and
// /v1/chat/queues/, filtered by team_id and queue_type), so their area — and permission prefix — is pabx or chat
// while their pages sit under /settings/service.

const QUEUE_TYPES = [
  opt('inbound', 'Receptiva', 'Inbound', 'Entrante'),
  opt('outbound', 'Ativa', 'Outbound', 'Saliente'),
  opt('mixed', 'Mista', 'Mixed', 'Mixta'),
]

const commonQueueFields = () =>
  [
    description(),
    isActive(),
    choice('queue_type', t('Tipo de fila', 'Queue type', 'Tipo de cola'), QUEUE_TYPES, { required: true, default: 'inbound' }),
    many('teams', t('Equipes', 'Teams', 'Equipos'), 'service.teams', { title: 'name' }),
    rows('members', t('Agentes', 'Agents', 'Agentes'), [
      fk('user', t('Agente', 'Agent', 'Agente'), 'business.users', {
        kind: 'autocomplete',
        title: 'username',
        required: true,
        onDelete: 'cascade',
        unique: true,
      }),
      integer('penalty', t('Penalidade', 'Penalty', 'Penalización'), {
        default: 0,
        max: 100,
        hint: t(
          'Agentes de menor penalidade recebem primeiro',
          'Agents with a lower penalty are offered first',
          'Los agentes con menor penalización reciben primero',
        ),
      }),
    ]),
    choice('strategy', t('Estratégia de distribuição', 'Distribution strategy', 'Estrategia de distribución'), QUEUE_STRATEGIES, {
      required: true,
      default: 'ringall',
    }),
    integer('weight', t('Peso', 'Weight', 'Peso'), {
      default: 0,
      max: 100,
      hint: t(
        'Com o agente em várias filas, a de maior peso é atendida primeiro',
        'With an agent in several queues, the heaviest is served first',
        'Con el agente en varias colas, la de mayor peso se atiende primero',
      ),
    }),
    integer('max_wait_time', t('Tempo máximo de espera (segundos)', 'Maximum wait (seconds)', 'Espera máxima (segundos)'), { default: 0, hint: NO_LIMIT }),
    integer('minimum_comment_size', t('Tamanho mínimo do comentário', 'Minimum comment length', 'Longitud mínima del comentario'), { default: 0, max: 10_000 }),
    integer('maximum_comment_size', t('Tamanho máximo do comentário', 'Maximum comment length', 'Longitud máxima del comentario'), {
      default: 255,
      max: 10_000,
    }),
  ] as const

/** A key a waiting caller may press to leave the queue ('' : none). */
const EXIT_KEYS = [opt('', 'Nenhuma', 'None', 'Ninguna'), ...['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'].map((key) => opt(key, key, key, key))]

const GENERAL = t('Geral', 'General', 'General')
const MEMBERS = t('Agentes', 'Agents', 'Agentes')
const TIMES = t('Tempos e transbordo', 'Times and overflow', 'Tiempos y desborde')
const ANNOUNCEMENTS = t('Anúncios', 'Announcements', 'Anuncios')
const SERVICE = t('Atendimento', 'Service', 'Atención')

export const telephonyQueues = defineEntity({
  area: 'pabx',
  name: 'queues',
  model: 'queue',
  route: 'service/queues/telephony',
  label: {
    singular: t('Fila de telefonia', 'Telephony queue', 'Cola de telefonía'),
    plural: t('Filas de telefonia', 'Telephony queues', 'Colas de telefonía'),
  },
  fields: [
    ...commonQueueFields(),
    integer('ring_time', t('Tempo de toque no agente (segundos)', 'Ring time per agent (seconds)', 'Tiempo de timbre por agente (segundos)'), {
      default: 15,
      min: 1,
      max: 600,
    }),
    integer('retry_time', t('Intervalo entre tentativas (segundos)', 'Retry interval (seconds)', 'Intervalo entre intentos (segundos)'), {
      default: 5,
      max: 600,
    }),
    integer('max_callers', t('Máximo de chamadas na fila', 'Maximum callers waiting', 'Máximo de llamadas en cola'), { default: 0, hint: NO_LIMIT }),
    toggle('join_empty', t('Aceitar chamadas sem agentes logados', 'Accept calls with no agent signed in', 'Aceptar llamadas sin agentes conectados')),
    toggle('leave_when_empty', t('Transbordar quando não houver agentes', 'Overflow when no agents remain', 'Desbordar cuando no queden agentes')),
    destination('overflow', t('Destino de transbordo', 'Overflow destination', 'Destino de desborde'), 'pabx', CALL_DESTINATIONS, {
      hint: t(
        'Para onde vai a chamada quando o tempo máximo de espera acaba',
        'Where the call goes when the maximum wait is over',
        'A dónde va la llamada cuando termina la espera máxima',
      ),
    }),
    fk('moh', t('Música de espera', 'Music on hold', 'Música en espera'), 'pabx.moh'),
    fk('announce_entry', t('Anúncio de entrada', 'Entry announcement', 'Anuncio de entrada'), 'pabx.sounds-entries'),
    fk('periodic_announce', t('Anúncio periódico', 'Periodic announcement', 'Anuncio periódico'), 'pabx.sounds-entries'),
    integer('periodic_announce_frequency', t('Frequência do anúncio (segundos)', 'Announcement frequency (seconds)', 'Frecuencia del anuncio (segundos)'), {
      default: 60,
      min: 10,
      max: 3600,
      visibleWhen: { field: 'periodic_announce', setAndNot: [] },
    }),
    toggle('announce_position', t('Anunciar a posição na fila', 'Announce the position in the queue', 'Anunciar la posición en la cola')),
    toggle('announce_holdtime', t('Anunciar o tempo estimado', 'Announce the estimated wait', 'Anunciar el tiempo estimado')),
    choice('language', t('Idioma dos áudios', 'Prompt language', 'Idioma de los audios'), LANGUAGES, {
      required: true,
      default: 'pt-BR',
      hint: t(
        'Em que idioma a posição e o tempo estimado são falados',
        'The language the position and the estimated wait are spoken in',
        'En qué idioma se dicen la posición y el tiempo estimado',
      ),
    }),
    choice('exit_key', t('Tecla para sair da fila', 'Key to leave the queue', 'Tecla para salir de la cola'), EXIT_KEYS, {
      default: '',
      hint: t(
        'Quem espera pode teclar para ir ao destino de saída',
        'A waiting caller may press it to go to the exit destination',
        'Quien espera puede pulsarla para ir al destino de salida',
      ),
    }),
    destination('exit', t('Destino de saída', 'Exit destination', 'Destino de salida'), 'pabx', CALL_DESTINATIONS, {
      visibleWhen: { field: 'exit_key', setAndNot: [''] },
    }),
    integer('service_level', t('Nível de serviço (segundos)', 'Service level (seconds)', 'Nivel de servicio (segundos)'), {
      default: 20,
      hint: t(
        'Chamadas atendidas até este tempo contam no nível de serviço',
        'Calls answered within this time count towards the service level',
        'Las llamadas atendidas en este tiempo cuentan para el nivel de servicio',
      ),
    }),
    toggle('record_calls', t('Gravar chamadas', 'Record calls', 'Grabar llamadas'), { default: true }),
    fk('nps', t('Pesquisa NPS após a chamada', 'NPS survey after the call', 'Encuesta NPS tras la llamada'), 'service.nps-telephony'),
    fk('form', t('Formulário da chamada', 'Call form', 'Formulario de la llamada'), 'service.forms', {
      hint: t(
        'Aberto ao lado da chamada no webphone; as respostas ficam na chamada',
        'Opened beside the call in the webphone; the answers stay with the call',
        'Se abre junto a la llamada en el webphone; las respuestas quedan en la llamada',
      ),
    }),
  ],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'queue_type', 'teams', 'strategy', 'weight', 'service_level', 'record_calls'] },
      { key: 'members', label: MEMBERS, fields: ['members'] },
      { key: 'times', label: TIMES, fields: ['ring_time', 'retry_time', 'max_wait_time', 'max_callers', 'join_empty', 'leave_when_empty', 'overflow'] },
      {
        key: 'announcements',
        label: ANNOUNCEMENTS,
        fields: ['moh', 'announce_entry', 'periodic_announce', 'periodic_announce_frequency', 'announce_position', 'announce_holdtime', 'language', 'exit_key', 'exit'],
      },
      { key: 'service', label: SERVICE, fields: ['form', 'nps', 'minimum_comment_size', 'maximum_comment_size'] },
    ],
  },
  list: { columns: ['id', 'is_active', 'description', 'strategy', 'queue_type'] },
})

/** Spec 001 §5: an announcement other than 'no' needs its type and message. */
const ANNOUNCING: Condition = { field: 'announcement', setAndNot: ['no'] }

export const chatQueues = defineEntity({
  area: 'chat',
  name: 'queues',
  model: 'queue',
  route: 'service/queues/chat',
  label: { singular: t('Fila de chat', 'Chat queue', 'Cola de chat'), plural: t('Filas de chat', 'Chat queues', 'Colas de chat') },
  fields: [
    ...commonQueueFields(),
    integer('ring_time', t('Tempo para o agente aceitar (segundos)', 'Time for the agent to accept (seconds)', 'Tiempo para que el agente acepte (segundos)'), {
      default: 30,
      min: 1,
      max: 600,
    }),
    choice(
      'action_when_time_expires',
      t('Quando o tempo de espera acabar', 'When the wait time is over', 'Cuando termine el tiempo de espera'),
      [
        opt('nothing', 'Continuar aguardando', 'Keep waiting', 'Seguir esperando'),
        opt('send_message', 'Enviar mensagem', 'Send a message', 'Enviar un mensaje'),
        opt('overflow', 'Transbordar', 'Overflow', 'Desbordar'),
        opt('close', 'Encerrar o chat', 'Close the chat', 'Cerrar el chat'),
      ],
      { required: true, default: 'nothing' },
    ),
    textarea(
      'time_expires_message',
      t('Mensagem de tempo esgotado', 'Time-out message', 'Mensaje de tiempo agotado'),
      when({ field: 'action_when_time_expires', oneOf: ['send_message'] }),
    ),
    destination(
      'overflow',
      t('Destino de transbordo', 'Overflow destination', 'Destino de desborde'),
      'chat',
      CHAT_DESTINATIONS,
      when({ field: 'action_when_time_expires', oneOf: ['overflow'] }),
    ),
    choice(
      'announcement',
      t('Anúncio na fila', 'Queue announcement', 'Anuncio en la cola'),
      [
        opt('no', 'Não anunciar', 'No announcement', 'Sin anuncio'),
        opt('entry', 'Ao entrar na fila', 'On entering the queue', 'Al entrar en la cola'),
        opt('periodic', 'Periódico', 'Periodic', 'Periódico'),
      ],
      { required: true, default: 'no' },
    ),
    choice(
      'announcement_type',
      t('Tipo de anúncio', 'Announcement type', 'Tipo de anuncio'),
      [
        opt('text', 'Somente a mensagem', 'The message only', 'Solo el mensaje'),
        opt('position', 'Mensagem com a posição na fila', 'Message with the queue position', 'Mensaje con la posición en la cola'),
        opt('wait_time', 'Mensagem com o tempo estimado', 'Message with the estimated wait', 'Mensaje con el tiempo estimado'),
      ],
      when(ANNOUNCING),
    ),
    textarea('announcement_message', t('Mensagem do anúncio', 'Announcement message', 'Mensaje del anuncio'), {
      ...when(ANNOUNCING),
      hint: t(
        'Use {position} e {wait_time} para a posição e o tempo estimado',
        'Use {position} and {wait_time} for the position and the estimated wait',
        'Use {position} y {wait_time} para la posición y el tiempo estimado',
      ),
    }),
    integer('announcement_frequency', t('Frequência do anúncio (segundos)', 'Announcement frequency (seconds)', 'Frecuencia del anuncio (segundos)'), {
      default: 60,
      min: 10,
      max: 3600,
      visibleWhen: { field: 'announcement', oneOf: ['periodic'] },
    }),
    fk('nps', t('Pesquisa NPS ao encerrar', 'NPS survey on closing', 'Encuesta NPS al cerrar'), 'service.nps-chat'),
    fk('form', t('Formulário do chat', 'Chat form', 'Formulario del chat'), 'service.forms', {
      hint: t(
        'Aberto na aba Formulário do chat; as respostas ficam no chat',
        "Opened in the chat's Form tab; the answers stay with the chat",
        'Se abre en la pestaña Formulario del chat; las respuestas quedan en el chat',
      ),
    }),
  ],
  form: {
    tabs: [
      { key: 'general', label: GENERAL, fields: ['description', 'is_active', 'queue_type', 'teams', 'strategy', 'weight'] },
      { key: 'members', label: MEMBERS, fields: ['members'] },
      { key: 'times', label: TIMES, fields: ['ring_time', 'max_wait_time', 'action_when_time_expires', 'time_expires_message', 'overflow'] },
      { key: 'announcements', label: ANNOUNCEMENTS, fields: ['announcement', 'announcement_type', 'announcement_message', 'announcement_frequency'] },
      { key: 'service', label: SERVICE, fields: ['form', 'nps', 'minimum_comment_size', 'maximum_comment_size'] },
    ],
  },
  list: { columns: ['id', 'is_active', 'description', 'strategy', 'queue_type'] },
})

const NPS_SCALES = [opt('0-10', 'De 0 a 10', 'From 0 to 10', 'De 0 a 10'), opt('1-5', 'De 1 a 5', 'From 1 to 5', 'De 1 a 5')]
const ATTEMPTS = t('Tentativas', 'Attempts', 'Intentos')

export const npsTelephony = defineEntity({
  area: 'service',
  name: 'nps-telephony',
  model: 'npstelephony',
  route: 'service/nps/telephony',
  label: {
    singular: t('Pesquisa NPS de telefonia', 'Telephony NPS survey', 'Encuesta NPS de telefonía'),
    plural: t('Pesquisas NPS de telefonia', 'Telephony NPS surveys', 'Encuestas NPS de telefonía'),
  },
  fields: [
    description(),
    isActive(),
    choice('scale', t('Escala', 'Scale', 'Escala'), NPS_SCALES, { required: true, default: '0-10' }),
    fk('question_audio', t('Áudio da pergunta', 'Question audio', 'Audio de la pregunta'), 'pabx.sounds-entries', { required: true }),
    // By keypad the caller answers each question with one key; more questions follow the first, in order.
    rows(
      'more_questions',
      t('Mais perguntas', 'More questions', 'Más preguntas'),
      [fk('audio', t('Áudio da pergunta', 'Question audio', 'Audio de la pregunta'), 'pabx.sounds-entries', { required: true, onDelete: 'protect' })],
      { max: 9 },
    ),
    fk('invalid_audio', t('Áudio de nota inválida', 'Invalid answer audio', 'Audio de respuesta no válida'), 'pabx.sounds-entries'),
    fk('thanks_audio', t('Áudio de agradecimento', 'Thank-you audio', 'Audio de agradecimiento'), 'pabx.sounds-entries'),
    integer('timeout', t('Tempo para responder (segundos)', 'Time to answer (seconds)', 'Tiempo para responder (segundos)'), { default: 5, min: 1, max: 60 }),
    integer('attempts', ATTEMPTS, { default: 3, min: 1, max: 10 }),
  ],
})

export const npsChat = defineEntity({
  area: 'service',
  name: 'nps-chat',
  model: 'npschat',
  route: 'service/nps/chat',
  label: {
    singular: t('Pesquisa NPS de chat', 'Chat NPS survey', 'Encuesta NPS de chat'),
    plural: t('Pesquisas NPS de chat', 'Chat NPS surveys', 'Encuestas NPS de chat'),
  },
  fields: [
    description(),
    isActive(),
    choice('scale', t('Escala', 'Scale', 'Escala'), NPS_SCALES, { required: true, default: '0-10' }),
    textarea('question', t('Pergunta', 'Question', 'Pregunta'), { required: true, max: 1024 }),
    textarea('invalid_message', t('Mensagem de nota inválida', 'Invalid answer message', 'Mensaje de respuesta no válida'), { max: 1024 }),
    textarea('thanks_message', t('Mensagem de agradecimento', 'Thank-you message', 'Mensaje de agradecimiento'), { max: 1024 }),
    integer('timeout', t('Tempo para responder (segundos)', 'Time to answer (seconds)', 'Tiempo para responder (segundos)'), {
      default: 300,
      min: 10,
      max: 86_400,
    }),
    integer('attempts', ATTEMPTS, { default: 2, min: 1, max: 10 }),
    // Outside WhatsApp's 24-hour window free text is refused: the survey goes as this template (of the room's channel).
    fk(
      'template',
      t('Template fora da janela de 24 horas', 'Template outside the 24-hour window', 'Plantilla fuera de la ventana de 24 horas'),
      'chat.templates',
      {
        hint: t(
          'Enviado quando o cliente escreveu há mais de 24 horas; sem ele a pesquisa não é enviada',
          'Sent when the customer last wrote more than 24 hours ago; without it the survey is not sent',
          'Se envía cuando el cliente escribió hace más de 24 horas; sin ella la encuesta no se envía',
        ),
      },
    ),
    toggle('ask_comment', t('Pedir um comentário', 'Ask for a comment', 'Pedir un comentario')),
    textarea('comment_question', t('Pergunta do comentário', 'Comment question', 'Pregunta del comentario'), {
      max: 1024,
      ...when({ field: 'ask_comment', oneOf: [true] }),
    }),
  ],
})

export const QUEUES = [telephonyQueues, chatQueues, npsTelephony, npsChat] as const
