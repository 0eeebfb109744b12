import { describe, expect, it } from 'vitest'
import { passwordExpiryDecision } from '../../src/features/profile/passwordExpiry.ts'

const NOW = Date.parse('2026-03-10T12:00:00Z')
const iso = (offsetMs: number) => new Date(NOW + offsetMs).toISOString()
const DAY = 86_400_000
const profile = (expire: string | null, notify: string | null, lastLogin: string | null) => ({
  last_login: lastLogin,
  userextra: { login_channel_telephony: false, login_channel_chat: false, password_expire_date: expire, password_notification_start: notify },
})

describe('password expiry decision', () => {
  it('redirects when the expiry date has passed, on any page that is not exempt', () => {
    expect(passwordExpiryDecision({ profile: profile(iso(-1), null, null), now: NOW, exempt: false, isIndex: false })).toBe('redirect')
    expect(passwordExpiryDecision({ profile: profile(iso(0), null, null), now: NOW, exempt: false, isIndex: true })).toBe('redirect')
  })

  it('leaves logout and profile pages alone even when expired', () => {
    expect(passwordExpiryDecision({ profile: profile(iso(-DAY), null, null), now: NOW, exempt: true, isIndex: true })).toBe('none')
  })

  it('warns on an index page inside the window within 10 s of signing in', () => {
    expect(passwordExpiryDecision({ profile: profile(iso(DAY), iso(-DAY), iso(-5_000)), now: NOW, exempt: false, isIndex: true })).toBe('warn')
  })

  it('does not warn after 10 s, off index pages, or outside the window', () => {
    expect(passwordExpiryDecision({ profile: profile(iso(DAY), iso(-DAY), iso(-11_000)), now: NOW, exempt: false, isIndex: true })).toBe('none')
    expect(passwordExpiryDecision({ profile: profile(iso(DAY), iso(-DAY), iso(-1_000)), now: NOW, exempt: false, isIndex: false })).toBe('none')
    expect(passwordExpiryDecision({ profile: profile(iso(2 * DAY), iso(DAY), iso(-1_000)), now: NOW, exempt: false, isIndex: true })).toBe('none')
  })

  it('does nothing without an expiry date', () => {
    expect(passwordExpiryDecision({ profile: profile(null, null, iso(-1_000)), now: NOW, exempt: false, isIndex: true })).toBe('none')
  })
})
