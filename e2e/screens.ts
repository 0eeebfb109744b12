import type { Locator, Page } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import type { Account } from './helpers.ts'

// The main screens of the app, each with who opens it and what shows it has loaded: the accessibility and the
// narrow-screen checks walk the same list.
export type Screen = { name: string; account: Account | null; path: string; ready: (page: Page) => Locator }

const heading = (page: Page) => page.locator('main h1').first()

export const MAIN_SCREENS: readonly Screen[] = [
  { name: 'sign-in', account: null, path: '/login', ready: (page) => page.getByTestId('login-submit') },
  { name: 'home', account: DEMO.agent1, path: '/', ready: heading },
  { name: 'settings', account: DEMO.admin, path: '/settings', ready: (page) => page.getByTestId('settings-section-business') },
  { name: 'settings-list', account: DEMO.admin, path: '/settings/service/pauses', ready: (page) => page.getByTestId('list-row').first() },
  { name: 'settings-form', account: DEMO.admin, path: '/settings/service/pauses/create', ready: (page) => page.getByTestId('form-save') },
  { name: 'dashboards', account: DEMO.supervisor, path: '/dashboards', ready: (page) => page.getByTestId('wallboard-agent').first() },
  { name: 'phonecalls', account: DEMO.supervisor, path: '/phonecalls', ready: (page) => page.getByTestId('call-row').first() },
  { name: 'reports', account: DEMO.supervisor, path: '/reports/pages', ready: (page) => page.getByTestId('report-card-calls') },
  { name: 'report', account: DEMO.supervisor, path: '/reports/pages/calls', ready: (page) => page.getByTestId('report-total-calls') },
  { name: 'processing-queue', account: DEMO.supervisor, path: '/reports/processing-queue', ready: (page) => page.getByTestId('processing-queue') },
  { name: 'chats', account: DEMO.agent1, path: '/chats', ready: (page) => page.getByTestId('chats-page') },
  { name: 'activities', account: DEMO.agent1, path: '/activities', ready: (page) => page.getByTestId('activities') },
  { name: 'profile', account: DEMO.agent1, path: '/profile', ready: heading },
  { name: 'machines', account: DEMO.admin, path: '/machines', ready: (page) => page.getByTestId('machine-view') },
]
