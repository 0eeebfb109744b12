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
