import { describe, expect, it } from 'vitest'
import { isWindowClosed, serviceWindow, WINDOW_MS } from '../../../../server/channels/whatsapp/window.ts'

// QUALITY.md test 7 (the rule): free text only within 24 h of the customer's last message, less a safety margin.

const last = new Date('2026-03-01T12:00:00Z')
const at = (ms: number) => new Date(last.getTime() + ms)

describe('24-hour customer-service window', () => {
  it('is closed when the customer never wrote', () => {
    expect(serviceWindow(null, last)).toEqual({ open: false, closesAt: null })
  })

  it('is open right after a customer message and until 24 h minus the margin', () => {
    expect(serviceWindow(last, at(0)).open).toBe(true)
    expect(serviceWindow(last, at(WINDOW_MS - 5 * 60_000 - 1)).open).toBe(true)
    expect(serviceWindow(last, at(WINDOW_MS - 5 * 60_000)).open).toBe(false)
    expect(serviceWindow(last, at(WINDOW_MS + 1)).open).toBe(false)
    expect(serviceWindow(last, at(0)).closesAt?.toISOString()).toBe('2026-03-02T11:55:00.000Z')
  })

  it('takes a configurable margin (zero: exactly 24 h)', () => {
    expect(serviceWindow(last, at(WINDOW_MS - 1), 0).open).toBe(true)
    expect(serviceWindow(last, at(WINDOW_MS), 0).open).toBe(false)
    expect(serviceWindow(last, at(WINDOW_MS - 30 * 60_000), 60 * 60_000).open).toBe(false)
  })

  it('a newer customer message reopens it', () => {
    const later = at(WINDOW_MS + 3_600_000)
    expect(serviceWindow(last, later).open).toBe(false)
    expect(serviceWindow(at(WINDOW_MS), later).open).toBe(true)
  })

  it('recognises Meta’s window-closed errors (131047 and the older 470)', () => {
    expect(isWindowClosed(131047)).toBe(true)
    expect(isWindowClosed(470)).toBe(true)
    expect(isWindowClosed(131026)).toBe(false)
    expect(isWindowClosed(null)).toBe(false)
  })
})
