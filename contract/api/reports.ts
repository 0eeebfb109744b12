import * as v from 'valibot'
import type { Locale } from '../locales.ts'
import { message } from '../messages.ts'
import { ENDPOINT_STATUSES, ENDPOINT_STATUS_LABELS } from '../codes/states.ts'
import type { EndpointStatus } from '../codes/states.ts'

// The report pages (spec 000 §2 /reports/pages/:id?, "Report selection with CSV download", §6 sites.view_reports) and
// the processing queue (/reports/processing-queue). The datasets are defined on the server (server/reports/datasets/);
// a page is one dataset: filters, totals, one chart and a page of rows, or all its rows as CSV. Paths relative to /api.
export const REPORT_PATHS = {
  pages: '/v1/report/pages/',
  /** The filter bar's choices: teams, agents, queues (calls and chats), campaigns, classifications of the site. */
  filters: '/v1/report/filters/',
  page: '/v1/report/pages/:id/',
  csv: '/v1/report/pages/:id/csv/',
  jobs: '/v1/report/processing-queue/',
  job: '/v1/report/processing-queue/:id/',
  jobDownload: '/v1/report/processing-queue/:id/download/',
} as const

/** The report ids, in the order of the list. */
export const REPORT_IDS = [
  'calls',
  'call-steps',
  'chats',
  'pauses',
  'after-service',
  'agent-productivity',
  'queue-service-level',
  'classifications',
  'nps',
  'kpi',
  'agent-status',
  'dialer-results',
] as const
export type ReportId = (typeof REPORT_IDS)[number]

export const REPORT_FILTERS = ['team', 'agent', 'queue', 'campaign', 'classification'] as const
export type ReportFilter = (typeof REPORT_FILTERS)[number]

/** How a column's value is shown (and written to CSV): seconds as h:mm:ss, instants in the user's time zone. */
export type ReportColumnKind = 'text' | 'number' | 'datetime' | 'duration' | 'percent' | 'boolean'

/** A CSV export with more rows than this is not streamed: it becomes a job of the processing queue. */
export const REPORT_DIRECT_CSV_MAX_ROWS = 50_000
/** A period longer than this is refused (a year and a day). */
export const REPORT_MAX_DAYS = 366

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return true
  } catch {
    return false
  }
}

const OptionalId = v.optional(v.pipe(v.string(invalid), v.regex(/^[1-9]\d{0,8}$/, invalid), v.transform(Number)))
const Day = v.pipe(
  v.string(invalid),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, invalid),
  v.check((s) => !Number.isNaN(new Date(`${s}T00:00:00Z`).getTime()) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), invalid),
)

export const ReportParams = v.object({ id: v.picklist(REPORT_IDS, invalid) })

/** The filters every report understands (each report uses the ones it lists; another one answers 400). */
export const ReportFilters = v.object({
  /** The period's first and last day (YYYY-MM-DD in `tz`, both included); today by default. */
  date_from: v.optional(Day),
  date_to: v.optional(Day),
  /** The user's IANA time zone: the days' bounds follow its rules (DST too); UTC by default. */
  tz: v.optional(v.pipe(v.string(invalid), v.maxLength(64, invalid), v.check(isTimeZone, invalid)), 'UTC'),
  team: OptionalId,
  agent: OptionalId,
  queue: OptionalId,
  campaign: OptionalId,
  classification: OptionalId,
})
export type ReportFilters = v.InferOutput<typeof ReportFilters>

const Count = v.pipe(v.string(invalid), v.regex(/^\d{1,7}$/, invalid), v.transform(Number))

export const ReportPageQuery = v.object({
  ...ReportFilters.entries,
  offset: v.optional(Count),
  limit: v.optional(v.pipe(Count, v.maxValue(500, invalid))),
})
export type ReportPageQuery = v.InferOutput<typeof ReportPageQuery>

export const ReportCsvQuery = v.object({
  ...ReportFilters.entries,
  lang: v.optional(v.picklist(['pt-BR', 'en-US', 'es-ES'], invalid)),
})

/** POST /v1/report/processing-queue/: a report's export queued as a job. */
export const ReportJobCreate = v.object({
  report: v.picklist(REPORT_IDS, invalid),
  filters: v.optional(v.record(v.string(), v.string()), {}),
})
export type ReportJobCreate = v.InferOutput<typeof ReportJobCreate>

export const ReportJobParams = v.object({ id: v.pipe(v.string(invalid), v.regex(/^[1-9]\d{0,14}$/, invalid), v.transform(Number)) })

export type ReportColumn = { key: string; label: string; kind: ReportColumnKind }
export type ReportTotal = { key: string; label: string; kind: ReportColumnKind; value: number | null }
export type ReportSeries = { key: string; label: string; kind: ReportColumnKind; values: number[] }
export type ReportChart = { type: 'bar' | 'line'; by: 'day' | 'label'; labels: string[]; series: ReportSeries[] }

export type ReportSummary = { id: ReportId; title: string; description: string; filters: ReportFilter[] }

export type ReportPage = ReportSummary & {
  /** The period as asked (or today's), and its bounds as instants. */
  date_from: string
  date_to: string
  tz: string
  from: string
  to: string
  columns: ReportColumn[]
  totals: ReportTotal[]
  chart: ReportChart
  count: number
  results: Record<string, string | number | boolean | null>[]
}

export const REPORT_JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const
export type ReportJobStatus = (typeof REPORT_JOB_STATUSES)[number]

export type ReportJob = {
  id: number
  report: ReportId
  title: string
  filters: Record<string, string>
  status: ReportJobStatus
  /** Rows to write (counted when the job starts) and written so far; progress 0..1. */
  total_rows: number
  rows_written: number
  progress: number
  error: string | null
  file_name: string
  size: number
  created_at: string
  finished_at: string | null
  user: number | null
}

export type ReportChoice = { id: number; description: string }
export type ReportFilterChoices = {
  team: ReportChoice[]
  agent: ReportChoice[]
  queue: ReportChoice[]
  chat_queue: ReportChoice[]
  campaign: ReportChoice[]
  classification: ReportChoice[]
}

/** The CSV answer when the export is too large to stream: 409 with the code, the count and the limit. */
export type ReportCsvTooLarge = { detail: string; code: 'report_too_large'; count: number; limit: number }

type Texts = Record<Locale, string>
const t3 = (pt: string, en: string, es: string): Texts => ({ 'pt-BR': pt, 'en-US': en, 'es-ES': es })

/** The agents' reported statuses (the timeline's detail column): `endpoint.<status>`. */
const ENDPOINT_TEXTS = Object.fromEntries(ENDPOINT_STATUSES.map((status) => [`endpoint.${status}`, ENDPOINT_STATUS_LABELS[status]])) as Record<
  `endpoint.${EndpointStatus}`,
  Texts
>

/** Texts the server writes (CSV headers, titles, errors): all three languages side by side, like contract/messages.ts. */
export const REPORT_TEXTS = {
  // report titles and descriptions
  'calls.title': t3('Chamadas', 'Calls', 'Llamadas'),
  'calls.description': t3(
    'Uma linha por chamada, com o atendimento, a espera e a classificação.',
    'One row per call, with who answered, the wait and the classification.',
    'Una fila por llamada, con quién atendió, la espera y la clasificación.',
  ),
  'call-steps.title': t3('Etapas das chamadas', 'Call steps', 'Etapas de las llamadas'),
  'call-steps.description': t3(
    'Cada etapa de cada chamada: fila, agente tocado, resultado.',
    'Every step of every call: queue, agent rung, result.',
    'Cada etapa de cada llamada: cola, agente llamado, resultado.',
  ),
  'chats.title': t3('Chats', 'Chats', 'Chats'),
  'chats.description': t3(
    'Uma linha por conversa, com a espera, a duração e a classificação.',
    'One row per conversation, with the wait, the duration and the classification.',
    'Una fila por conversación, con la espera, la duración y la clasificación.',
  ),
  'pauses.title': t3('Pausas', 'Pauses', 'Pausas'),
  'pauses.description': t3(
    'Cada pausa dos agentes, com o motivo e a duração.',
    "Every agent's pause, with its reason and duration.",
    'Cada pausa de los agentes, con el motivo y la duración.',
  ),
  'after-service.title': t3('Pós-atendimento', 'After-service', 'Posatención'),
  'after-service.description': t3(
    'O tempo de pós-atendimento depois de cada chamada.',
    'The after-service time after each call.',
    'El tiempo de posatención después de cada llamada.',
  ),
  'agent-productivity.title': t3('Produtividade dos agentes', 'Agent productivity', 'Productividad de los agentes'),
  'agent-productivity.description': t3(
    'Por agente: chamadas, conversação, chats, pausas e pós-atendimento.',
    'Per agent: calls, talk time, chats, pauses and after-service.',
    'Por agente: llamadas, conversación, chats, pausas y posatención.',
  ),
  'queue-service-level.title': t3('Nível de serviço das filas', 'Queue service level', 'Nivel de servicio de las colas'),
  'queue-service-level.description': t3(
    'Por fila: chamadas recebidas, atendidas, abandonadas e atendidas dentro da meta.',
    'Per queue: calls received, answered, abandoned and answered within the target.',
    'Por cola: llamadas recibidas, atendidas, abandonadas y atendidas dentro del objetivo.',
  ),
  'classifications.title': t3('Classificações', 'Classifications', 'Clasificaciones'),
  'classifications.description': t3(
    'Quantas chamadas e chats receberam cada classificação.',
    'How many calls and chats got each classification.',
    'Cuántas llamadas y chats recibieron cada clasificación.',
  ),
  'nps.title': t3('NPS', 'NPS', 'NPS'),
  'nps.description': t3(
    'As respostas das pesquisas NPS por teclado e por chat: distribuição das notas e NPS (% promotores − % detratores).',
    'The keypad and chat NPS survey answers: score distribution and NPS (% promoters − % detractors).',
    'Las respuestas de las encuestas NPS por teclado y por chat: distribución de notas y NPS (% promotores − % detractores).',
  ),
  'kpi.title': t3('Indicadores (KPI)', 'KPIs', 'Indicadores (KPI)'),
  'kpi.description': t3(
    'Por dia e agente: chamadas de fila recebidas, atendidas, abandonadas, nível de serviço, TMA, TMC, TMPA, ocupação e pausas.',
    'Per day and agent: queue calls received, answered, abandoned, service level, AHT, ATT, ACW, occupancy and pauses.',
    'Por día y agente: llamadas de cola recibidas, atendidas, abandonadas, nivel de servicio, TMO, TMC, TPA, ocupación y pausas.',
  ),
  'agent-status.title': t3('Linha do tempo dos agentes', 'Agent status timeline', 'Línea de tiempo de los agentes'),
  'agent-status.description': t3(
    'Cada intervalo de status de cada agente (disponível, em pausa com o motivo, em ligação, pós-atendimento, desconectado), dividido à meia-noite.',
    'Every status interval of every agent (available, paused with its reason, on a call, after-service, offline), split at midnight.',
    'Cada intervalo de estado de cada agente (disponible, en pausa con el motivo, en llamada, posatención, desconectado), dividido a medianoche.',
  ),
  'dialer-results.title': t3('Resultados do discador', 'Dialer results', 'Resultados del marcador'),
  'dialer-results.description': t3(
    'Por campanha e mailing: tentativas, status de discagem, atendidas, abandonadas e leads concluídos e restantes.',
    'Per campaign and mailing: attempts, dial statuses, answered, abandoned and leads done and remaining.',
    'Por campaña y mailing: intentos, estados de marcación, atendidas, abandonadas y leads terminados y restantes.',
  ),
  // columns, totals and series
  started_at: t3('Início', 'Start', 'Inicio'),
  ended_at: t3('Fim', 'End', 'Fin'),
  answered_at: t3('Atendida em', 'Answered at', 'Atendida a las'),
  call_id: t3('ID da chamada', 'Call ID', 'ID de la llamada'),
  step: t3('Etapa', 'Step', 'Etapa'),
  kind: t3('Destino', 'Target', 'Destino'),
  direction: t3('Sentido', 'Direction', 'Sentido'),
  phone: t3('Telefone', 'Phone', 'Teléfono'),
  agent: t3('Agente', 'Agent', 'Agente'),
  team: t3('Equipe', 'Team', 'Equipo'),
  queue: t3('Fila', 'Queue', 'Cola'),
  campaign: t3('Campanha', 'Campaign', 'Campaña'),
  status: t3('Status', 'Status', 'Estado'),
  answered: t3('Atendida', 'Answered', 'Atendida'),
  duration: t3('Duração', 'Duration', 'Duración'),
  talk: t3('Conversação', 'Talk time', 'Conversación'),
  wait: t3('Espera', 'Wait', 'Espera'),
  hung_up_by: t3('Desligada por', 'Hung up by', 'Colgada por'),
  classification: t3('Classificação', 'Classification', 'Clasificación'),
  sub_classification: t3('Subclassificação', 'Sub-classification', 'Subclasificación'),
  comment: t3('Comentário', 'Comment', 'Comentario'),
  title: t3('Nome', 'Name', 'Nombre'),
  channel: t3('Canal', 'Channel', 'Canal'),
  state: t3('Situação', 'State', 'Situación'),
  ended_by: t3('Encerrado por', 'Ended by', 'Cerrado por'),
  reason: t3('Motivo', 'Reason', 'Motivo'),
  exceeded: t3('Excedida', 'Exceeded', 'Excedida'),
  justification: t3('Justificativa', 'Justification', 'Justificación'),
  calls: t3('Chamadas', 'Calls', 'Llamadas'),
  chats: t3('Chats', 'Chats', 'Chats'),
  calls_answered: t3('Chamadas atendidas', 'Calls answered', 'Llamadas atendidas'),
  calls_unanswered: t3('Chamadas não atendidas', 'Calls not answered', 'Llamadas no atendidas'),
  calls_placed: t3('Chamadas feitas', 'Calls placed', 'Llamadas realizadas'),
  calls_offered: t3('Chamadas recebidas', 'Calls received', 'Llamadas recibidas'),
  abandoned: t3('Abandonadas', 'Abandoned', 'Abandonadas'),
  in_target: t3('Atendidas na meta', 'Answered within target', 'Atendidas en el objetivo'),
  target: t3('Meta (s)', 'Target (s)', 'Objetivo (s)'),
  service_level: t3('Nível de serviço', 'Service level', 'Nivel de servicio'),
  chats_answered: t3('Chats atendidos', 'Chats answered', 'Chats atendidos'),
  pauses: t3('Pausas', 'Pauses', 'Pausas'),
  pause_time: t3('Tempo em pausa', 'Time paused', 'Tiempo en pausa'),
  after_service: t3('Pós-atendimentos', 'After-services', 'Posatenciones'),
  after_service_time: t3('Tempo de pós-atendimento', 'After-service time', 'Tiempo de posatención'),
  average_after_service: t3('Pós-atendimento médio', 'Average after-service', 'Posatención media'),
  average_talk: t3('Conversação média', 'Average talk time', 'Conversación media'),
  average_wait: t3('Espera média', 'Average wait', 'Espera media'),
  average_duration: t3('Duração média', 'Average duration', 'Duración media'),
  steps: t3('Etapas', 'Steps', 'Etapas'),
  messages: t3('Mensagens', 'Messages', 'Mensajes'),
  agents: t3('Agentes', 'Agents', 'Agentes'),
  total: t3('Total', 'Total', 'Total'),
  // NPS
  answered_on: t3('Respondida em', 'Answered at', 'Respondida el'),
  source: t3('Origem', 'Source', 'Origen'),
  survey: t3('Pesquisa', 'Survey', 'Encuesta'),
  question: t3('Pergunta', 'Question', 'Pregunta'),
  scale: t3('Escala', 'Scale', 'Escala'),
  score: t3('Nota', 'Score', 'Nota'),
  category: t3('Categoria', 'Category', 'Categoría'),
  reference: t3('Chamada ou conversa', 'Call or conversation', 'Llamada o conversación'),
  answers: t3('Respostas', 'Answers', 'Respuestas'),
  promoters: t3('Promotores', 'Promoters', 'Promotores'),
  passives: t3('Neutros', 'Passives', 'Neutros'),
  detractors: t3('Detratores', 'Detractors', 'Detractores'),
  nps: t3('NPS', 'NPS', 'NPS'),
  average_score: t3('Nota média', 'Average score', 'Nota media'),
  // KPI
  day: t3('Dia', 'Day', 'Día'),
  missed: t3('Não atendidas pelo agente', 'Missed by the agent', 'No atendidas por el agente'),
  att: t3('TMC (conversação média)', 'ATT (average talk time)', 'TMC (conversación media)'),
  acw: t3('TMPA (pós-atendimento médio)', 'ACW (average after-call work)', 'TPA (posatención media)'),
  aht: t3('TMA (atendimento médio)', 'AHT (average handle time)', 'TMO (operación media)'),
  occupancy: t3('Ocupação', 'Occupancy', 'Ocupación'),
  // agent status timeline
  detail: t3('Status informado', 'Reported status', 'Estado informado'),
  intervals: t3('Intervalos', 'Intervals', 'Intervalos'),
  available_time: t3('Tempo disponível', 'Time available', 'Tiempo disponible'),
  call_time: t3('Tempo em ligação', 'Time on calls', 'Tiempo en llamada'),
  offline_time: t3('Tempo desconectado', 'Time offline', 'Tiempo desconectado'),
  // dialer results
  mailing: t3('Mailing', 'Mailing', 'Mailing'),
  attempts: t3('Tentativas', 'Attempts', 'Intentos'),
  abandon_rate: t3('Taxa de abandono', 'Abandon rate', 'Tasa de abandono'),
  busy: t3('Ocupado (486, 600)', 'Busy (486, 600)', 'Ocupado (486, 600)'),
  no_answer: t3('Sem resposta (480, 487, 408)', 'No answer (480, 487, 408)', 'Sin respuesta (480, 487, 408)'),
  blacklisted: t3('Bloqueadas (609)', 'Blocked (609)', 'Bloqueadas (609)'),
  voicemail: t3('Caixa postal (552)', 'Voicemail (552)', 'Buzón de voz (552)'),
  fax: t3('Fax (510)', 'Fax (510)', 'Fax (510)'),
  uncertain: t3('Incerto (559)', 'Uncertain (559)', 'Incierto (559)'),
  statuses: t3('Status de discagem', 'Dial statuses', 'Estados de marcación'),
  leads_total: t3('Leads', 'Leads', 'Leads'),
  leads_done: t3('Leads concluídos', 'Leads done', 'Leads terminados'),
  leads_remaining: t3('Leads restantes', 'Leads remaining', 'Leads restantes'),
  yes: t3('Sim', 'Yes', 'Sí'),
  no: t3('Não', 'No', 'No'),
  // values of enumerated columns (column `values` prefix + '.' + value)
  'direction.inbound': t3('Entrada', 'Inbound', 'Entrante'),
  'direction.outbound': t3('Saída', 'Outbound', 'Saliente'),
  'direction.internal': t3('Interna', 'Internal', 'Interna'),
  'party.caller': t3('Quem ligou', 'Caller', 'Quien llamó'),
  'party.callee': t3('Quem atendeu', 'Callee', 'Quien atendió'),
  'target.queue': t3('Fila', 'Queue', 'Cola'),
  'target.device': t3('Ramal', 'Extension', 'Extensión'),
  'target.trunk': t3('Tronco', 'Trunk', 'Troncal'),
  'target.reject': t3('Recusada', 'Rejected', 'Rechazada'),
  'chatState.new': t3('Nova', 'New', 'Nueva'),
  'chatState.queued': t3('Na fila', 'Queued', 'En cola'),
  'chatState.offered': t3('Oferecida', 'Offered', 'Ofrecida'),
  'chatState.active': t3('Em atendimento', 'In progress', 'En atención'),
  'chatState.ended': t3('Encerrada', 'Ended', 'Cerrada'),
  'endedBy.agent': t3('Agente', 'Agent', 'Agente'),
  'endedBy.client': t3('Cliente', 'Customer', 'Cliente'),
  'endedBy.system': t3('Sistema', 'System', 'Sistema'),
  'endedBy.timeout': t3('Inatividade', 'Inactivity', 'Inactividad'),
  'endedBy.transfer': t3('Transferência', 'Transfer', 'Transferencia'),
  'npsSource.telephony': t3('Telefonia', 'Telephony', 'Telefonía'),
  'npsSource.chat': t3('Chat', 'Chat', 'Chat'),
  'npsCategory.promoter': t3('Promotor', 'Promoter', 'Promotor'),
  'npsCategory.passive': t3('Neutro', 'Passive', 'Neutro'),
  'npsCategory.detractor': t3('Detrator', 'Detractor', 'Detractor'),
  'agentState.available': t3('Disponível', 'Available', 'Disponible'),
  'agentState.paused': t3('Em pausa', 'Paused', 'En pausa'),
  'agentState.call': t3('Em ligação', 'On a call', 'En llamada'),
  'agentState.after_service': t3('Pós-atendimento', 'After-service', 'Posatención'),
  'agentState.offline': t3('Desconectado', 'Offline', 'Desconectado'),
  'agentState.other': t3('Outro', 'Other', 'Otro'),
  'noAgent.': t3('(nenhum agente)', '(no agent)', '(ningún agente)'),
  ...ENDPOINT_TEXTS,
  // errors
  notForReport: t3('Este filtro não se aplica a este relatório', 'This filter does not apply to this report', 'Este filtro no se aplica a este informe'),
  periodOrder: t3('A data final é anterior à inicial', 'The end date is before the start date', 'La fecha final es anterior a la inicial'),
  periodTooLong: t3('O período pode ter no máximo {n} dias', 'The period may be at most {n} days long', 'El período puede tener como máximo {n} días'),
  tooLarge: t3(
    'Este relatório tem {count} linhas; acima de {limit} ele é gerado na fila de processamento.',
    'This report has {count} rows; above {limit} it is built in the processing queue.',
    'Este informe tiene {count} filas; por encima de {limit} se genera en la cola de procesamiento.',
  ),
  jobInterrupted: t3(
    'A exportação foi interrompida várias vezes e desistimos.',
    'The export was interrupted several times and was given up.',
    'La exportación se interrumpió varias veces y se abandonó.',
  ),
  jobFailed: t3('A exportação falhou.', 'The export failed.', 'La exportación falló.'),
} satisfies Record<string, Texts>
export type ReportTextKey = keyof typeof REPORT_TEXTS

export function reportText(key: ReportTextKey, lang: string | undefined, params: Record<string, string | number> = {}): string {
  const texts: Texts = REPORT_TEXTS[key]
  const text = texts[(lang as Locale) ?? 'pt-BR'] ?? texts['pt-BR']
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`))
}
