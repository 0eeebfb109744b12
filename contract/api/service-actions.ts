import * as v from 'valibot'
import { message } from '../messages.ts'
import { Id } from './agent.ts'

// Spec 000 §7 "Service actions" (the webphone's call form: tab-form GET/POST, after-service start) and "Agent channel
// and pause" (transfer cancel, pendencies). Paths relative to /api. `uid` is a call step's uid (the X-Atende-Uid call
// control gives both agents' devices) or the SIP Call-ID of the call.

export const SERVICE_ACTION_PATHS = {
  tabForm: '/v1/service/action/tab-form/:uid/',
  afterServiceStart: '/v1/service/action/after-service/start/:uid/',
  transferCancel: '/v1/agent/transfer/cancel/',
} as const

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)
const required = (issue: v.BaseIssue<unknown>) => message('required', issue.lang)

/** A step uid (36 characters) or a SIP Call-ID (up to 255). */
export const CallUid = v.pipe(v.string(invalid), v.trim(), v.nonEmpty(required), v.maxLength(255, invalid))
export const CallUidParam = v.object({ uid: CallUid })

/** A count of seconds in a query string or JSON. */
const Seconds = v.pipe(
  v.union([v.pipe(v.string(invalid), v.trim(), v.regex(/^\d{1,7}$/, invalid), v.transform(Number)), v.number(invalid)], invalid),
  v.integer(invalid),
  v.minValue(0, invalid),
  v.maxValue(86_400, invalid),
)

/** POST tab-form: what is sent (spec: classification, form, or hangup = the after-service's end). */
export const TAB_FORM_TYPES = ['classification', 'form', 'hangup'] as const
export type TabFormType = (typeof TAB_FORM_TYPES)[number]

export const TabFormQuery = v.variant(
  'type',
  [
    v.object({
      type: v.literal('classification'),
      system_mailing_client: v.optional(Id),
      /** `chat`: the uid names a chat room (its uid or id) of the agent's (server/chat/outcomes.ts). */
      step_type: v.optional(v.picklist(['call', 'chat'], invalid)),
    }),
    v.object({ type: v.literal('form'), form_id: Id, step_type: v.optional(v.picklist(['call', 'chat'], invalid)) }),
    v.object({
      type: v.literal('hangup'),
      after_service_type: v.optional(v.pipe(Seconds, v.maxValue(99, invalid))),
      after_service_duration: v.optional(Seconds),
    }),
  ],
  invalid,
)
export type TabFormQuery = v.InferOutput<typeof TabFormQuery>

/** Longest classification comment kept (the team's maximum_comment_size is checked against it too). */
export const COMMENT_MAX = 10_000

const NullableId = v.optional(v.nullable(Id))

/**
 * The classification body (spec 000 §3 "Classification chain" plus the schedule fields and the team's comment). The
 * chain is checked against the site's settings: a classification of another site is refused like an unknown one.
 */
export const ClassificationBody = v.object({
  queue_id: NullableId,
  classification_id: Id,
  sub_classification_id: NullableId,
  comment: v.optional(
    v.pipe(
      v.string(invalid),
      v.trim(),
      v.maxLength(COMMENT_MAX, (i) => message('maxLength', i.lang, { n: COMMENT_MAX })),
    ),
    '',
  ),
  schedule_date: v.optional(
    v.nullable(
      v.pipe(
        v.string(invalid),
        v.check((s) => !Number.isNaN(new Date(s).getTime()), invalid),
      ),
    ),
  ),
  selectedActivity: v.optional(v.nullable(v.unknown())),
  /** auto_run_schedule 3 (optional, visible): whether the agent wants the callback dialled automatically. */
  schedule_auto_run: v.optional(v.nullable(v.boolean(invalid))),
  /** schedule_send_to 4 (the agent chooses): the user the callback goes to. */
  schedule_user_id: NullableId,
})
export type ClassificationBody = v.InferOutput<typeof ClassificationBody>

/** Form values: one JSON object of field name → value (at most 64 KB once stored). */
export const FORM_VALUES_MAX_BYTES = 64 * 1024
export const FormValuesBody = v.pipe(
  v.record(v.pipe(v.string(), v.maxLength(100)), v.unknown(), invalid),
  v.check((values) => JSON.stringify(values).length <= FORM_VALUES_MAX_BYTES, invalid),
)

/** What `data` of the tab-form answer holds: the call as the agent's form needs it (spec 000 §3 Call session). */
export type CallSessionData = {
  id: number
  uid: string
  call_id: string
  direction: string
  call_type: number
  phone: string
  client: number | null
  client_name: string
  mailing_client: number | null
  queue: number | null
  queue_name: string
  dialer: number | null
  campaign: number | null
  mailing: number | null
  transfer_type: string | null
}

/**
 * A call form as the form builder defines it (spec 001 §3 form field definitions, API names): the webphone draws it
 * with the dynamic renderer (src/features/settings/formBuilder/builderFields.ts builderForm).
 */
export type CallFormDefinition = { id: number; description: string; fields: Record<string, unknown>[] }

/** What the agent sent for a step: the chain, the comment, the schedule and the activity it created. */
export type StepClassification = {
  queue_id: number | null
  classification_id: number
  sub_classification_id: number | null
  comment: string
  schedule_date: string | null
  classified_by: number
  /** The scheduled activity the classification created (a sub-classification with enable_schedule). */
  activity_id?: number | null
}

/** GET tab-form: the call's metadata once call control has recorded its step (404 before). */
export type TabFormResponse = {
  success: true
  /** The form the call's queue (else its inbound route) names, or null. */
  form: number | null
  /** That form's definition, for the renderer (null without a form). */
  form_definition: CallFormDefinition | null
  /** The answers already sent (a form is never resent), and the classification. */
  form_values: Record<string, unknown> | null
  classification: StepClassification | null
  /** The team requires a classification for this call type (enable_classifications). */
  classification_required: boolean
  /** The scheduled activity the call works, if any. */
  activity: number | null
  data: CallSessionData
  /** The agent's team's after-service: on and how many seconds. */
  afterService: { active: boolean; seconds: number }
  /** What the agent already sent for this step. */
  classified: boolean
  form_sent: boolean
}

export type TabFormPostResponse = {
  success: boolean
  detail: string
  /** ?type=classification: the activity the schedule created (or updated), else null. */
  activity?: number | null
}

export type AfterServiceStartResponse = {
  /** The after-service's pause report (null when the call needs none: see ignore_after_service_dial_status). */
  id: number | null
  /** True when the team ignores unanswered calls and this one was not answered: end the after-service at once. */
  ignore_after_service_dial_status: boolean
}

export const TRANSFER_TYPES = ['blind', 'attend', 'pendulum'] as const

/** POST /v1/agent/transfer/cancel/: `step_id` is the origin call's uid (machines/README.md "Transfer"). */
export const TransferCancelBody = v.object({
  step_id: CallUid,
  type: v.picklist(TRANSFER_TYPES, invalid),
  app: v.optional(v.pipe(v.string(invalid), v.trim(), v.maxLength(32, invalid)), ''),
  appdata: v.optional(v.pipe(v.union([v.string(invalid), v.number(invalid)], invalid), v.transform(String), v.maxLength(255, invalid)), ''),
})
export type TransferCancelBody = v.InferOutput<typeof TransferCancelBody>

export type TransferCancelResponse = { success: true; detail: string; cancelled: number }

/** One call the agent has not finished (GET /v1/agent/pendencies/). */
export type PendingCall = {
  uid: string
  call_id: string
  phone: string
  call_type: number
  direction: string
  queue: number | null
  started_at: string
  ended_at: string | null
  /** What is missing: the classification, the after-service's end. */
  classified: boolean
  after_service_finished: boolean
}
