import * as v from 'valibot'

// The dialer's runtime API (server/dialer/README.md "Runtime"): start, pause and stop a campaign and read its
// progress; an agent's preview lead and `PUT /v1/service/action/make-call-to-mailing-client/` (spec 000 §7).

export const CAMPAIGN_COMMANDS = ['start', 'pause', 'stop'] as const
export type CampaignCommand = (typeof CAMPAIGN_COMMANDS)[number]

export const dialerPaths = {
  command: (id: number | string, command: CampaignCommand) => `/api/v1/service/shipments-campaigns/${id}/${command}/`,
  progress: (id: number | string) => `/api/v1/service/shipments-campaigns/${id}/progress/`,
  preview: '/api/v1/service/action/preview-lead/',
  makeCall: '/api/v1/service/action/make-call-to-mailing-client/',
} as const

export const CampaignParams = v.object({ id: v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number)) })

/** A campaign's progress: the REST answer and the service socket's `dialerProgress` frame. */
export const CampaignProgressShape = v.strictObject({
  campaign: v.number(),
  status: v.picklist(['running', 'paused', 'stopped', 'idle']),
  leads_total: v.number(),
  leads_dialled: v.number(),
  leads_answered: v.number(),
  leads_remaining: v.number(),
  lines_in_use: v.number(),
  abandoned: v.number(),
})
export type CampaignProgress = v.InferOutput<typeof CampaignProgressShape>

/** `?mailing_client={id}` and, to release a hold when the call failed to start, `&remove_reserved=true`. */
export const MakeCallQuery = v.object({
  mailing_client: v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number)),
  remove_reserved: v.optional(v.picklist(['true', 'false'])),
  /** Ours, with remove_reserved: the agent skips the preview lead (due again after the campaign's minimum interval). */
  skip: v.optional(v.picklist(['true', 'false'])),
})

/** Spec 000 §7 make-call-to-mailing-client's answer. */
export type MakeCallResponse = {
  success: boolean
  reason: string
  owner: number | null
  dialer: number | null
  campaign: number | null
  mailing: number | null
  client: number | null
  client_name: string
  mailing_client_attempts: number
  /** What the webphone dials (ours: the lead's phone this try). */
  phone: string
}

/** The next lead of a preview campaign reserved for the agent (null when none is due). */
export type PreviewLead = {
  campaign: number
  campaign_name: string
  countdown: number
  mailing_client: number
  mailing: number
  client: number | null
  name: string
  phone: string
  attempts: number
} | null

/** The reasons make-call-to-mailing-client and the campaign commands answer (the webphone toasts them). */
export const DIALER_MESSAGES = {
  leadReserved: {
    'pt-BR': 'Este lead está reservado para outro agente.',
    'en-US': 'This lead is reserved for another agent.',
    'es-ES': 'Este lead está reservado para otro agente.',
  },
  leadNotDue: {
    'pt-BR': 'Este lead não pode ser discado agora.',
    'en-US': 'This lead cannot be dialled now.',
    'es-ES': 'Este lead no se puede marcar ahora.',
  },
  blacklisted: {
    'pt-BR': 'Número em lista de bloqueio.',
    'en-US': 'Number on a blocklist.',
    'es-ES': 'Número en una lista de bloqueo.',
  },
  noCampaign: {
    'pt-BR': 'Nenhuma campanha ativa inclui este lead.',
    'en-US': 'No active campaign includes this lead.',
    'es-ES': 'Ninguna campaña activa incluye este lead.',
  },
  released: { 'pt-BR': 'Reserva liberada.', 'en-US': 'Reservation released.', 'es-ES': 'Reserva liberada.' },
} as const satisfies Record<string, Record<'pt-BR' | 'en-US' | 'es-ES', string>>

// ---------------------------------------------------------------------------------------------------------------
// The simulator (issue 18 item 5): a campaign's past results, or given rates and times, against N agents under
// several modes and ratios, with the live dialer's pace() (server/dialer/simulator.ts). Rates and caps in percent.
// Bounded by simulationWork (below).
// ---------------------------------------------------------------------------------------------------------------

export const simulatePath = '/api/v1/service/dialer/simulate/'

/**
 * The simulated work of a request, bounded so it answers within about two seconds on a 2-core box (measured, README
 * "Simulator"): per mode and simulated hour, a fixed part (the pacer's ticks) plus the agents, with a square term
 * (the predictive pacer looks at every busy agent each second).
 */
export const simulationWork = (agents: number, hours: number, modes: number) => modes * hours * (20 + agents + (agents * agents) / 250)
export const SIMULATION_MAX_WORK = 1000
export const SIMULATION_MAX_MODES = 4
/** A campaign's finished attempts needed to replay its history (fewer: the given rates, or a 400 without them). */
export const SIMULATION_MIN_HISTORY = 30

export const SIMULATION_MESSAGES = {
  tooMuchWork: {
    'pt-BR': 'Simulação grande demais: reduza os agentes, as horas ou os modos.',
    'en-US': 'Simulation too large: fewer agents, hours or modes.',
    'es-ES': 'Simulación demasiado grande: reduzca los agentes, las horas o los modos.',
  },
  ratesNeeded: {
    'pt-BR': 'Informe as taxas ou escolha uma campanha com histórico.',
    'en-US': 'Give the rates or choose a campaign with history.',
    'es-ES': 'Indique las tasas o elija una campaña con historial.',
  },
  tooLittleHistory: {
    'pt-BR': `A campanha tem menos de ${SIMULATION_MIN_HISTORY} tentativas: informe as taxas.`,
    'en-US': `The campaign has fewer than ${SIMULATION_MIN_HISTORY} attempts: give the rates.`,
    'es-ES': `La campaña tiene menos de ${SIMULATION_MIN_HISTORY} intentos: indique las tasas.`,
  },
  ratesOver100: {
    'pt-BR': 'A soma das taxas não pode passar de 100 %.',
    'en-US': 'The rates cannot add up to more than 100 %.',
    'es-ES': 'La suma de las tasas no puede superar el 100 %.',
  },
  minOverMax: {
    'pt-BR': 'O mínimo não pode passar do máximo.',
    'en-US': 'The minimum cannot exceed the maximum.',
    'es-ES': 'El mínimo no puede superar el máximo.',
  },
} as const satisfies Record<string, Record<'pt-BR' | 'en-US' | 'es-ES', string>>

type SimulationMessage = keyof typeof SIMULATION_MESSAGES
const simMessage = (key: SimulationMessage) => (issue: { lang?: string }) =>
  SIMULATION_MESSAGES[key][(issue.lang as 'pt-BR' | 'en-US' | 'es-ES' | undefined) ?? 'pt-BR'] ?? SIMULATION_MESSAGES[key]['pt-BR']

const bounded = (min: number, max: number) => v.pipe(v.number(), v.finite(), v.minValue(min), v.maxValue(max))
const boundedInt = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max))

/** Seconds: a uniform range, or a mean (exponential). */
const Seconds = (max: number) =>
  v.union([
    v.pipe(
      v.strictObject({ min: bounded(0, max), max: bounded(0, max) }),
      v.forward(
        v.check((s) => s.min <= s.max, simMessage('minOverMax')),
        ['max'],
      ),
    ),
    v.strictObject({ mean: bounded(0, max) }),
  ])

export const SIMULATION_MODES = ['progressive', 'power', 'predictive'] as const

export const SimulateBody = v.pipe(
  v.strictObject({
    /** Replay this campaign's past results (its finished attempts of the last 30 days). */
    campaign: v.optional(boundedInt(1, 999_999_999)),
    agents: boundedInt(1, 500),
    hours: bounded(0.25, 8),
    /** Percent of dial attempts (the rest: other failures); required without a campaign, the fallback with one. */
    rates: v.optional(
      v.pipe(
        v.strictObject({ answer: bounded(0, 100), busy: bounded(0, 100), no_answer: bounded(0, 100) }),
        v.forward(
          v.check((r) => r.answer + r.busy + r.no_answer <= 100, simMessage('ratesOver100')),
          ['answer'],
        ),
      ),
    ),
    /** Seconds from origination to answer (default 5–20 s). */
    ring: v.optional(Seconds(120)),
    /** Talk seconds (default 60–180 s). */
    talk: v.optional(Seconds(7200)),
    /** Wrap-up seconds (default 5–15 s). */
    wrap: v.optional(Seconds(3600)),
    modes: v.pipe(
      v.array(v.strictObject({ mode: v.picklist(SIMULATION_MODES), ratio: v.optional(bounded(1, 10)) })),
      v.minLength(1),
      v.maxLength(SIMULATION_MAX_MODES),
    ),
    /** Percent of answered calls over 30 days (default: the campaign's, else 3). */
    abandon_cap: v.optional(bounded(0, 20)),
    seed: v.optional(boundedInt(0, 2 ** 31 - 1)),
  }),
  v.forward(
    v.check((b) => b.campaign !== undefined || b.rates !== undefined, simMessage('ratesNeeded')),
    ['rates'],
  ),
  v.forward(
    v.check((b) => simulationWork(b.agents, b.hours, b.modes.length) <= SIMULATION_MAX_WORK, simMessage('tooMuchWork')),
    ['agents'],
  ),
)
export type SimulateBody = v.InferInput<typeof SimulateBody>

export type SimulationResult = {
  mode: (typeof SIMULATION_MODES)[number]
  ratio: number | null
  /** Shares (0–1) of logged-in agent time. */
  occupancy: number
  wrap_share: number
  idle_share: number
  /** Abandoned share of answered calls in the run, and the worst rolling 30-day window seen. */
  abandon_rate: number
  worst_window_rate: number
  answered_per_agent_hour: number
  dials_per_second: number
  dials: number
  answered: number
  abandoned: number
}

export type SimulateResponse = {
  /** history: the campaign's past attempts were replayed; rates: the given rates (with a campaign: too little history). */
  source: 'history' | 'rates'
  /** The campaign's finished attempts found (null without a campaign). */
  history_attempts: number | null
  agents: number
  hours: number
  seed: number
  abandon_cap: number
  results: SimulationResult[]
}
