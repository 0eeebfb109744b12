import type { AnyRouteMatch } from '@tanstack/react-router'
import { has } from '../../contract/permissions.ts'
import type { Permission } from '../../contract/permissions.ts'

// Every route says who may open it, in one place: `staticData.permission`. The type makes the field required on
// every route, and the guard throws in development and tests when a matched page declares nothing (fail closed).
//   a Permission — the signed-in user needs it (checked with `has`, spec 000 §6)
//   'public'     — anyone, signed in or not (login, error pages)
//   'layout'     — a layout or locale route; the page below it decides
export type RoutePermission = Permission | 'public' | 'layout'

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    permission: RoutePermission
    /** Exempt from the password-expiry redirect (logout, profile, change-password). */
    passwordExpiryExempt?: boolean
  }
}

export class UndeclaredPermissionError extends Error {
  constructor(routeId: string) {
    super(`Route ${routeId} declares no permission: add staticData: { permission } to it.`)
    this.name = 'UndeclaredPermissionError'
  }
}

/** The page (deepest match) and what it requires. */
export function pagePermission(matches: readonly Pick<AnyRouteMatch, 'routeId' | 'staticData'>[]): {
  routeId: string
  permission: RoutePermission | undefined
} {
  const page = matches[matches.length - 1]
  return { routeId: page?.routeId ?? '', permission: page?.staticData?.permission }
}

/** Whether the user may see the page; throws for an undeclared page outside production. */
export function mayOpen(
  roles: readonly string[] | undefined,
  routeId: string,
  permission: RoutePermission | undefined,
  strict = !import.meta.env.PROD,
): boolean {
  if (permission === undefined || permission === 'layout') {
    if (strict) throw new UndeclaredPermissionError(routeId)
    return false
  }
  if (permission === 'public') return true
  return has(roles, permission)
}
