import * as v from 'valibot'
import type { Texts } from '../codes/localize.ts'
import { message } from '../messages.ts'

// The builder (spec 000 §2 system/builder, builder/dashboards, builder/reports; issue 19 item 4): an administrator
// composes dashboard and report pages from widgets over queries. A query names one dataset the server defines
// (server/reports/builder.ts), a period, filters, a grouping and a measure — identifiers checked against this
// catalogue, never SQL — and always reads the signed-in user's site. Paths relative to /api.

export const BUILDER_PATHS = {
  /** The builder pages the user may open, placed in their menus and categories (the side menu). */
  menu: '/v1/builder/menu/',
  /** One page: its layout and every widget's numbers. */
  page: '/v1/builder/pages/:kind/:id/',
  /** The filter bar's choices: the site's teams, agents, telephony and chat queues, campaigns and classifications. */
  filters: '/v1/builder/filters/',
  /** Runs a query given whole (the query form's preview). */
  run: '/v1/builder/query/',
} as const

const t = (ptBR: string, enUS: string, esES: string): Texts => ({ 'pt-BR': ptBR, 'en-US': enUS, 'es-ES': esES })

export const BUILDER_DATASETS = [
  'calls',
  'steps',
  'chats',
  'messages',
  'pauses',
  'after-service',
  'statuses',
  'nps',
  'leads',
  'activities',
  'agents',
  'queues',
] as const
export type BuilderDataset = (typeof BUILDER_DATASETS)[number]

/** `queue` is a telephony queue (pabx), `chat_queue` a chat queue; campaign: the lead is in one of its mailings. */
export const BUILDER_FILTERS = ['team', 'agent', 'queue', 'chat_queue', 'campaign', 'classification'] as const
export type BuilderFilter = (typeof BUILDER_FILTERS)[number]

/**
 * A page's widget results are shared by every viewer asking within this many ms (the server computes each query once
 * per window whoever asks; live pages ask again this long after a change, so they never read a result older than it).
 */
export const BUILDER_RESULTS_FRESH_MS = 2000

export const BUILDER_PERIODS = ['today', 'yesterday', 'last_7_days', 'last_30_days', 'this_month'] as const
export type BuilderPeriod = (typeof BUILDER_PERIODS)[number]

export const BUILDER_MEASURES = ['count', 'sum', 'avg', 'min', 'max'] as const
export type BuilderMeasure = (typeof BUILDER_MEASURES)[number]

export const BUILDER_WIDGET_TYPES = ['number', 'table', 'bar', 'line', 'pie', 'agent-grid', 'queue-grid'] as const
export type BuilderWidgetType = (typeof BUILDER_WIDGET_TYPES)[number]
/** The widget types that show a query (the grids show the live wallboard instead). */
export const QUERY_WIDGETS: readonly BuilderWidgetType[] = ['number', 'table', 'bar', 'line', 'pie']

/** Groupings: by the day or hour the event started (in the user's time zone), or by a text column of the dataset. */
export const BUILDER_GROUPS = [
  'none',
  'day',
  'hour',
  'agent',
  'team',
  'queue',
  'direction',
  'classification',
  'reason',
  'channel',
  'state',
  'status',
  'mailing',
  'type',
  'answered',
] as const
export type BuilderGroup = (typeof BUILDER_GROUPS)[number]

/** Numeric columns a measure other than count adds up (seconds for times). */
export const BUILDER_MEASURE_FIELDS = [
  'duration',
  'talk',
  'wait',
  'score',
  'attempts',
  'calls_offered',
  'calls_answered',
  'calls_placed',
  'abandoned',
  'service_level',
  'chats_answered',
  'pause_time',
  'after_service_time',
] as const
export type BuilderMeasureField = (typeof BUILDER_MEASURE_FIELDS)[number]

/** What each dataset offers: its filters, groupings (besides none, day and hour) and measurable columns. */
export const BUILDER_CATALOGUE: Record<
  BuilderDataset,
  { filters: readonly BuilderFilter[]; groups: readonly BuilderGroup[]; fields: readonly BuilderMeasureField[] }
> = {
  calls: {
    filters: ['team', 'agent', 'queue', 'campaign', 'classification'],
    groups: ['agent', 'queue', 'direction', 'classification', 'answered'],
    fields: ['duration', 'talk', 'wait'],
  },
  steps: {
    filters: ['team', 'agent', 'queue', 'campaign', 'classification'],
    groups: ['agent', 'queue', 'direction', 'classification'],
    fields: ['duration', 'talk', 'wait'],
  },
  chats: {
    filters: ['team', 'agent', 'chat_queue', 'classification'],
    groups: ['agent', 'queue', 'channel', 'state', 'classification'],
    fields: ['duration', 'wait'],
  },
  messages: { filters: ['team', 'agent', 'chat_queue'], groups: ['agent', 'queue', 'channel', 'type'], fields: [] },
  pauses: { filters: ['team', 'agent'], groups: ['agent', 'team', 'reason'], fields: ['duration'] },
  'after-service': { filters: ['team', 'agent', 'queue', 'classification'], groups: ['agent', 'team', 'queue', 'classification'], fields: ['duration'] },
  statuses: { filters: ['team', 'agent'], groups: ['agent', 'team', 'status', 'channel'], fields: [] },
  nps: { filters: ['team', 'agent', 'queue'], groups: ['agent', 'queue', 'channel'], fields: ['score'] },
  leads: { filters: ['campaign'], groups: ['mailing', 'status'], fields: ['attempts'] },
  activities: { filters: ['team', 'agent', 'campaign'], groups: ['agent', 'team', 'type', 'status'], fields: ['attempts'] },
  agents: {
    filters: ['team', 'agent'],
    groups: ['agent', 'team'],
    fields: ['calls_answered', 'calls_placed', 'talk', 'chats_answered', 'pause_time', 'after_service_time'],
  },
  queues: { filters: ['queue'], groups: ['queue'], fields: ['calls_offered', 'calls_answered', 'abandoned', 'service_level'] },
}

/** Datasets the service socket announces changes of (a call ended, a status changed…): a page over them refreshes. */
export const LIVE_DATASETS: readonly BuilderDataset[] = [
  'calls',
  'steps',
  'chats',
  'messages',
  'pauses',
  'after-service',
  'statuses',
  'nps',
  'agents',
  'queues',
]

/** Day and hour group events by when they started; the per-agent and per-queue datasets have no time of their own. */
export const TIMELESS: readonly BuilderDataset[] = ['agents', 'queues']

export const BUILDER_TEXTS = {
  datasets: {
    calls: t('Chamadas', 'Calls', 'Llamadas'),
    steps: t('Etapas de chamadas', 'Call steps', 'Etapas de llamadas'),
    chats: t('Chats', 'Chats', 'Chats'),
    messages: t('Mensagens de chat', 'Chat messages', 'Mensajes de chat'),
    pauses: t('Pausas', 'Pauses', 'Pausas'),
    'after-service': t('Pós-atendimento', 'After-service', 'Posatención'),
    statuses: t('Status dos agentes', 'Agent statuses', 'Estados de los agentes'),
    nps: t('Respostas de NPS', 'NPS answers', 'Respuestas de NPS'),
    leads: t('Leads', 'Leads', 'Leads'),
    activities: t('Atividades', 'Activities', 'Actividades'),
    agents: t('Produtividade dos agentes', 'Agent productivity', 'Productividad de los agentes'),
    queues: t('Nível de serviço das filas', 'Queue service level', 'Nivel de servicio de las colas'),
  } satisfies Record<BuilderDataset, Texts>,
  periods: {
    today: t('Hoje', 'Today', 'Hoy'),
    yesterday: t('Ontem', 'Yesterday', 'Ayer'),
    last_7_days: t('Últimos 7 dias', 'Last 7 days', 'Últimos 7 días'),
    last_30_days: t('Últimos 30 dias', 'Last 30 days', 'Últimos 30 días'),
    this_month: t('Este mês', 'This month', 'Este mes'),
  } satisfies Record<BuilderPeriod, Texts>,
  measures: {
    count: t('Quantidade', 'Count', 'Cantidad'),
    sum: t('Soma', 'Sum', 'Suma'),
    avg: t('Média', 'Average', 'Promedio'),
    min: t('Mínimo', 'Minimum', 'Mínimo'),
    max: t('Máximo', 'Maximum', 'Máximo'),
  } satisfies Record<BuilderMeasure, Texts>,
  groups: {
    none: t('Sem agrupamento', 'No grouping', 'Sin agrupar'),
    day: t('Dia', 'Day', 'Día'),
    hour: t('Hora do dia', 'Hour of the day', 'Hora del día'),
    agent: t('Agente', 'Agent', 'Agente'),
    team: t('Equipe', 'Team', 'Equipo'),
    queue: t('Fila', 'Queue', 'Cola'),
    direction: t('Direção', 'Direction', 'Dirección'),
    classification: t('Classificação', 'Classification', 'Clasificación'),
    reason: t('Motivo', 'Reason', 'Motivo'),
    channel: t('Canal', 'Channel', 'Canal'),
    state: t('Situação', 'State', 'Situación'),
    status: t('Status', 'Status', 'Estado'),
    mailing: t('Mailing', 'Mailing', 'Mailing'),
    type: t('Tipo', 'Type', 'Tipo'),
    answered: t('Atendida', 'Answered', 'Atendida'),
  } satisfies Record<BuilderGroup, Texts>,
  fields: {
    duration: t('Duração', 'Duration', 'Duración'),
    talk: t('Tempo falado', 'Talk time', 'Tiempo hablado'),
    wait: t('Espera', 'Wait', 'Espera'),
    score: t('Nota', 'Score', 'Nota'),
    attempts: t('Tentativas', 'Attempts', 'Intentos'),
    calls_offered: t('Chamadas recebidas', 'Calls received', 'Llamadas recibidas'),
    calls_answered: t('Chamadas atendidas', 'Calls answered', 'Llamadas atendidas'),
    calls_placed: t('Chamadas realizadas', 'Calls placed', 'Llamadas realizadas'),
    abandoned: t('Abandonadas', 'Abandoned', 'Abandonadas'),
    service_level: t('Nível de serviço (%)', 'Service level (%)', 'Nivel de servicio (%)'),
    chats_answered: t('Chats atendidos', 'Chats answered', 'Chats atendidos'),
    pause_time: t('Tempo em pausa', 'Pause time', 'Tiempo en pausa'),
    after_service_time: t('Tempo de pós-atendimento', 'After-service time', 'Tiempo de posatención'),
  } satisfies Record<BuilderMeasureField, Texts>,
  widgets: {
    number: t('Número', 'Number', 'Número'),
    table: t('Tabela', 'Table', 'Tabla'),
    bar: t('Barras', 'Bar chart', 'Barras'),
    line: t('Linhas', 'Line chart', 'Líneas'),
    pie: t('Pizza', 'Pie chart', 'Circular'),
    'agent-grid': t('Grade de agentes (ao vivo)', 'Agent grid (live)', 'Cuadrícula de agentes (en vivo)'),
    'queue-grid': t('Grade de filas (ao vivo)', 'Queue grid (live)', 'Cuadrícula de colas (en vivo)'),
  } satisfies Record<BuilderWidgetType, Texts>,
  notForDataset: t('Não disponível para este conjunto de dados', 'Not available for this dataset', 'No disponible para este conjunto de datos'),
  measureFieldRequired: t('Escolha o campo a medir', 'Choose the field to measure', 'Elija el campo a medir'),
  noDataset: t('Conjunto de dados indisponível neste servidor', 'Dataset not available on this server', 'Conjunto de datos no disponible en este servidor'),
}

const lang = (l: string | undefined) => (l === 'en-US' || l === 'es-ES' ? l : 'pt-BR')
export const builderText = (texts: Texts, locale: string | undefined) => texts[lang(locale)]

/**
 * Field errors of a query that the catalogue refuses: a filter, grouping or measured column the dataset does not
 * have, a measure other than count without its column. Empty when the query is sound.
 */
export function queryErrors(query: BuilderQuery, locale?: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const entry = BUILDER_CATALOGUE[query.dataset]
  const refuse = (field: string) => (errors[field] = [builderText(BUILDER_TEXTS.notForDataset, locale)])
  for (const filter of BUILDER_FILTERS) if (query[filter] != null && !entry.filters.includes(filter)) refuse(filter)
  const group = query.group_by ?? 'none'
  if (group !== 'none' && !(group === 'day' || group === 'hour' ? !TIMELESS.includes(query.dataset) : entry.groups.includes(group))) refuse('group_by')
  const measure = query.measure ?? 'count'
  if (measure !== 'count') {
    if (!query.measure_field) errors.measure_field = [builderText(BUILDER_TEXTS.measureFieldRequired, locale)]
    else if (!entry.fields.includes(query.measure_field)) refuse('measure_field')
  }
  return errors
}

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)
const Id = v.nullish(v.pipe(v.number(invalid), v.integer(invalid), v.minValue(1, invalid), v.maxValue(2_147_483_647, invalid)))

/** A query as stored (builder.queries) or sent to the preview (POST run). */
export const BuilderQuery = v.object({
  dataset: v.picklist(BUILDER_DATASETS, invalid),
  period: v.optional(v.picklist(BUILDER_PERIODS, invalid), 'today'),
  measure: v.optional(v.picklist(BUILDER_MEASURES, invalid), 'count'),
  measure_field: v.nullish(v.picklist(BUILDER_MEASURE_FIELDS, invalid)),
  group_by: v.optional(v.picklist(BUILDER_GROUPS, invalid), 'none'),
  /** The most groups shown (the largest first; every day or hour of the period when grouped by time). */
  limit: v.optional(v.pipe(v.number(invalid), v.integer(invalid), v.minValue(1, invalid), v.maxValue(100, invalid)), 10),
  team: Id,
  agent: Id,
  queue: Id,
  chat_queue: Id,
  campaign: Id,
  classification: Id,
})
export type BuilderQuery = v.InferOutput<typeof BuilderQuery>

/** POST run: the query and the user's IANA time zone (the period's days follow it). */
export const BuilderRunBody = v.object({ query: BuilderQuery, tz: v.optional(v.pipe(v.string(invalid), v.maxLength(64, invalid)), 'UTC') })

export const BuilderPageParams = v.object({
  kind: v.picklist(['dashboards', 'reports'] as const, invalid),
  id: v.pipe(v.string(invalid), v.regex(/^[1-9]\d{0,8}$/, invalid), v.transform(Number)),
})
const QueryId = v.optional(v.pipe(v.string(invalid), v.regex(/^[1-9]\d{0,8}$/, invalid), v.transform(Number)))
/**
 * GET page: the user's time zone and the viewer's filter bar — a period and a team, agent, queue, chat queue,
 * campaign or classification that replace the stored ones in every widget whose dataset takes them (the others keep
 * theirs). An id must be one of the site's (GET filters' choices, any agent of the site): else 400.
 */
export const BuilderPageQuery = v.object({
  tz: v.optional(v.pipe(v.string(invalid), v.maxLength(64, invalid)), 'UTC'),
  period: v.optional(v.picklist(BUILDER_PERIODS, invalid)),
  team: QueryId,
  agent: QueryId,
  queue: QueryId,
  chat_queue: QueryId,
  campaign: QueryId,
  classification: QueryId,
})
/** The filters a viewer may set on a page (the filter bar), when one of the page's queries takes them. */
export const VIEWER_FILTERS = ['team', 'agent', 'queue', 'chat_queue', 'campaign', 'classification'] as const satisfies readonly BuilderFilter[]
export type ViewerFilter = (typeof VIEWER_FILTERS)[number]
/** The datasets whose queue is a telephony queue: the viewer's queue (from BuilderFilterChoices.queue) applies to them (NPS mixes keypad and chat answers: it keeps its stored queue). */
export const VIEWER_QUEUE_DATASETS: readonly BuilderDataset[] = ['calls', 'steps', 'after-service', 'queues']
export type BuilderChoice = { id: number; description: string }
export type BuilderFilterChoices = Record<ViewerFilter, BuilderChoice[]>

export type BuilderValueKind = 'number' | 'duration' | 'percent'

/** A query's answer: the total over the period and, when grouped, one value per group. */
export type BuilderResult = {
  dataset: BuilderDataset
  measure: { key: string; label: string; kind: BuilderValueKind }
  group: { key: BuilderGroup; label: string }
  total: number | null
  groups: { label: string; value: number | null }[]
  from: string
  to: string
}

export type BuilderWidgetData = {
  id: number
  title: string
  type: BuilderWidgetType
  width: number
  height: number
  result: BuilderResult | null
  /** Why the widget shows nothing (a query the catalogue refuses, a dataset this server lacks). */
  error: string | null
}

export type BuilderPage = {
  id: number
  kind: 'dashboards' | 'reports'
  title: string
  refresh: number
  widgets: BuilderWidgetData[]
  /** The filter bar: the period when the page has a query, and the viewer filters one of its queries takes. */
  filters: { period: boolean; fields: ViewerFilter[] }
  /** Whether a query reads data the service socket announces changes of (calls, chats, pauses, statuses…). */
  live: boolean
  /** The spec's insidepages: pages linked from inside this one that the user may open. */
  inside: BuilderMenuPage[]
}

export type BuilderMenuPage = { id: number; kind: 'dashboards' | 'reports'; title: string }
/** A category and its sub-categories (spec's builder sub-categories), each holding pages. */
export type BuilderMenuCategory = { id: number; title: string; pages: BuilderMenuPage[]; categories: BuilderMenuCategory[] }
export type BuilderMenuEntry = { id: number; kind: 'dashboards' | 'reports'; title: string; pages: BuilderMenuPage[]; categories: BuilderMenuCategory[] }
/** `home`: the dashboard page shown at `/` for this user (the spec's homepages), or null for the default home. */
export type BuilderMenu = { menus: BuilderMenuEntry[]; home: BuilderMenuPage | null }
