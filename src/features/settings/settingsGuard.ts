import { notFound, redirect } from '@tanstack/react-router'
import { has } from '../../../contract/permissions.ts'
import { pagePermission, parseSettingsPath } from '../../entities/paths.ts'
import type { SettingsPage } from '../../entities/paths.ts'

/** The entity page a settings path names: 404 when the registry has none, /403 without the page's codename. */
export function settingsPageGuard(splat: string, roles: readonly string[] | undefined, locale: string | undefined): { settingsPage: SettingsPage } {
  const page = parseSettingsPath(splat)
  if (!page) throw notFound()
  if (!has(roles, pagePermission(page))) throw redirect({ to: '/{-$locale}/403', params: { locale } })
  return { settingsPage: page }
}
