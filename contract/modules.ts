// The site's modules (spec 000 §2 settings page system/base/modules): which areas a site uses. An area turned off
// leaves the menu, its pages answer the 404 page and its API routes 403. Every module is on unless the site's
// settings say otherwise (sites.settings.modules), so existing sites and the demo keep everything.
// One table here drives the server's guard (API prefixes) and the SPA's menu and route guard (page prefixes):
// the longest matching prefix decides, and a prefix mapped to null belongs to no module (an exception inside one).

import * as v from 'valibot'

export const MODULES = ['telephony', 'chat', 'dialer', 'crm', 'reports'] as const
export type ModuleKey = (typeof MODULES)[number]
export type Modules = Record<ModuleKey, boolean>

/** GET and PUT /api/v1/system/base/modules/ (relative to /api): the site's modules (codenames system.view_modules, system.change_modules). */
export const MODULES_PATH = '/v1/system/base/modules/'

export const ALL_MODULES_ON: Modules = { telephony: true, chat: true, dialer: true, crm: true, reports: true }

/** The stored value over the defaults: anything but an explicit `false` is on. */
export function modulesOf(stored: unknown): Modules {
  const value = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {}
  return Object.fromEntries(MODULES.map((key) => [key, value[key] !== false])) as Modules
}

type Prefixes = readonly (readonly [prefix: string, module: ModuleKey | null])[]

/** API paths (below /api/v1/) of each module. */
const API_PREFIXES: Prefixes = [
  // telephony: the exchange's settings and call control, the calls list and its steps and recordings, webphone actions
  ['pabx/', 'telephony'],
  ['report/calls/', 'telephony'],
  ['report/call-steps/', 'telephony'],
  ['report/recordings/', 'telephony'],
  ['agent/transfer/', 'telephony'],
  ['service/action/after-service/', 'telephony'],
  ['service/action/tab-form/', null], // the call's and the chat's form
  ['service/nps-telephony/', 'telephony'],
  // chat: the console, its settings and chat NPS
  ['chat/', 'chat'],
  ['service/nps-chat/', 'chat'],
  // dialer: campaigns and layouts, the lead lists (mailings, leads, their imports), preview and mailing calls
  ['service/shipments-', 'dialer'],
  ['service/action/preview-lead/', 'dialer'],
  ['service/action/make-call-to-mailing-client/', 'dialer'],
  ['service/dialer/', 'dialer'],
  ['crm/mailings/', 'dialer'],
  ['crm/leads/', 'dialer'],
  ['crm/lead-imports/', 'dialer'],
  // crm: clients, interactions, organizations, products, status, tags; the coworkers directory is everyone's
  ['crm/', 'crm'],
  ['crm/coworkers/', null],
  // reports: report pages, their filters and the processing queue of exports
  ['report/pages/', 'reports'],
  ['report/filters/', 'reports'],
  ['report/processing-queue/', 'reports'],
]

/** SPA paths (without the locale prefix) of each module: pages and settings pages. */
const PAGE_PREFIXES: Prefixes = [
  ['/phonecalls', 'telephony'],
  ['/settings/pabx', 'telephony'],
  ['/settings/service/queues/telephony', 'telephony'],
  ['/settings/service/nps/telephony', 'telephony'],
  ['/chats', 'chat'],
  ['/chats-backup', 'chat'],
  ['/settings/chat', 'chat'],
  ['/settings/service/queues/chat', 'chat'],
  ['/settings/service/nps/chat', 'chat'],
  ['/settings/service/chats', 'chat'],
  ['/leads', 'dialer'],
  ['/settings/service/shipments', 'dialer'],
  ['/settings/crm/mailings', 'dialer'],
  ['/clients', 'crm'],
  ['/interactions', 'crm'],
  ['/settings/crm', 'crm'],
  ['/reports', 'reports'],
]

function longestMatch(prefixes: Prefixes, path: string, segmentBoundary: boolean): ModuleKey | null {
  let best: { length: number; module: ModuleKey | null } | null = null
  for (const [prefix, module] of prefixes) {
    if (!path.startsWith(prefix)) continue
    // A page prefix matches whole segments only: '/chats' is not '/chatsx'.
    if (segmentBoundary && path.length > prefix.length && path[prefix.length] !== '/') continue
    if (!best || prefix.length > best.length) best = { length: prefix.length, module }
  }
  return best?.module ?? null
}

/** The module an API route (its URL as registered, e.g. /api/v1/chat/chats/:id/) belongs to, or null. */
export function moduleOfApi(url: string): ModuleKey | null {
  // The call recordings' player sits outside /api (the <audio> element's source).
  if (url.startsWith('/recordings/')) return 'telephony'
  const rest = url.startsWith('/api/v1/') ? url.slice('/api/v1/'.length) : null
  return rest === null ? null : longestMatch(API_PREFIXES, rest, false)
}

/** The module an SPA page belongs to (its path without the locale prefix, e.g. /settings/chat/bots), or null. */
export function moduleOfPage(path: string): ModuleKey | null {
  const clean = path.replace(/\/+$/, '') || '/'
  return longestMatch(PAGE_PREFIXES, clean, true)
}

/** Whether the page is open with these modules (a page of no module always is). */
export function pageEnabled(modules: Modules | undefined, path: string): boolean {
  const module = moduleOfPage(path)
  return module === null || !modules || modules[module]
}

/** PUT body: every module, on or off (a full replacement, like the settings entities' PUT). */
export const ModulesBody = v.object(Object.fromEntries(MODULES.map((key) => [key, v.boolean()])) as Record<ModuleKey, v.BooleanSchema<undefined>>)

/** Whether the site uses the module (a profile without `modules` is an older server's: everything on). */
export function moduleOn(modules: Modules | undefined, key: ModuleKey): boolean {
  return !modules || modules[key]
}

/** A path without its locale prefix (/en-us/chats → /chats). */
export function withoutLocale(pathname: string): string {
  return pathname.replace(/^\/(en-us|es-es)(?=\/|$)/i, '') || '/'
}
