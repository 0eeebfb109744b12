import { entityPageGuard } from '../../entities/homeGuard.ts'
import type { SettingsPage } from '../../entities/paths.ts'

/** The entity page a settings path names: 404 when the registry has none, /403 without the page's codename. */
export function settingsPageGuard(splat: string, roles: readonly string[] | undefined, locale: string | undefined): { settingsPage: SettingsPage } {
  return entityPageGuard('settings', splat, roles, locale)
}
