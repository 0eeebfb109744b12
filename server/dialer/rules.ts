import { canonicalPhone } from '../../contract/phone.ts'
import type { CalendarSpec } from '../acd/calendar.ts'
import { isOpen } from '../acd/calendar.ts'

// PLACEHOLDER (dialrun): the dialer's pure rules are dialbrain's file; this minimal version keeps the runtime's calls
// to the agreed signatures (nextStep, mayDial, blacklistMatcher) and is replaced by theirs at the merge.

/** What the carrier (or the dialer before it) did with one try. */
export type DialResult = { status: number; talkSeconds: number }

export type PersistenceRules = {
  maxAttempts: number
  /** Minutes before the same lead is dialled again. */
  minIntervalMinutes: number
  /** Answered calls at least this long end the lead (0 = never). */
  inactivateByDurationSeconds: number
}

export type NextStep =
  | { kind: 'retry'; at: Date; phoneIndex: number; reason: string }
  | { kind: 'done'; leadStatus: 'done' | 'failed' | 'blocked'; reason: string }

export type CallingCalendar = CalendarSpec

export type BlacklistMatcher = { blocked(phone: string): boolean }

export function blacklistMatcher(entries: readonly { phones: string }[]): BlacklistMatcher {
  const phones = new Set<string>()
  for (const entry of entries) for (const raw of entry.phones.split(',')) if (raw.trim()) phones.add(canonicalPhone(raw.trim()))
  return { blocked: (phone) => phones.has(canonicalPhone(phone)) }
}

export function mayDial(input: {
  phone: string
  leadTimeZone: string
  calendar: CallingCalendar | null
  blacklist: BlacklistMatcher
  now: Date
}): { ok: true } | { ok: false; status: 609 | 'outside_window'; reason: string; retryAt?: Date } {
  if (input.blacklist.blocked(input.phone)) return { ok: false, status: 609, reason: 'blacklist' }
  if (input.calendar && !isOpen({ ...input.calendar, timezone: input.leadTimeZone || input.calendar.timezone }, input.now)) {
    return { ok: false, status: 'outside_window', reason: 'calendar closed', retryAt: new Date(input.now.getTime() + 15 * 60_000) }
  }
  return { ok: true }
}

export function nextStep(input: { lead: { attempts: number; phones: readonly string[] }; phoneIndex: number; result: DialResult; rules: PersistenceRules; now: Date }): NextStep {
  const { lead, result, rules } = input
  if (result.status === 609) return { kind: 'done', leadStatus: 'blocked', reason: 'blacklist' }
  if (result.status === 200) return { kind: 'done', leadStatus: 'done', reason: 'answered' }
  if (lead.attempts >= rules.maxAttempts) return { kind: 'done', leadStatus: 'failed', reason: 'attempts exhausted' }
  const phoneIndex = lead.phones.length > 0 ? (input.phoneIndex + 1) % lead.phones.length : 0
  return { kind: 'retry', at: new Date(input.now.getTime() + rules.minIntervalMinutes * 60_000), phoneIndex, reason: `status ${result.status}` }
}
