import { entityByKey } from '../../contract/entities/index.ts'
import { describe, expect, it } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { lazyQueryClient } from '../../src/app/lazyQueryClient.ts'
import { createAppRouter } from '../../src/app/router.tsx'
import { mayOpen, pagePermission, UndeclaredPermissionError } from '../../src/app/routePermissions.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'

type AnyRoute = { id: string; options: { staticData?: { permission?: string } }; children?: AnyRoute[] | Record<string, AnyRoute> }

describe('route permission declarations', () => {
  // Creating the router resolves every route's full id.
  const routes = Object.values(createAppRouter(lazyQueryClient(new QueryClient())).routesById) as unknown as AnyRoute[]

  it('every route declares who may open it', () => {
    const undeclared = routes.filter((r) => !r.options.staticData?.permission).map((r) => r.id)
    expect(undeclared).toEqual([])
  })

  it('every page (a route without children) names a permission or public, never just layout', () => {
    const pages = routes.filter((r) => !r.children || (Array.isArray(r.children) ? !r.children.length : !Object.keys(r.children).length))
    expect(pages.length).toBeGreaterThan(10)
    for (const page of pages) expect(page.options.staticData?.permission, page.id).not.toBe('layout')
  })

  it('snapshot of the signed-in pages and what they require (review changes like code)', () => {
    const signedIn = Object.fromEntries(routes.filter((r) => r.id.includes('/_app/')).map((r) => [r.id, r.options.staticData?.permission]))
    expect(signedIn).toEqual({
      '/{-$locale}/_app/': PERMISSIONS.viewDashboard,
      '/{-$locale}/_app/activities': PERMISSIONS.viewActivities,
      '/{-$locale}/_app/chats': PERMISSIONS.viewChat,
      '/{-$locale}/_app/clients/$': PERMISSIONS.viewClient,
      // The coworkers directory: any signed-in user (the spec names no codename); the agent's day: the dashboard's.
      '/{-$locale}/_app/coworkers': PERMISSIONS.myProfile,
      '/{-$locale}/_app/operation': PERMISSIONS.viewDashboard,
      '/{-$locale}/_app/dashboard': PERMISSIONS.viewDashboard,
      // The CRM's homes: the list needs the view codename, the route's beforeLoad the page's own (as settings do).
      '/{-$locale}/_app/interactions/$': entityByKey('crm.client-interactions').permissions.view,
      '/{-$locale}/_app/leads/$': PERMISSIONS.viewMailingClient,
      '/{-$locale}/_app/leads/$id/show': PERMISSIONS.viewMailingClient,
      '/{-$locale}/_app/machines': PERMISSIONS.viewMachines,
      '/{-$locale}/_app/dashboards/': PERMISSIONS.viewDashboardSupervisor,
      // A builder dashboard page: entering needs the dashboard's codename; the page's own permission is the server's.
      '/{-$locale}/_app/dashboards/$id': PERMISSIONS.viewDashboard,
      '/{-$locale}/_app/phonecalls': PERMISSIONS.viewSoftphone,
      // The report pages and the processing queue of exports (spec 000 §2, §6).
      '/{-$locale}/_app/reports/pages/{-$id}': PERMISSIONS.viewReports,
      '/{-$locale}/_app/reports/processing-queue': PERMISSIONS.viewReports,
      // Backups: the reports' (spec 000 §2 /reports/backup) and the chats' (/chats-backup, who may download chats).
      '/{-$locale}/_app/reports/backup': PERMISSIONS.viewReports,
      '/{-$locale}/_app/chats-backup': PERMISSIONS.downloadChatConversation,
      '/{-$locale}/_app/profile/': PERMISSIONS.myProfile,
      '/{-$locale}/_app/profile/change-avatar': PERMISSIONS.myProfile,
      '/{-$locale}/_app/profile/change-password': PERMISSIONS.myProfile,
      '/{-$locale}/_app/profile/change-personal-data': PERMISSIONS.myProfile,
      '/{-$locale}/_app/settings/': PERMISSIONS.viewSettings,
      // Every settings entity page: entering needs sites.view_settings, then the route's beforeLoad asks for the
      // entity's own view/add/change/delete codename (tests/src/settings-routes.test.tsx).
      '/{-$locale}/_app/settings/$': PERMISSIONS.viewSettings,
      '/{-$locale}/_app/settings/system/audit-log': 'system.view_auditlog',
      '/{-$locale}/_app/settings/system/base/modules': 'system.view_modules',
    })
  })

  it('fails loudly for a page that declares nothing, and closed in production', () => {
    const { routeId, permission } = pagePermission([{ routeId: '/{-$locale}/_app/new-page', staticData: {} as never }])
    expect(() => mayOpen(['sites.view_dashboard'], routeId, permission)).toThrow(UndeclaredPermissionError)
    expect(mayOpen(['sites.view_dashboard'], routeId, permission, false)).toBe(false)
  })

  it('checks the declared permission with has()', () => {
    expect(mayOpen(['sites.view_dashboard'], 'x', PERMISSIONS.viewDashboard)).toBe(true)
    expect(mayOpen(['sites.view_chat'], 'x', PERMISSIONS.viewDashboard)).toBe(false)
    expect(mayOpen([], 'x', PERMISSIONS.myProfile)).toBe(true)
    expect(mayOpen(undefined, 'x', 'public')).toBe(true)
  })
})
