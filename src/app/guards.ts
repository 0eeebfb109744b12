import { notFound, redirect } from '@tanstack/react-router'
import type { AnyRouteMatch, ParsedLocation } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { t } from '@lingui/core/macro'
import type { Profile } from '../../contract/api/profile.ts'
import { probeProfile, profileQuery } from '../api/session.ts'
import { passwordExpiryDecision } from '../features/profile/passwordExpiry.ts'
import { toast } from '../components/toast/toastStore.ts'
import { mayOpen, pagePermission } from './routePermissions.ts'
import { pageEnabled, withoutLocale } from '../../contract/modules.ts'

type GuardArgs = {
  queryClient: QueryClient
  location: ParsedLocation
  matches: readonly AnyRouteMatch[]
  params: { locale?: string }
  preload: boolean
}

/**
 * The guards of every signed-in page, in order (spec 000 §2, §5, §6): authentication → /login?redirect=…, the
 * site's modules → the 404 page,
 * the page's declared permission → /403, password expiry → /profile/change-password/ (or a warning on index pages).
 */
export async function signedInGuard({ queryClient, location, matches, params, preload }: GuardArgs): Promise<{ profile: Profile }> {
  const profile = await probeProfile(() => queryClient.ensureQueryData(profileQuery))
  const locale = { locale: params.locale }
  if (!profile) throw redirect({ to: '/{-$locale}/login', params: locale, search: { redirect: location.href } })

  // A page of an area the site turned off (system/base/modules) is not there at all: the 404 page, not /403.
  if (!pageEnabled(profile.site?.modules, withoutLocale(location.pathname))) throw notFound()

  const { routeId, permission } = pagePermission(matches)
  if (!mayOpen(profile.roles, routeId, permission)) throw redirect({ to: '/{-$locale}/403', params: locale })

  const page = matches[matches.length - 1]
  const decision = passwordExpiryDecision({
    profile,
    now: Date.now(),
    exempt: Boolean(page?.staticData?.passwordExpiryExempt),
    isIndex: routeId.endsWith('/'),
  })
  if (decision === 'redirect') {
    if (!preload) toast.warning(t`Sua senha expirou, por favor, crie uma nova senha.`)
    throw redirect({ to: '/{-$locale}/profile/change-password', params: locale })
  }
  if (decision === 'warn' && !preload) toast.warning(t`Sua senha irá expirar em breve.`)
  return { profile }
}
