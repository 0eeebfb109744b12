import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { cleanup, screen } from '@testing-library/react'
import { ALL, openApp, serve, setupDom } from './harness.tsx'

// The side menu brings the current page's entry into its scroll area: a settings list far down a long section
// (the telephony queues under Service) must not stay below the menu's fold.

const original = Element.prototype.scrollIntoView
beforeAll(setupDom)
afterEach(() => {
  cleanup()
  Element.prototype.scrollIntoView = original
})

describe('the side menu on a settings page', () => {
  it('scrolls the current entry into view, and only that one', async () => {
    const scrolled: Element[] = []
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this)
    }
    serve([...ALL, 'pabx.view_queue', 'service.view_pause'])
    await openApp('/settings/service/queues/telephony')
    const entries = await screen.findAllByText('Filas de telefonia', { selector: '[data-menu="settings-pabx.queues"] *' })
    expect(entries.length).toBeGreaterThan(0)
    await vi.waitFor(() => expect(scrolled.length).toBeGreaterThan(0))
    for (const element of scrolled) expect(element.querySelector('[data-menu]')?.getAttribute('data-menu')).toBe('settings-pabx.queues')
  })
})
