import { describe, expect, it } from 'vitest'
import { PASSWORD_WARNING_WINDOW_MS } from '../../contract/constants.ts'
import { passwordExpiry } from '../../contract/format/index.ts'

const at = (iso: string) => new Date(iso).getTime()
const extra = { password_notification_start: '2024-05-20T00:00:00Z', password_expire_date: '2024-06-01T00:00:00Z' }
const inWindow = at('2024-05-25T10:00:00Z')

describe('passwordExpiry', () => {
  it('is expired once the expiry date is reached, whenever the user signed in', () => {
    expect(passwordExpiry(extra, at('2024-05-01T00:00:00Z'), at('2024-06-01T00:00:00Z'))).toBe('expired')
    expect(passwordExpiry(extra, null, at('2024-06-01T00:00:01Z'))).toBe('expired')
    expect(passwordExpiry(extra, inWindow, at('2025-01-01T00:00:00Z'))).toBe('expired')
  })

  it('warns inside the notification window right after sign-in', () => {
    expect(passwordExpiry(extra, inWindow, inWindow)).toBe('warn')
    expect(passwordExpiry(extra, inWindow, inWindow + 5_000)).toBe('warn')
  })

  it('counts a sign-in exactly 10 s ago as recent, 10.001 s ago as not', () => {
    expect(PASSWORD_WARNING_WINDOW_MS).toBe(10_000)
    expect(passwordExpiry(extra, inWindow, inWindow + 10_000)).toBe('warn')
    expect(passwordExpiry(extra, inWindow, inWindow + 10_001)).toBe('ok')
  })

  it('tolerates a server clock slightly ahead of the browser', () => {
    expect(passwordExpiry(extra, inWindow + 3_000, inWindow)).toBe('warn')
    expect(passwordExpiry(extra, inWindow + 60_000, inWindow)).toBe('ok')
  })

  it('starts warning at the notification start and stops just before expiry', () => {
    const start = at('2024-05-20T00:00:00Z')
    const expiry = at('2024-06-01T00:00:00Z')
    expect(passwordExpiry(extra, start - 1, start - 1)).toBe('ok')
    expect(passwordExpiry(extra, start, start)).toBe('warn')
    expect(passwordExpiry(extra, expiry - 1, expiry - 1)).toBe('warn')
    expect(passwordExpiry(extra, expiry, expiry)).toBe('expired')
  })

  it('is ok before the window, and without an expiry date or profile', () => {
    expect(passwordExpiry(extra, at('2024-05-10T00:00:00Z'), at('2024-05-10T00:00:01Z'))).toBe('ok')
    expect(passwordExpiry({ password_expire_date: null, password_notification_start: '2024-05-20T00:00:00Z' }, inWindow, inWindow)).toBe('ok')
    expect(passwordExpiry(null, inWindow, inWindow)).toBe('ok')
    expect(passwordExpiry({ password_expire_date: 'garbage' }, inWindow, inWindow)).toBe('ok')
  })

  it('expires without a notification start but never warns', () => {
    const only = { password_expire_date: '2024-06-01T00:00:00Z', password_notification_start: null }
    expect(passwordExpiry(only, inWindow, inWindow)).toBe('ok')
    expect(passwordExpiry(only, inWindow, at('2024-06-02T00:00:00Z'))).toBe('expired')
  })

  it('does not warn when the sign-in time is unknown', () => {
    expect(passwordExpiry(extra, null, inWindow)).toBe('ok')
    expect(passwordExpiry(extra, 'garbage', inWindow)).toBe('ok')
  })

  it('reads date-only expiry dates as local midnight', () => {
    const dates = { password_notification_start: '2024-05-20', password_expire_date: '2024-06-01' }
    const lastMinute = new Date(2024, 4, 31, 23, 59, 0).getTime()
    expect(passwordExpiry(dates, lastMinute, lastMinute)).toBe('warn')
    expect(passwordExpiry(dates, lastMinute, new Date(2024, 5, 1, 0, 0, 0).getTime())).toBe('expired')
  })

  it('uses the current time by default', () => {
    const soon = {
      password_notification_start: new Date(Date.now() - 86_400_000).toISOString(),
      password_expire_date: new Date(Date.now() + 86_400_000).toISOString(),
    }
    expect(passwordExpiry(soon, Date.now())).toBe('warn')
    expect(passwordExpiry({ password_expire_date: new Date(Date.now() - 1_000).toISOString() }, Date.now())).toBe('expired')
  })
})
