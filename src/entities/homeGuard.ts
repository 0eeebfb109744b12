import { notFound, redirect } from '@tanstack/react-router'
import { has } from '../../contract/permissions.ts'
import { pagePermission, parseEntityPath } from './paths.ts'
import type { SettingsPage } from './paths.ts'

/** The entity page a path below a home names: 404 when the registry has none, /403 without the page's codename. */
export function entityPageGuard(home: string, splat: string, roles: readonly string[] | undefined, locale: string | undefined): { settingsPage: SettingsPage } {
  const page = parseEntityPath(home, splat)
  if (!page) throw notFound()
  if (!has(roles, pagePermission(page))) throw redirect({ to: '/{-$locale}/403', params: { locale } })
  return { settingsPage: page }
}
