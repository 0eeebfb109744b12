import { describe, expect, it } from 'vitest'
import {
  blacklistMatcher,
  DEFAULT_PERSISTENCE_RULES,
  mayDial,
  nextStep,
  nextWindowOpening,
  persistenceRulesFromRecord,
  type CallingCalendar,
  type LeadAttemptState,
  type PersistenceRules,
} from '../../server/dialer/rules.ts'
import { instantOf, wallMs, wallOf } from '../../server/dialer/zoned.ts'

const now = new Date('2026-05-04T15:00:00Z')
const rules = (over: Partial<PersistenceRules> = {}): PersistenceRules => ({ ...DEFAULT_PERSISTENCE_RULES, minIntervalMinutes: 30, ...over })
const lead = (attempts = 0, phones: [number, boolean?][] = [[0], [0]]): LeadAttemptState => ({
  attempts,
  phones: phones.map(([a, disabled], i) => ({ phone: `55119876543${i}0`, attempts: a, disabled: disabled ?? false })),
})
const minutes = (d: Date | undefined) => (d ? (d.getTime() - now.getTime()) / 60_000 : null)

describe('nextStep: persistence rules', () => {
  it('busy retries the same phone after the minimum interval and counts the attempt', () => {
    const step = nextStep({ lead: lead(), phoneIndex: 0, result: { status: 486 }, rules: rules(), now })
    expect(step.kind).toBe('retry')
    expect(step.dial?.phoneIndex).toBe(0)
    expect(minutes(step.dial?.at)).toBe(30)
    expect(step.counted).toBe(true)
    expect(step.lead.attempts).toBe(1)
    expect(step.lead.phones[0]!.attempts).toBe(1)
    expect(step.leadStatus).toBe('pending')
    expect(step.reason).toContain('dial status 486')
  })

  it.each([480, 487, 552, 603, 531, 550])('status %i moves on to the next phone', (status) => {
    const step = nextStep({ lead: lead(), phoneIndex: 0, result: { status }, rules: rules(), now })
    expect(step.kind).toBe('next_phone')
    expect(step.dial?.phoneIndex).toBe(1)
  })

  it('the next phone wraps around to the first', () => {
    const step = nextStep({ lead: lead(), phoneIndex: 1, result: { status: 480 }, rules: rules(), now })
    expect(step.dial?.phoneIndex).toBe(0)
  })

  it('559 uncertain analysis tries the same phone again', () => {
    expect(nextStep({ lead: lead(), phoneIndex: 1, result: { status: 559 }, rules: rules(), now }).kind).toBe('retry')
  })

  it('a retry after more minutes than the interval waits for them', () => {
    const step = nextStep({ lead: lead(), phoneIndex: 0, result: { status: 486 }, rules: rules({ statuses: { 486: { do: 'retry', afterMinutes: 90 } } }), now })
    expect(minutes(step.dial?.at)).toBe(90)
  })

  it('510 fax and 404 disable the phone (channel) and go on with the other phone', () => {
    for (const status of [510, 404, 484]) {
      const step = nextStep({ lead: lead(), phoneIndex: 0, result: { status }, rules: rules(), now })
      expect(step.kind).toBe('disable_phone')
      expect(step.lead.phones[0]!.disabled).toBe(true)
      expect(step.dial?.phoneIndex).toBe(1)
    }
  })

  it('an invalid number disables the whole lead when the rules say lead', () => {
    const step = nextStep({ lead: lead(), phoneIndex: 0, result: { status: 404 }, rules: rules({ disableOnInvalid: 'lead' }), now })
    expect(step.kind).toBe('disable_lead')
    expect(step.leadStatus).toBe('inactive')
    expect(step.dial).toBeUndefined()
  })

  it('disabling the last usable phone makes the lead inactive', () => {
    const step = nextStep({ lead: lead(0, [[0], [0, true]]), phoneIndex: 0, result: { status: 510 }, rules: rules(), now })
    expect(step.kind).toBe('disable_phone')
    expect(step.leadStatus).toBe('inactive')
    expect(step.dial).toBeUndefined()
  })

  it('609 (blacklist) disables the phone without spending an attempt', () => {
    const step = nextStep({ lead: lead(2), phoneIndex: 0, result: { status: 609 }, rules: rules(), now })
    expect(step.counted).toBe(false)
    expect(step.lead.attempts).toBe(2)
    expect(step.lead.phones[0]).toMatchObject({ attempts: 0, disabled: true })
    expect(step.dial?.phoneIndex).toBe(1)
  })

  it('carrier and platform failures retry later without spending an attempt', () => {
    const step = nextStep({ lead: lead(1), phoneIndex: 0, result: { status: 503 }, rules: rules({ minIntervalMinutes: 1 }), now })
    expect(step).toMatchObject({ kind: 'retry', counted: false, dial: { phoneIndex: 0 } })
    expect(step.lead.attempts).toBe(1)
    expect(minutes(step.dial?.at)).toBe(5)
  })

  it('an unknown status moves on to the next phone', () => {
    expect(nextStep({ lead: lead(), phoneIndex: 0, result: { status: 499 }, rules: rules(), now }).kind).toBe('next_phone')
  })

  it('refuses a status that is not the end of a call and a phone the lead lacks', () => {
    expect(() => nextStep({ lead: lead(), phoneIndex: 0, result: { status: 180 }, rules: rules(), now })).toThrow(RangeError)
    expect(() => nextStep({ lead: lead(), phoneIndex: 5, result: { status: 486 }, rules: rules(), now })).toThrow(RangeError)
  })

  it('attempts per phone: an exhausted phone is skipped, then the lead is disabled', () => {
    const r = rules({ attemptsPerPhone: 2 })
    const onlyOther = nextStep({ lead: lead(1, [[1], [0]]), phoneIndex: 0, result: { status: 486 }, rules: r, now })
    expect(onlyOther).toMatchObject({ kind: 'next_phone', dial: { phoneIndex: 1 } })
    const none = nextStep({ lead: lead(3, [[2], [1]]), phoneIndex: 1, result: { status: 486 }, rules: r, now })
    expect(none).toMatchObject({ kind: 'disable_lead', leadStatus: 'inactive' })
    expect(none.reason).toContain('every phone used its 2 attempts')
  })

  it('attempts per lead: the last allowed attempt disables the lead; 0 means unlimited', () => {
    const last = nextStep({ lead: lead(4), phoneIndex: 0, result: { status: 480 }, rules: rules({ attemptsPerLead: 5 }), now })
    expect(last).toMatchObject({ kind: 'disable_lead', leadStatus: 'inactive' })
    expect(last.reason).toContain('5 of 5 attempts per lead')
    const unlimited = nextStep({
      lead: lead(400, [[0]]),
      phoneIndex: 0,
      result: { status: 480 },
      rules: rules({ attemptsPerLead: 0, attemptsPerPhone: 0 }),
      now,
    })
    expect(unlimited.kind).toBe('retry')
  })

  it('reset attempts brings an exhausted lead back from zero after the hours', () => {
    const step = nextStep({
      lead: lead(4, [[2], [2, true]]),
      phoneIndex: 0,
      result: { status: 480 },
      rules: rules({ attemptsPerLead: 5, resetAttemptsAfterHours: 24 }),
      now,
    })
    expect(step).toMatchObject({ kind: 'retry', resetAttempts: true, leadStatus: 'pending', dial: { phoneIndex: 0 } })
    expect(step.lead.attempts).toBe(0)
    expect(step.lead.phones.map((p) => p.attempts)).toEqual([0, 0])
    expect(step.lead.phones[1]!.disabled).toBe(true)
    expect(minutes(step.dial?.at)).toBe(24 * 60)
  })

  it('inactivation by call duration: a long enough answered call makes the lead done', () => {
    const step = nextStep({ lead: lead(), phoneIndex: 0, result: { status: 200, talkSeconds: 45 }, rules: rules({ inactivateAfterTalkSeconds: 30 }), now })
    expect(step).toMatchObject({ kind: 'done', leadStatus: 'done' })
  })

  it('inactivation by call duration: a shorter call is retried; with 0 a conversation works the lead, an abandoned call is retried', () => {
    const short = nextStep({ lead: lead(), phoneIndex: 0, result: { status: 200, talkSeconds: 10 }, rules: rules({ inactivateAfterTalkSeconds: 30 }), now })
    expect(short.kind).toBe('retry')
    expect(short.reason).toContain('under the 30 s')
    const never = nextStep({ lead: lead(), phoneIndex: 0, result: { status: 200, talkSeconds: 3600 }, rules: rules({ inactivateAfterTalkSeconds: 0 }), now })
    expect(never.kind).toBe('done')
    expect(never.leadStatus).toBe('done')
    expect(never.reason).toContain('talked to an agent')
    const abandoned = nextStep({ lead: lead(), phoneIndex: 0, result: { status: 200, talkSeconds: 2, abandoned: true }, rules: rules({ inactivateAfterTalkSeconds: 0 }), now })
    expect(abandoned.kind).toBe('retry')
    expect(abandoned.reason).toContain('abandoned')
  })

  it("the classification's action wins over duration and status", () => {
    const r = rules({
      inactivateAfterTalkSeconds: 5,
      classifications: { '7': { do: 'next_phone', afterMinutes: 120 }, '8': { do: 'done' }, '9': { do: 'disable_lead' }, '10': { do: 'disable_phone' } },
    })
    const seven = nextStep({ lead: lead(), phoneIndex: 0, result: { status: 200, talkSeconds: 60, classificationId: 7 }, rules: r, now })
    expect(seven).toMatchObject({ kind: 'next_phone', dial: { phoneIndex: 1 } })
    expect(minutes(seven.dial?.at)).toBe(120)
    expect(nextStep({ lead: lead(), phoneIndex: 0, result: { status: 200, classificationId: 8 }, rules: r, now }).kind).toBe('done')
    expect(nextStep({ lead: lead(), phoneIndex: 0, result: { status: 200, classificationId: 9 }, rules: r, now }).kind).toBe('disable_lead')
    // A classification disabling the channel is not turned into disabling the lead.
    expect(nextStep({ lead: lead(), phoneIndex: 0, result: { status: 200, classificationId: 10 }, rules: { ...r, disableOnInvalid: 'lead' }, now }).kind).toBe(
      'disable_phone',
    )
    // An unlisted classification leaves it to the duration rule.
    expect(nextStep({ lead: lead(), phoneIndex: 0, result: { status: 200, talkSeconds: 60, classificationId: 99 }, rules: r, now }).kind).toBe('done')
  })

  it('a scheduled callback takes precedence at its time, even past the attempt limits', () => {
    const at = new Date('2026-05-05T12:00:00Z')
    const step = nextStep({
      lead: lead(9, [[3], [3]]),
      phoneIndex: 1,
      result: { status: 200, scheduledAt: at, classificationId: 8 },
      rules: rules({ attemptsPerLead: 10, attemptsPerPhone: 3, classifications: { '8': { do: 'done' } } }),
      now,
    })
    expect(step).toMatchObject({ kind: 'retry', leadStatus: 'pending', dial: { phoneIndex: 1, at } })
    expect(step.reason).toContain('callback scheduled')
  })

  it('a status override in the rules beats the default', () => {
    expect(nextStep({ lead: lead(), phoneIndex: 0, result: { status: 552 }, rules: rules({ statuses: { 552: { do: 'done' } } }), now }).kind).toBe('done')
    expect(nextStep({ lead: lead(), phoneIndex: 0, result: { status: 200 }, rules: rules({ statuses: { 200: { do: 'done' } } }), now }).kind).toBe('done')
  })

  it('takes bare phone strings (no per-phone counts kept)', () => {
    const step = nextStep({ lead: { attempts: 0, phones: ['5511987654321', '5511987654322'] }, phoneIndex: 0, result: { status: 480 }, rules: rules(), now })
    expect(step.lead.phones).toEqual([
      { phone: '5511987654321', attempts: 1, disabled: false },
      { phone: '5511987654322', attempts: 0, disabled: false },
    ])
    expect(step.dial?.phoneIndex).toBe(1)
  })

  it('maps the entity record (snake_case) with defaults', () => {
    expect(persistenceRulesFromRecord(null)).toEqual(DEFAULT_PERSISTENCE_RULES)
    const r = persistenceRulesFromRecord({
      attempts_per_lead: 4,
      attempts_per_phone: null,
      min_interval_minutes: 15,
      inactivate_after_talk_seconds: 0,
      disable_on_invalid: 'lead',
      statuses: [{ status: 486, action: 'retry', after_minutes: 10 }],
      classifications: [{ classification: 3, action: 'done' }],
    })
    expect(r).toMatchObject({ attemptsPerLead: 4, attemptsPerPhone: 3, minIntervalMinutes: 15, inactivateAfterTalkSeconds: 0, disableOnInvalid: 'lead' })
    expect(r.statuses[486]).toEqual({ do: 'retry', afterMinutes: 10 })
    expect(r.classifications['3']).toEqual({ do: 'done' })
  })
})

describe('mayDial: blacklist at dial time', () => {
  const blacklist = blacklistMatcher([
    { id: 1, description: 'Procon', phones: '5511987654321, +55 21 3322-1100,1 212 555 0100', direction: 'both' },
    { id: 2, phones: '5511911112222', direction: 'inbound' },
    { id: 3, phones: '5511933334444', is_active: false },
    { id: 4, phones: ['5511955556666'], expires_at: '2026-05-01T00:00:00Z' },
  ])
  const check = (phone: string) => mayDial({ phone, leadTimeZone: 'America/Sao_Paulo', calendar: null, blacklist, now })

  it('blocks a listed number however it is written, with 609', () => {
    for (const phone of ['+55 (11) 98765-4321', '11987654321', '551187654321' /* without the ninth digit */, '(21) 3322-1100', '+1 (212) 555-0100']) {
      const result = check(phone)
      expect(result.ok, phone).toBe(false)
      if (!result.ok) expect(result.status).toBe(609)
    }
    const result = check('11987654321')
    expect(!result.ok && result.reason).toContain("'Procon'")
  })

  it('lets through unlisted, inbound-only, inactive and expired entries', () => {
    for (const phone of ['5511987650000', '5511911112222', '5511933334444', '5511955556666']) expect(check(phone)).toEqual({ ok: true })
    expect(mayDial({ phone: '5511955556666', leadTimeZone: 'UTC', calendar: null, blacklist, now: new Date('2026-04-30T00:00:00Z') }).ok).toBe(false)
    expect(blacklist.size).toBe(4)
    expect(blacklist.blocked('11987654321', now)).toBe(true)
    expect(blacklist.blocked('5511955556666', now)).toBe(false) // inbound-only and inactive lists are not indexed
  })
})

describe('mayDial: calling windows in the lead time zone', () => {
  const weekdays = (start: string, end: string) => [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start, end }))
  const calendar: CallingCalendar = { timezone: 'America/Sao_Paulo', hours: weekdays('09:00', '20:00'), holidays: [] }
  const blacklist = blacklistMatcher([])
  const at = (iso: string, zone: string, cal: CallingCalendar | null = calendar) =>
    mayDial({ phone: '12125550100', leadTimeZone: zone, calendar: cal, blacklist, now: new Date(iso) })

  it('reads the hours on the lead clock: 09:00 in São Paulo is 08:00 in New York in May', () => {
    // Monday 2026-05-04 12:30Z: 09:30 in São Paulo (UTC−3), 08:30 in New York (EDT, UTC−4).
    expect(at('2026-05-04T12:30:00Z', 'America/Sao_Paulo').ok).toBe(true)
    const ny = at('2026-05-04T12:30:00Z', 'America/New_York')
    expect(ny.ok).toBe(false)
    if (!ny.ok) {
      expect(ny.status).toBe('outside_window')
      expect(ny.reason).toContain('08:30 in America/New_York')
      expect(ny.retryAt?.toISOString()).toBe('2026-05-04T13:00:00.000Z')
    }
  })

  it('follows New York across the March DST change while São Paulo (no DST since 2019) stays put', () => {
    // Friday 2026-03-06, NY on EST (UTC−5): 09:00 local = 14:00Z. The next Monday 2026-03-09, EDT (UTC−4): 13:00Z.
    expect(at('2026-03-06T13:30:00Z', 'America/New_York').ok).toBe(false)
    expect(at('2026-03-06T14:00:00Z', 'America/New_York').ok).toBe(true)
    expect(at('2026-03-09T13:00:00Z', 'America/New_York').ok).toBe(true)
    expect(at('2026-03-09T12:59:00Z', 'America/New_York').ok).toBe(false)
    // Friday 20:00 in NY closes; the next opening is Monday 09:00 EDT, across the weekend and the DST change.
    const friday = at('2026-03-07T01:00:00Z', 'America/New_York')
    expect(!friday.ok && friday.retryAt?.toISOString()).toBe('2026-03-09T13:00:00.000Z')
    // São Paulo: 09:00 is 12:00Z both weeks.
    expect(at('2026-03-06T12:00:00Z', 'America/Sao_Paulo').ok).toBe(true)
    expect(at('2026-03-09T11:59:00Z', 'America/Sao_Paulo').ok).toBe(false)
    expect(at('2026-03-09T12:00:00Z', 'America/Sao_Paulo').ok).toBe(true)
  })

  it('follows the November fall-back in New York', () => {
    // Friday 2026-10-30 EDT: 20:00 local = 00:00Z; Monday 2026-11-02 EST: 20:00 local = 01:00Z Tuesday.
    expect(at('2026-10-31T00:30:00Z', 'America/New_York').ok).toBe(false)
    expect(at('2026-11-03T00:30:00Z', 'America/New_York').ok).toBe(true)
    expect(at('2026-11-03T01:00:00Z', 'America/New_York').ok).toBe(false)
  })

  it("honours São Paulo's historic DST (the tz database, through Intl)", () => {
    // 2018-11-04 Brazil moved clocks from 00:00 to 01:00 (UTC−2 until February 2019).
    const summer = { ...calendar, hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '09:00', end: '20:00' })) }
    expect(at('2018-11-05T11:00:00Z', 'America/Sao_Paulo', summer).ok).toBe(true) // 09:00 −02
    expect(at('2018-11-02T11:00:00Z', 'America/Sao_Paulo', summer).ok).toBe(false) // 08:00 −03
  })

  it('holidays are dates on the lead clock, repeated yearly when asked', () => {
    const withHoliday: CallingCalendar = {
      ...calendar,
      holidays: [
        // Christmas, entered in the calendar's zone (São Paulo) as 00:00 → 00:00 next day.
        { description: 'Natal', start: '2025-12-25T03:00:00Z', end: '2025-12-26T03:00:00Z', yearly: true },
        // A one-off morning closure in São Paulo until 14:00.
        { description: 'Inventário', start: '2026-05-05T03:00:00Z', end: '2026-05-05T17:00:00Z', yearly: false },
      ],
    }
    // Friday 2026-12-25, 10:00 in New York: a holiday there too.
    const christmas = at('2026-12-25T15:00:00Z', 'America/New_York', withHoliday)
    expect(christmas.ok).toBe(false)
    if (!christmas.ok) {
      expect(christmas.reason).toContain("holiday 'Natal'")
      expect(christmas.retryAt?.toISOString()).toBe('2026-12-28T14:00:00.000Z') // Monday 09:00 EST
    }
    // The morning closure ends at 14:00 on the lead's clock: the window opens then, not at the next day's 09:00.
    const closure = at('2026-05-05T13:00:00Z', 'America/Sao_Paulo', withHoliday)
    expect(!closure.ok && closure.retryAt?.toISOString()).toBe('2026-05-05T17:00:00.000Z')
    expect(at('2026-05-05T17:00:00Z', 'America/Sao_Paulo', withHoliday).ok).toBe(true)
  })

  it('overnight rows, no rows, no calendar and an unknown lead zone', () => {
    const night: CallingCalendar = { timezone: 'America/Sao_Paulo', hours: [{ weekday: 1, start: '22:00', end: '02:00' }], holidays: [] }
    expect(at('2026-05-05T04:30:00Z', 'America/Sao_Paulo', night).ok).toBe(true) // Tuesday 01:30, from Monday's row
    expect(at('2026-05-05T05:30:00Z', 'America/Sao_Paulo', night).ok).toBe(false)
    expect(at('2026-05-05T05:30:00Z', 'America/Sao_Paulo', { ...night, hours: [] }).ok).toBe(true)
    expect(at('2026-05-05T05:30:00Z', 'America/Sao_Paulo', null).ok).toBe(true)
    // An unknown zone falls back to the calendar's: 09:30 in São Paulo.
    expect(at('2026-05-04T12:30:00Z', 'Mars/Olympus', calendar).ok).toBe(true)
    // Nothing ever opens: no retry time.
    const never: CallingCalendar = { timezone: 'UTC', hours: [{ weekday: 1, start: 'xx', end: 'yy' }], holidays: [] }
    const closed = at('2026-05-04T12:30:00Z', 'UTC', never)
    expect(closed.ok === false && closed.retryAt).toBeUndefined()
    expect(nextWindowOpening(never, 'UTC', new Date('2026-05-04T12:30:00Z'))).toBeNull()
  })
})

describe('zoned wall-clock arithmetic', () => {
  const local = (iso: string) => Date.parse(`${iso}Z`)
  it('moves a time in the spring-forward gap forward and takes the first of a repeated hour', () => {
    expect(new Date(instantOf(local('2026-03-08T02:30:00'), 'America/New_York')).toISOString()).toBe('2026-03-08T07:30:00.000Z') // 03:30 EDT
    expect(new Date(instantOf(local('2026-11-01T01:30:00'), 'America/New_York')).toISOString()).toBe('2026-11-01T05:30:00.000Z') // 01:30 EDT
    expect(new Date(instantOf(local('2026-10-25T02:30:00'), 'Europe/Berlin')).toISOString()).toBe('2026-10-25T00:30:00.000Z') // 02:30 CEST
    expect(new Date(instantOf(local('2018-11-04T00:30:00'), 'America/Sao_Paulo')).toISOString()).toBe('2018-11-04T03:30:00.000Z') // 01:30 −02
  })
  it('round-trips ordinary times', () => {
    const at = Date.parse('2026-07-01T18:45:00Z')
    for (const zone of ['America/Sao_Paulo', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'])
      expect(instantOf(wallMs(wallOf(at, zone)), zone)).toBe(at)
  })
})
