import { describe, expect, it } from 'vitest'
import { compilePattern, matchesAny, rewriteNumber } from '../../server/telephony/control/dial-patterns.ts'
import { areaCodeOf, contextAllows, phoneTypeOf, reachOf } from '../../server/telephony/control/phone.ts'
import { isOpen } from '../../server/acd/calendar.ts'
import type { Candidate } from '../../server/acd/strategies.ts'
import { chooseMembers } from '../../server/acd/strategies.ts'

const member = (userId: number, over: Partial<Candidate> = {}): Candidate => ({
  userId,
  position: userId,
  penalty: 0,
  lastCallEndedAt: null,
  callsAnswered: 0,
  loginAt: null,
  ...over,
})
const ids = (list: Candidate[]) => list.map((c) => c.userId)
const at = (iso: string) => new Date(iso)

describe('the eight distribution strategies', () => {
  const a = member(1, {
    lastCallEndedAt: at('2025-01-01T10:05:00Z'),
    callsAnswered: 3,
    loginAt: at('2025-01-01T08:30:00Z'),
  })
  const b = member(2, {
    lastCallEndedAt: at('2025-01-01T10:00:00Z'),
    callsAnswered: 5,
    loginAt: at('2025-01-01T08:00:00Z'),
  })
  const c = member(3, {
    lastCallEndedAt: at('2025-01-01T10:10:00Z'),
    callsAnswered: 1,
    loginAt: at('2025-01-01T09:00:00Z'),
  })
  const all = [a, b, c]
  const none = { lastOfferedUserId: null }

  it('ring all offers every member of the lowest penalty at once, in member order', () => {
    expect(ids(chooseMembers('ringall', [c, a, b], none))).toEqual([1, 2, 3])
    expect(ids(chooseMembers('ringall', [a, member(4, { penalty: 2 })], none))).toEqual([1])
  })

  it('longest idle picks the member whose last call ended first; one who never took a call before anyone', () => {
    expect(ids(chooseMembers('leastrecent', all, none))).toEqual([2])
    expect(ids(chooseMembers('leastrecent', [...all, member(9)], none))).toEqual([9])
  })

  it('fewest calls picks the member with the fewest answered calls', () => {
    expect(ids(chooseMembers('fewestcalls', all, none))).toEqual([3])
  })

  it('random picks by the dice', () => {
    expect(ids(chooseMembers('random', all, none, () => 0))).toEqual([1])
    expect(ids(chooseMembers('random', all, none, () => 0.5))).toEqual([2])
    expect(ids(chooseMembers('random', all, none, () => 0.99))).toEqual([3])
  })

  it('weighted random gives penalty 0 twice the share of penalty 1', () => {
    const light = member(1)
    const heavy = member(2, { penalty: 1 })
    // Weights 1 and 0.5: [0, 2/3) → light, [2/3, 1) → heavy.
    expect(ids(chooseMembers('wrandom', [light, heavy], none, () => 0.6))).toEqual([1])
    expect(ids(chooseMembers('wrandom', [light, heavy], none, () => 0.7))).toEqual([2])
    let count = 0
    let seed = 1
    const lcg = () => (seed = (seed * 48271) % 2147483647) / 2147483647
    for (let i = 0; i < 3000; i++) if (chooseMembers('wrandom', [light, heavy], none, lcg)[0]!.userId === 1) count++
    expect(count / 3000).toBeGreaterThan(0.62)
    expect(count / 3000).toBeLessThan(0.71)
  })

  it('equal with memory continues after the last member served, in member order, wrapping', () => {
    expect(ids(chooseMembers('rrmemory', all, none))).toEqual([1])
    expect(ids(chooseMembers('rrmemory', all, { lastOfferedUserId: 1 }))).toEqual([2])
    expect(ids(chooseMembers('rrmemory', all, { lastOfferedUserId: 3 }))).toEqual([1])
    // The last one served is not available now: still the one after them.
    expect(ids(chooseMembers('rrmemory', [a, c], { lastOfferedUserId: 2 }, Math.random, all))).toEqual([3])
  })

  it('equal by login continues after the last member served, in sign-in order', () => {
    // Sign-in order: b (08:00), a (08:30), c (09:00).
    expect(ids(chooseMembers('rrordered', all, none))).toEqual([2])
    expect(ids(chooseMembers('rrordered', all, { lastOfferedUserId: 2 }))).toEqual([1])
    expect(ids(chooseMembers('rrordered', all, { lastOfferedUserId: 1 }))).toEqual([3])
    expect(ids(chooseMembers('rrordered', all, { lastOfferedUserId: 3 }))).toEqual([2])
  })

  it('linear by login always starts from the first signed in', () => {
    expect(ids(chooseMembers('linear', all, { lastOfferedUserId: 2 }))).toEqual([2])
    expect(ids(chooseMembers('linear', [a, c], none))).toEqual([1])
  })

  it('answer nobody when nobody is available', () => {
    for (const s of ['ringall', 'leastrecent', 'fewestcalls', 'random', 'wrandom', 'rrmemory', 'rrordered', 'linear']) {
      expect(chooseMembers(s, [], none)).toEqual([])
    }
  })
})

describe('dial patterns', () => {
  it('match X Z N, ranges, . and !', () => {
    expect(matchesAny('0XXXXXXXXXX', '01130000000')).toBe(true)
    expect(matchesAny('0XXXXXXXXXX', '0113000000')).toBe(false)
    expect(matchesAny('NXXXXXXX', '30000000')).toBe(true)
    expect(matchesAny('NXXXXXXX', '10000000')).toBe(false)
    expect(matchesAny('ZX', '10')).toBe(true)
    expect(matchesAny('ZX', '01')).toBe(false)
    expect(matchesAny('9[1-35]XX', '9499')).toBe(false)
    expect(matchesAny('9[1-35]XX', '9599')).toBe(true)
    expect(matchesAny('00.', '00')).toBe(false)
    expect(matchesAny('00.', '001')).toBe(true)
    expect(matchesAny('00!', '00')).toBe(true)
    expect(matchesAny('190, 0XXXXXXXXXX', '190')).toBe(true)
    expect(compilePattern('9[5-')).toBeNull()
    expect(compilePattern('abc')).toBeNull()
  })

  it('strip and prefix', () => {
    expect(rewriteNumber('01130000000', 1, '')).toBe('1130000000')
    expect(rewriteNumber('01130000000', 1, '0xx21')).toBe('0xx211130000000')
    expect(rewriteNumber('123', 9, '55')).toBe('55')
  })
})

describe('numbers', () => {
  it('classify the reach a device context allows', () => {
    expect(reachOf('1002')).toBe('internal')
    expect(reachOf('30000000')).toBe('local')
    expect(reachOf('01130000000')).toBe('national')
    expect(reachOf('0015551234567')).toBe('international')
    expect(contextAllows('local', '30000000')).toBe(true)
    expect(contextAllows('local', '01130000000')).toBe(false)
    expect(contextAllows('national', '0015551234567')).toBe(false)
    expect(contextAllows('international', '0015551234567')).toBe(true)
    expect(contextAllows('internal', '30000000')).toBe(false)
  })

  it('find the area code and the phone type of Brazilian numbers in their usual forms', () => {
    for (const n of ['+5511987654321', '5511987654321', '011987654321', '11987654321', '01511987654321']) {
      expect(areaCodeOf(n)).toBe('11')
      expect(phoneTypeOf(n)).toBe('mobile')
    }
    expect(areaCodeOf('552130000000')).toBe('21')
    expect(phoneTypeOf('552130000000')).toBe('landline')
    expect(areaCodeOf('1002')).toBe('')
  })
})

describe('business-hours calendars', () => {
  const weekdays = [1, 2, 3, 4, 5].map((weekday) => ({
    weekday,
    start: '08:00',
    end: '18:00',
  }))
  const calendar = {
    timezone: 'America/Sao_Paulo',
    hours: weekdays,
    holidays: [],
  }

  it('are open within the hours of the local weekday, closed outside', () => {
    // Monday 2025-03-03 10:59 in São Paulo (UTC-3) is 13:59 UTC.
    expect(isOpen(calendar, at('2025-03-03T13:59:00Z'))).toBe(true)
    expect(isOpen(calendar, at('2025-03-03T10:59:00Z'))).toBe(false)
    expect(isOpen(calendar, at('2025-03-03T21:00:00Z'))).toBe(false)
    // Saturday.
    expect(isOpen(calendar, at('2025-03-08T13:00:00Z'))).toBe(false)
  })

  it('are closed on holidays, yearly ones every year', () => {
    const holiday = {
      start: at('2020-03-03T03:00:00Z'),
      end: at('2020-03-04T03:00:00Z'),
      yearly: true,
    }
    expect(isOpen({ ...calendar, holidays: [holiday] }, at('2025-03-03T13:59:00Z'))).toBe(false)
    expect(isOpen({ ...calendar, holidays: [{ ...holiday, yearly: false }] }, at('2025-03-03T13:59:00Z'))).toBe(true)
  })

  it('run overnight spans into the next day', () => {
    const night = {
      timezone: 'UTC',
      hours: [{ weekday: 1, start: '22:00', end: '06:00' }],
      holidays: [],
    }
    expect(isOpen(night, at('2025-03-03T23:00:00Z'))).toBe(true)
    expect(isOpen(night, at('2025-03-04T05:00:00Z'))).toBe(true)
    expect(isOpen(night, at('2025-03-04T07:00:00Z'))).toBe(false)
  })
})
