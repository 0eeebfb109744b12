import { canonicalPhone, DEFAULT_PHONE_COUNTRY } from '../../contract/phone.ts'
import type { DialStatusCode } from '../../contract/codes/dial-status.ts'
import type { LEAD_STATUSES } from '../../contract/entities/crm-records.ts'
import { instantOf, isTimeZone, wallMs, wallOf } from './zoned.ts'

// The dialer's persistence rules (spec 000 §3 "dialer configuration" and service/shipments/persistence-rules, §4 dial
// status codes, §5 lead inactivation 0 = never) and the checks made right before a call goes out (blacklists, calling
// windows and holidays in the lead's time zone). Pure functions: the campaign runtime (server/dialer/ runtime) reads
// the rows, asks these, and writes what they answer. See README.md for the decisions.

// ---------------------------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------------------------

export type LeadStatus = (typeof LEAD_STATUSES)[number]

/** What to do after a call ended with a given dial status or classification. */
export type StatusAction =
  /** Call the same phone again, no sooner than `afterMinutes` (and the rules' minimum interval). */
  | { do: 'retry'; afterMinutes?: number }
  /** Call the lead's next usable phone, no sooner than `afterMinutes` (and the minimum interval). */
  | { do: 'next_phone'; afterMinutes?: number }
  /** The lead is worked: stop calling it (lead status done). */
  | { do: 'done' }
  /** Stop calling the lead (lead status inactive). */
  | { do: 'disable_lead' }
  /** Stop calling this phone (the channel); the lead goes on with its other phones, inactive when none is left. */
  | { do: 'disable_phone' }

/**
 * A mailing's persistence rules (the service/shipments persistence-rules entity; the entity's snake_case fields map
 * one to one, see `persistenceRulesFromRecord`). Counts of 0 mean unlimited, durations of 0 mean never.
 */
export type PersistenceRules = {
  /** Client persistence: calls per lead over all its phones (0 = unlimited). */
  attemptsPerLead: number
  /** Phone persistence: calls per phone (0 = unlimited). */
  attemptsPerPhone: number
  /** Minimum interval between two calls to the same lead, in minutes. */
  minIntervalMinutes: number
  /** How long a call rings before it is given up (487), in seconds: read by the originator, not here. */
  dialTimeSeconds: number
  /** Reset attempts: a lead whose attempts ran out is called again from zero after this many hours (0 = never). */
  resetAttemptsAfterHours: number
  /** Lead inactivation by call duration: an answered call that talked at least this long makes the lead done (0 = never). */
  inactivateAfterTalkSeconds: number
  /** Disable lead or channel: what a number that cannot be called (invalid, does not exist, fax) disables. */
  disableOnInvalid: 'lead' | 'phone'
  /** Per dial status overrides of DEFAULT_STATUS_ACTIONS. */
  statuses: Partial<Record<number, StatusAction>>
  /** What each classification (by id) does next; a classification not listed leaves the decision to the status. */
  classifications: Partial<Record<string, StatusAction>>
}

export const DEFAULT_PERSISTENCE_RULES: PersistenceRules = {
  attemptsPerLead: 10,
  attemptsPerPhone: 3,
  minIntervalMinutes: 60,
  dialTimeSeconds: 30,
  resetAttemptsAfterHours: 0,
  inactivateAfterTalkSeconds: 0,
  disableOnInvalid: 'phone',
  statuses: {},
  classifications: {},
}

export type LeadPhoneState = {
  phone: string
  /** Calls made to this phone so far. */
  attempts: number
  /** A phone disabled (invalid, fax, blacklisted) is never dialled again. */
  disabled: boolean
}

export type LeadAttemptState = {
  /** Calls made to the lead so far (all phones; crm_leads.attempts). */
  attempts: number
  /** The lead's phones; a bare string is a phone with no attempts counted and not disabled. */
  phones: readonly (LeadPhoneState | string)[]
}

export type DialResult = {
  /** The dial status code of spec 000 §4 (final codes only: not 100, 180, 183). */
  status: number
  /** Seconds talked, for answered calls (lead inactivation by call duration). */
  talkSeconds?: number
  /** Answered, but no agent was free within the grace time (the customer heard the safe message). */
  abandoned?: boolean
  /** The classification the agent chose, when the call reached one. */
  classificationId?: number | string | null
  /** A callback the classification chain scheduled (spec 000 §3 sub-classification schedule): dial the lead then. */
  scheduledAt?: Date | null
}

export type NextStep = {
  kind: 'retry' | 'next_phone' | 'done' | 'disable_lead' | 'disable_phone'
  /** Why, in words a supervisor reads. */
  reason: string
  /** The lead after this call: attempts counted, phones disabled, attempts reset when the reset rule fired. */
  lead: { attempts: number; phones: LeadPhoneState[] }
  leadStatus: LeadStatus
  /** The next call to make, absent when the lead must not be called again. */
  dial?: { phoneIndex: number; at: Date }
  /** Whether this call counted as an attempt (a blacklist cancellation and carrier/system failures do not). */
  counted: boolean
  /** The reset rule fired: the lead's and its phones' attempts were set back to 0 (applied in `lead`). */
  resetAttempts?: boolean
}

// ---------------------------------------------------------------------------------------------------------------
// Status defaults
// ---------------------------------------------------------------------------------------------------------------

/** Codes that are not a call's end: nextStep refuses them. */
export const NON_FINAL_STATUSES: readonly number[] = [100, 180, 183]
/** The number cannot be called at all (invalid, does not exist, incomplete, line change, fax): disable lead or channel. */
export const INVALID_NUMBER_STATUSES: readonly number[] = [400, 404, 484, 510, 511]
/** Failures of the carrier or of the platform, not of the lead: retried without spending an attempt. */
export const SYSTEM_FAILURE_STATUSES: readonly number[] = [401, 402, 407, 481, 482, 483, 500, 503]

/**
 * What each final dial status does when neither the rules nor a classification say otherwise. Busy comes back to
 * the same phone soon; no answer, voicemail and machines move on to the next phone; rejections too; uncertain
 * analysis is tried again on the same phone; invalid numbers and fax disable (lead or channel, per the rules).
 */
export const DEFAULT_STATUS_ACTIONS: Readonly<Record<number, StatusAction>> = {
  380: { do: 'retry' },
  405: { do: 'next_phone' },
  406: { do: 'next_phone' },
  488: { do: 'next_phone' },
  403: { do: 'next_phone' },
  408: { do: 'next_phone' },
  480: { do: 'next_phone' },
  486: { do: 'retry', afterMinutes: 0 },
  487: { do: 'next_phone' },
  502: { do: 'next_phone' },
  504: { do: 'next_phone' },
  531: { do: 'next_phone' },
  550: { do: 'next_phone' },
  551: { do: 'retry' },
  552: { do: 'next_phone' },
  559: { do: 'retry' },
  600: { do: 'retry', afterMinutes: 0 },
  603: { do: 'next_phone' },
  606: { do: 'next_phone' },
  608: { do: 'next_phone' },
  609: { do: 'disable_phone' },
  ...Object.fromEntries(INVALID_NUMBER_STATUSES.map((code) => [code, { do: 'disable_phone' } as const])),
  ...Object.fromEntries(SYSTEM_FAILURE_STATUSES.map((code) => [code, { do: 'retry', afterMinutes: 5 } as const])),
}

/** The action of a status nothing else decides (an unknown code): move on to the next phone. */
const UNKNOWN_STATUS_ACTION: StatusAction = { do: 'next_phone' }

// ---------------------------------------------------------------------------------------------------------------
// nextStep
// ---------------------------------------------------------------------------------------------------------------

const MINUTE = 60_000
const HOUR = 3_600_000

function usable(phone: LeadPhoneState, rules: PersistenceRules): boolean {
  return !phone.disabled && (rules.attemptsPerPhone <= 0 || phone.attempts < rules.attemptsPerPhone)
}

/** The first usable phone at or after `from` (cyclic), or -1. */
function phoneFrom(lead: { phones: readonly LeadPhoneState[] }, from: number, rules: PersistenceRules): number {
  const count = lead.phones.length
  for (let k = 0; k < count; k++) {
    const index = (((from + k) % count) + count) % count
    if (usable(lead.phones[index]!, rules)) return index
  }
  return -1
}

/**
 * What happens to a lead after one call ended. Order of precedence: a scheduled callback, then the classification's
 * action, then lead inactivation by call duration (answered calls), then the status action (rules, then defaults);
 * the attempts of the lead and the phone cap whatever that says, and the reset rule brings an exhausted lead back.
 */
export function nextStep(input: { lead: LeadAttemptState; phoneIndex: number; result: DialResult; rules: PersistenceRules; now: Date }): NextStep {
  const { result, rules, now, phoneIndex } = input
  const status = result.status
  if (NON_FINAL_STATUSES.includes(status)) throw new RangeError(`Dial status ${status} is not the end of a call`)
  if (phoneIndex < 0 || phoneIndex >= input.lead.phones.length) throw new RangeError(`The lead has no phone ${phoneIndex}`)

  const counted = status !== 609 && !SYSTEM_FAILURE_STATUSES.includes(status)
  const phones = input.lead.phones.map((entry, index): LeadPhoneState => {
    const phone = typeof entry === 'string' ? { phone: entry, attempts: 0, disabled: false } : { ...entry }
    return counted && index === phoneIndex ? { ...phone, attempts: phone.attempts + 1 } : phone
  })
  const lead = { attempts: input.lead.attempts + (counted ? 1 : 0), phones }
  const base = { lead, counted }
  const earliest = (afterMinutes = 0) => new Date(now.getTime() + Math.max(afterMinutes, rules.minIntervalMinutes) * MINUTE)

  // 1. A scheduled callback takes precedence at its time (attempt limits do not cancel what an agent promised).
  if (result.scheduledAt) {
    const index = phoneFrom(lead, phoneIndex, { ...rules, attemptsPerPhone: 0 })
    if (index >= 0) {
      return {
        ...base,
        kind: 'retry',
        leadStatus: 'pending',
        dial: { phoneIndex: index, at: result.scheduledAt },
        reason: `callback scheduled for ${result.scheduledAt.toISOString()}`,
      }
    }
  }

  // 2. The classification's action; 3. inactivation by call duration; 4. the status's.
  const classification = result.classificationId != null ? rules.classifications[String(result.classificationId)] : undefined
  let action: StatusAction
  let why: string
  if (classification) {
    action = classification
    why = `classification ${result.classificationId}`
  } else if (status === 200) {
    const talk = result.talkSeconds ?? 0
    if (rules.inactivateAfterTalkSeconds > 0 && talk >= rules.inactivateAfterTalkSeconds) {
      return { ...base, kind: 'done', leadStatus: 'done', reason: `answered and talked ${talk} s (inactivation after ${rules.inactivateAfterTalkSeconds} s)` }
    }
    // An answered call an agent took works the lead (a contact centre never rings a customer again after a
    // conversation unless a classification or the 200 rule says so); one nobody took (abandoned) is tried again.
    // With inactivation by duration on, a shorter conversation (a hang-up, a machine) is tried again.
    action = rules.statuses[200] ?? (result.abandoned || rules.inactivateAfterTalkSeconds > 0 ? { do: 'retry' } : { do: 'done' })
    why = result.abandoned
      ? 'answered, but no agent was free: abandoned, to be called again'
      : rules.inactivateAfterTalkSeconds > 0
        ? `answered, talked ${talk} s (under the ${rules.inactivateAfterTalkSeconds} s that inactivate the lead)`
        : 'answered and talked to an agent, no classification deciding'
  } else {
    action = rules.statuses[status] ?? DEFAULT_STATUS_ACTIONS[status] ?? UNKNOWN_STATUS_ACTION
    why = `dial status ${status}`
  }

  // Disabling for an invalid number follows the rules' "disable lead or channel".
  if (action.do === 'disable_phone' && INVALID_NUMBER_STATUSES.includes(status) && !classification && rules.disableOnInvalid === 'lead') {
    action = { do: 'disable_lead' }
  }

  switch (action.do) {
    case 'done':
      return { ...base, kind: 'done', leadStatus: 'done', reason: `${why}: the lead is done` }
    case 'disable_lead':
      return { ...base, kind: 'disable_lead', leadStatus: 'inactive', reason: `${why}: the lead is disabled` }
    case 'disable_phone': {
      phones[phoneIndex] = { ...phones[phoneIndex]!, disabled: true }
      const next = phoneFrom(lead, phoneIndex + 1, rules)
      if (next < 0) return exhausted(base, rules, now, `${why}: phone ${phoneIndex} disabled and no other phone is left`, 'disable_phone')
      return {
        ...base,
        kind: 'disable_phone',
        leadStatus: 'pending',
        dial: { phoneIndex: next, at: earliest() },
        reason: `${why}: phone ${phoneIndex} disabled, next phone ${next}`,
      }
    }
    case 'retry':
    case 'next_phone': {
      if (rules.attemptsPerLead > 0 && lead.attempts >= rules.attemptsPerLead) {
        return exhausted(base, rules, now, `${why}: ${lead.attempts} of ${rules.attemptsPerLead} attempts per lead used`, 'disable_lead')
      }
      const from = action.do === 'retry' ? phoneIndex : phoneIndex + 1
      const next = phoneFrom(lead, from, rules)
      if (next < 0) return exhausted(base, rules, now, `${why}: every phone used its ${rules.attemptsPerPhone} attempts or is disabled`, 'disable_lead')
      const at = earliest(action.afterMinutes)
      const kind = next === phoneIndex ? 'retry' : 'next_phone'
      const where = kind === 'retry' ? `same phone ${next}` : `phone ${next}`
      return { ...base, kind, leadStatus: 'pending', dial: { phoneIndex: next, at }, reason: `${why}: ${where} at ${at.toISOString()}` }
    }
  }
}

/** The lead has nothing left to dial: the reset rule brings it back later with its attempts at 0, or it is inactive. */
function exhausted(
  base: { lead: NextStep['lead']; counted: boolean },
  rules: PersistenceRules,
  now: Date,
  reason: string,
  kind: 'disable_lead' | 'disable_phone',
): NextStep {
  const reset = rules.resetAttemptsAfterHours > 0 ? base.lead.phones.map((p) => ({ ...p, attempts: 0 })) : null
  const index = reset ? reset.findIndex((p) => !p.disabled) : -1
  if (reset && index >= 0) {
    const at = new Date(now.getTime() + Math.max(rules.resetAttemptsAfterHours * HOUR, rules.minIntervalMinutes * MINUTE))
    return {
      ...base,
      lead: { attempts: 0, phones: reset },
      kind: 'retry',
      leadStatus: 'pending',
      resetAttempts: true,
      dial: { phoneIndex: index, at },
      reason: `${reason}; attempts reset, calling again at ${at.toISOString()}`,
    }
  }
  return { ...base, kind, leadStatus: 'inactive', reason: `${reason}: the lead is disabled` }
}

// ---------------------------------------------------------------------------------------------------------------
// The persistence-rules record (service/shipments/persistence-rules) → PersistenceRules
// ---------------------------------------------------------------------------------------------------------------

/** The entity's fields (snake_case, as the API and the form name them). Absent fields take the defaults. */
export type PersistenceRulesRecord = {
  attempts_per_lead?: number | null
  attempts_per_phone?: number | null
  min_interval_minutes?: number | null
  dial_time_seconds?: number | null
  reset_attempts_after_hours?: number | null
  inactivate_after_talk_seconds?: number | null
  disable_on_invalid?: 'lead' | 'phone' | null
  /** Rows { status, action, after_minutes }. */
  statuses?: readonly { status: number; action: StatusAction['do']; after_minutes?: number | null }[] | null
  /** Rows { classification, action, after_minutes }. */
  classifications?: readonly { classification: number | string; action: StatusAction['do']; after_minutes?: number | null }[] | null
}

function actionOf(row: { action: StatusAction['do']; after_minutes?: number | null }): StatusAction {
  if (row.action === 'retry' || row.action === 'next_phone')
    return row.after_minutes != null ? { do: row.action, afterMinutes: row.after_minutes } : { do: row.action }
  return { do: row.action }
}

function count(value: number | null | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback
}

export function persistenceRulesFromRecord(record: PersistenceRulesRecord | null | undefined): PersistenceRules {
  const d = DEFAULT_PERSISTENCE_RULES
  if (!record) return { ...d }
  return {
    attemptsPerLead: count(record.attempts_per_lead, d.attemptsPerLead),
    attemptsPerPhone: count(record.attempts_per_phone, d.attemptsPerPhone),
    minIntervalMinutes: count(record.min_interval_minutes, d.minIntervalMinutes),
    dialTimeSeconds: count(record.dial_time_seconds, d.dialTimeSeconds),
    resetAttemptsAfterHours: count(record.reset_attempts_after_hours, d.resetAttemptsAfterHours),
    inactivateAfterTalkSeconds: count(record.inactivate_after_talk_seconds, d.inactivateAfterTalkSeconds),
    disableOnInvalid: record.disable_on_invalid === 'lead' ? 'lead' : 'phone',
    statuses: Object.fromEntries((record.statuses ?? []).map((row) => [row.status, actionOf(row)])),
    classifications: Object.fromEntries((record.classifications ?? []).map((row) => [String(row.classification), actionOf(row)])),
  }
}

// ---------------------------------------------------------------------------------------------------------------
// mayDial: blacklist and calling windows at dial time
// ---------------------------------------------------------------------------------------------------------------

/** A service/blacklists row (spec 000 §5: complete phones, comma-separated). */
export type BlacklistEntry = {
  id?: number
  description?: string
  phones: string | readonly string[]
  is_active?: boolean | null
  direction?: 'both' | 'inbound' | 'outbound' | null
  expires_at?: Date | string | null
}

export type BlacklistMatcher = {
  /** The entry that blocks calling the phone at `now`, or null. */
  match(phone: string, now: Date): { entry: BlacklistEntry; phone: string } | null
  /** Whether the phone is blocked at `now` (default: the current time). */
  blocked(phone: string, now?: Date): boolean
  /** How many distinct numbers the matcher holds. */
  readonly size: number
}

function key(phone: string): string {
  return canonicalPhone(phone, { defaultCountry: DEFAULT_PHONE_COUNTRY })
}

/**
 * Indexes the blacklists that block outbound calls (direction both or outbound, active) by canonical phone
 * (contract/phone.ts: the same number written with or without +, spaces or Brazil's ninth digit is one key).
 * Expiry is checked at match time.
 */
export function blacklistMatcher(entries: readonly BlacklistEntry[]): BlacklistMatcher {
  const index = new Map<string, BlacklistEntry[]>()
  for (const entry of entries) {
    if (entry.is_active === false || entry.direction === 'inbound') continue
    const phones = typeof entry.phones === 'string' ? entry.phones.split(',') : entry.phones
    for (const raw of phones) {
      const k = key(raw)
      if (!k) continue
      const list = index.get(k)
      if (list) list.push(entry)
      else index.set(k, [entry])
    }
  }
  const match = (phone: string, now: Date) => {
    const k = key(phone)
    const entry = k ? index.get(k)?.find((e) => !e.expires_at || new Date(e.expires_at).getTime() > now.getTime()) : undefined
    return entry ? { entry, phone: k } : null
  }
  return { size: index.size, match, blocked: (phone, now = new Date()) => match(phone, now) !== null }
}

/** A service/calendars row with its hours and holidays (server/acd/calendar.ts's CalendarSpec, the same columns). */
export type CallingCalendar = {
  /** The calendar's own zone: holidays are read as wall-clock dates there. */
  timezone: string
  hours: readonly { weekday: number | null; start: string; end: string }[]
  holidays: readonly { start: Date | string | null; end: Date | string | null; yearly: boolean; description?: string }[]
}

export type MayDial = { ok: true } | { ok: false; status: 609 | 'outside_window'; reason: string; retryAt?: Date }

function minutesOf(hhmm: string): number | null {
  const match = /^(\d{1,2}):(\d{2})/.exec(hhmm)
  return match ? Number(match[1]) * 60 + Number(match[2]) : null
}

type WallHoliday = { start: number; end: number; yearly: boolean; description: string }

/** Holidays as wall-clock spans (wallMs) of the calendar's zone: Christmas is the 25th on every lead's own clock. */
function wallHolidays(calendar: CallingCalendar): WallHoliday[] {
  const zone = isTimeZone(calendar.timezone) ? calendar.timezone : 'America/Sao_Paulo'
  const out: WallHoliday[] = []
  for (const h of calendar.holidays) {
    if (!h.start || !h.end) continue
    const start = new Date(h.start).getTime()
    const end = new Date(h.end).getTime()
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) continue
    out.push({ start: wallMs(wallOf(start, zone)), end: wallMs(wallOf(end, zone)), yearly: h.yearly, description: h.description ?? '' })
  }
  return out
}

function shiftYear(ms: number, years: number): number {
  const d = new Date(ms)
  d.setUTCFullYear(d.getUTCFullYear() + years)
  return d.getTime()
}

/** The holiday covering the local wall time, with that occurrence's wall end. */
function holidayAt(local: number, holidays: readonly WallHoliday[]): { holiday: WallHoliday; end: number } | null {
  const year = new Date(local).getUTCFullYear()
  for (const h of holidays) {
    if (!h.yearly) {
      if (local >= h.start && local < h.end) return { holiday: h, end: h.end }
      continue
    }
    const startYear = new Date(h.start).getUTCFullYear()
    for (const y of [year, year - 1]) {
      const start = shiftYear(h.start, y - startYear)
      const end = shiftYear(h.end, y - startYear)
      if (local >= start && local < end) return { holiday: h, end }
    }
  }
  return null
}

function inHours(weekday: number, minutes: number, hours: CallingCalendar['hours']): boolean {
  if (hours.length === 0) return true
  const previous = (weekday + 6) % 7
  return hours.some((row) => {
    const start = minutesOf(row.start)
    const end = minutesOf(row.end)
    if (start === null || end === null || row.weekday === null) return false
    if (start < end) return row.weekday === weekday && minutes >= start && minutes < end
    return (row.weekday === weekday && minutes >= start) || (row.weekday === previous && minutes < end)
  })
}

type Window = { open: true } | { open: false; why: string; holiday?: { end: number } }

function windowAt(at: number, zone: string, calendar: CallingCalendar, holidays: readonly WallHoliday[]): Window {
  const wall = wallOf(at, zone)
  const local = wallMs(wall)
  const holiday = holidayAt(local, holidays)
  if (holiday) return { open: false, why: `holiday${holiday.holiday.description ? ` '${holiday.holiday.description}'` : ''}`, holiday: { end: holiday.end } }
  if (!inHours(wall.weekday, wall.hour * 60 + wall.minute, calendar.hours)) return { open: false, why: 'outside the calling hours' }
  return { open: true }
}

/** How far ahead nextWindowOpening looks for an opening. */
const SEARCH_DAYS = 400

/**
 * The first instant after `from` the calendar's window opens on the lead's clock (a row's start or a holiday's end),
 * or null when nothing opens within SEARCH_DAYS.
 */
export function nextWindowOpening(calendar: CallingCalendar, zone: string, from: Date): Date | null {
  const holidays = wallHolidays(calendar)
  const fromMs = from.getTime()
  const today = wallOf(fromMs, zone)
  const dayStart = Date.UTC(today.year, today.month - 1, today.day)
  const starts = [...new Set(calendar.hours.map((row) => minutesOf(row.start)).filter((m): m is number => m !== null))]
  for (let d = 0; d <= SEARCH_DAYS; d++) {
    const candidates: number[] = []
    const day = dayStart + d * 86_400_000
    const weekday = new Date(day).getUTCDay()
    for (const row of calendar.hours) {
      const start = minutesOf(row.start)
      if (start !== null && row.weekday === weekday) candidates.push(instantOf(day + start * MINUTE, zone))
    }
    if (calendar.hours.length === 0 || starts.length === 0) candidates.push(instantOf(day, zone))
    for (const h of holidays) {
      // A holiday's end on this day (its yearly repetitions too) may open a window already running.
      const year = new Date(day).getUTCFullYear()
      const ends = h.yearly ? [shiftYear(h.end, year - new Date(h.end).getUTCFullYear())] : [h.end]
      for (const end of ends) if (end >= day && end < day + 86_400_000) candidates.push(instantOf(end, zone))
    }
    const open = candidates
      .filter((at) => at > fromMs)
      .sort((a, b) => a - b)
      .find((at) => windowAt(at, zone, calendar, holidays).open)
    if (open !== undefined) return new Date(open)
  }
  return null
}

/**
 * Whether the dialer may call `phone` now: not on an active outbound blacklist (else status 609), and inside the
 * calendar's calling hours and outside its holidays on the lead's clock (else 'outside_window' with the next opening).
 * The hours are read in the lead's time zone (an unknown zone falls back to the calendar's); DST comes from Intl.
 */
export function mayDial(input: { phone: string; leadTimeZone: string; calendar: CallingCalendar | null; blacklist: BlacklistMatcher; now: Date }): MayDial {
  const { phone, calendar, blacklist, now } = input
  const hit = blacklist.match(phone, now)
  if (hit) {
    const name = hit.entry.description ? ` '${hit.entry.description}'` : hit.entry.id != null ? ` #${hit.entry.id}` : ''
    return { ok: false, status: 609, reason: `+${hit.phone} is on the blacklist${name}` }
  }
  if (!calendar) return { ok: true }
  const zone = isTimeZone(input.leadTimeZone) ? input.leadTimeZone : isTimeZone(calendar.timezone) ? calendar.timezone : 'America/Sao_Paulo'
  const holidays = wallHolidays(calendar)
  const window = windowAt(now.getTime(), zone, calendar, holidays)
  if (window.open) return { ok: true }
  const wall = wallOf(now, zone)
  const clock = `${String(wall.hour).padStart(2, '0')}:${String(wall.minute).padStart(2, '0')}`
  const retryAt = nextWindowOpening(calendar, zone, now)
  const reason = `${window.why} (${clock} in ${zone})${retryAt ? `; opens at ${retryAt.toISOString()}` : '; no opening within a year'}`
  return retryAt ? { ok: false, status: 'outside_window', reason, retryAt } : { ok: false, status: 'outside_window', reason }
}

export type { DialStatusCode }
