import { describe, expect, it } from 'vitest'
import { brazilZone, leadTimeZone } from '../../server/dialer/lead-zone.ts'
import { blacklistMatcher, mayDial } from '../../server/dialer/rules.ts'
import type { CallingCalendar } from '../../server/dialer/rules.ts'

// The lead's clock (issue 18 "calling windows … in the recipient's time zone"): its own field, else its number
// (Brazil's area codes, another country's zone), else the calendar's; and the calendar's hours read on it.

const blacklist = blacklistMatcher([])
const everyDay = (start: string, end: string) => [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start, end }))
const calendar: CallingCalendar = { timezone: 'America/Sao_Paulo', hours: everyDay('09:00', '20:00'), holidays: [] }
/** Whether `phone` (with `data`) may be dialled at `iso` under the calendar, and when it opens if not. */
function at(iso: string, phone: string, data: Record<string, unknown> = {}) {
  const zone = leadTimeZone({ phone, data, fallback: calendar.timezone }).zone
  return mayDial({ phone, leadTimeZone: zone, calendar, blacklist, now: new Date(iso) })
}

describe('leadTimeZone', () => {
  it("derives Brazil's zones from the area code, whatever way the number is written", () => {
    const cases: [string, string][] = [
      ['+55 11 98765-4321', 'America/Sao_Paulo'],
      ['(21) 3322-1100', 'America/Sao_Paulo'],
      ['061 3322 1100', 'America/Sao_Paulo'],
      ['+55 92 99123-4567', 'America/Manaus'],
      ['+55 97 3343-1000', 'America/Manaus'],
      ['+55 65 3322-1100', 'America/Cuiaba'],
      ['+55 66 99999-1111', 'America/Cuiaba'],
      ['+55 67 3322-1100', 'America/Campo_Grande'],
      ['+55 68 3223-1100', 'America/Rio_Branco'],
      ['+55 69 3223-1100', 'America/Porto_Velho'],
      ['+55 95 3223-1100', 'America/Boa_Vista'],
      ['+55 81 3619-1234', 'America/Noronha'],
      ['+55 81 3322-1100', 'America/Recife'],
      ['+55 71 3322-1100', 'America/Bahia'],
      ['+55 85 3322-1100', 'America/Fortaleza'],
      ['+55 98 3322-1100', 'America/Fortaleza'],
      ['+55 91 3322-1100', 'America/Belem'],
      ['+55 96 3322-1100', 'America/Belem'],
      ['+55 63 3322-1100', 'America/Araguaina'],
      ['+55 82 3322-1100', 'America/Maceio'],
      ['+55 79 3322-1100', 'America/Maceio'],
    ]
    for (const [phone, zone] of cases) expect(leadTimeZone({ phone }), phone).toEqual({ zone, source: 'area_code' })
    expect(brazilZone('1212')).toBeNull()
  })

  it("other countries by the number's country; the lead's own field first; the calendar's zone last", () => {
    expect(leadTimeZone({ phone: '+1 212 555 0100' })).toEqual({ zone: 'America/New_York', source: 'country' })
    expect(leadTimeZone({ phone: '+351 21 123 4567' })).toEqual({ zone: 'Europe/Lisbon', source: 'country' })
    expect(leadTimeZone({ phone: '+54 11 4321 0000' })).toEqual({ zone: 'America/Argentina/Buenos_Aires', source: 'country' })
    // A field of the lead (an import layout's column) overrides the number; unknown zones are ignored.
    expect(leadTimeZone({ phone: '+1 212 555 0100', data: { timezone: 'America/Los_Angeles' } })).toEqual({ zone: 'America/Los_Angeles', source: 'lead' })
    expect(leadTimeZone({ phone: '+55 11 3322-1100', data: { fuso_horario: 'America/Manaus' } })).toEqual({ zone: 'America/Manaus', source: 'lead' })
    expect(leadTimeZone({ phone: '+55 92 3322-1100', data: { timezone: 'Mars/Olympus' } }).zone).toBe('America/Manaus')
    // Nothing known: the fallback (the calendar's zone), else São Paulo.
    expect(leadTimeZone({ phone: '+882 1234 5678', fallback: 'Europe/Lisbon' })).toEqual({ zone: 'Europe/Lisbon', source: 'fallback' })
    expect(leadTimeZone({ phone: '', fallback: 'Nowhere/Else' })).toEqual({ zone: 'America/Sao_Paulo', source: 'fallback' })
  })
})

describe('calling windows per lead (09:00–20:00 on the lead’s clock)', () => {
  it('one instant: São Paulo open, Manaus and Rio Branco not yet, Noronha open; each told when its window opens', () => {
    // 12:30Z = 09:30 São Paulo, 08:30 Manaus, 07:30 Rio Branco, 10:30 Noronha.
    const now = '2026-07-06T12:30:00Z'
    expect(at(now, '+55 11 3322-1100').ok).toBe(true)
    expect(at(now, '+55 81 3619-1234').ok).toBe(true)
    const manaus = at(now, '+55 92 3322-1100')
    expect(manaus).toMatchObject({ ok: false, status: 'outside_window', retryAt: new Date('2026-07-06T13:00:00Z') })
    expect(!manaus.ok && manaus.reason).toContain('08:30 in America/Manaus')
    expect(at(now, '+55 68 3223-1100')).toMatchObject({ ok: false, retryAt: new Date('2026-07-06T14:00:00Z') })
    // A lead of Manaus whose own field says São Paulo follows its field.
    expect(at(now, '+55 92 3322-1100', { timezone: 'America/Sao_Paulo' }).ok).toBe(true)
    // 23:30Z = 20:30 São Paulo (closed), 19:30 Manaus and 18:30 Rio Branco (open).
    expect(at('2026-07-06T23:30:00Z', '+55 11 3322-1100').ok).toBe(false)
    expect(at('2026-07-06T23:30:00Z', '+55 92 3322-1100').ok).toBe(true)
    expect(at('2026-07-06T23:30:00Z', '+55 68 3223-1100').ok).toBe(true)
  })

  it("across New York's DST changes a New York lead's 09:00 moves against São Paulo's (no DST)", () => {
    const ny = '+1 212 555 0100'
    // Before 8 March 2026 (EST, UTC−5): 09:00 New York = 14:00Z. After (EDT, UTC−4): 13:00Z.
    expect(at('2026-03-06T13:30:00Z', ny).ok).toBe(false)
    expect(at('2026-03-06T14:00:00Z', ny).ok).toBe(true)
    expect(at('2026-03-09T13:30:00Z', ny).ok).toBe(true)
    expect(at('2026-03-09T12:30:00Z', ny)).toMatchObject({ ok: false, retryAt: new Date('2026-03-09T13:00:00Z') })
    // The Saturday before the change, at 20:30 local (closed), the next opening is Sunday 09:00 EDT (13:00Z), not 14:00Z.
    expect(at('2026-03-08T01:30:00Z', ny)).toMatchObject({ ok: false, retryAt: new Date('2026-03-08T13:00:00Z') })
    // Back in November (1 Nov 2026): 09:00 EST is 14:00Z again.
    expect(at('2026-11-02T13:30:00Z', ny)).toMatchObject({ ok: false, retryAt: new Date('2026-11-02T14:00:00Z') })
    // São Paulo's lead at the same instants: 09:00 is 12:00Z all year.
    expect(at('2026-03-06T12:00:00Z', '+55 11 3322-1100').ok).toBe(true)
    expect(at('2026-11-02T12:00:00Z', '+55 11 3322-1100').ok).toBe(true)
    // A Lisbon lead around Europe's change (29 March 2026): 09:00 WET = 09:00Z, 09:00 WEST = 08:00Z.
    expect(at('2026-03-27T08:30:00Z', '+351 21 123 4567').ok).toBe(false)
    expect(at('2026-03-30T08:30:00Z', '+351 21 123 4567').ok).toBe(true)
  })
})
