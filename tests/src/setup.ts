import { configure } from '@testing-library/react'
import { vi } from 'vitest'

// Every jsdom test file (vitest.config.ts): waits are for conditions and return as soon as they hold, so a passing
// test is no slower; their ceilings leave room for a page rendering on a loaded 2-core machine, where the first
// render of a file also transforms the lazy chunks it opens. Testing Library's findBy*/waitFor (default 1 s) and
// vi.waitFor (default 1 s, and no config for it) get 10 s unless a call says otherwise.
export const WAIT_TIMEOUT = 10_000

configure({ asyncUtilTimeout: WAIT_TIMEOUT })

const waitFor = vi.waitFor
vi.waitFor = ((callback, options) => waitFor(callback, typeof options === 'number' ? options : { timeout: WAIT_TIMEOUT, ...options })) as typeof vi.waitFor

// What jsdom lacks and the app calls: media queries (Joy's colour scheme, the menu's breakpoints) and scrolling.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  addEventListener() {},
  removeEventListener() {},
  addListener() {},
  removeListener() {},
  onchange: null,
  dispatchEvent: () => false,
})) as never
window.scrollTo = (() => {}) as never
