import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import type { Permission } from '../../contract/permissions.ts'
import { ROUTE_PERMISSIONS } from '../../contract/all-permissions.ts'
import type { Db } from '../db/client.ts'
import type { SiteRow } from '../db/schema/index.ts'
import { resolveSite } from '../sites/site-repo.ts'
import type { AuthContext } from './authenticate.ts'
import type { AuthCache } from '../auth/auth-cache.ts'
import { authenticate } from './authenticate.ts'
import { enforceCsrf } from './csrf.ts'
import { detailError } from './errors.ts'
import { requestLocale } from './locale.ts'
import type { Locale } from '../../contract/locales.ts'
import type { ModuleKey } from '../../contract/modules.ts'
import { moduleOfApi } from '../../contract/modules.ts'
import { siteModules } from '../sites/modules.ts'

// Permissions fail closed: every route must say who may call it, and the app refuses to start otherwise. The check
// is an exact codename match against the user's roles (the SPA's substring `has` only hides UI). A list of codenames
// admits a user holding any one of them (a lookup several screens need).
export type RoutePermission = 'public' | 'authenticated' | Permission | readonly Permission[]

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission
    /** Static files: no site, session or CSRF work (they must still declare a permission, always 'public'). */
    bare?: boolean
  }
  interface FastifyRequest {
    lang: Locale
    site: SiteRow | null
    auth: AuthContext | null
  }
  interface FastifyInstance {
    routePermissions(): RouteDeclaration[]
  }
}

export type RouteDeclaration = { method: string; url: string; permission: RoutePermission }

// Every real codename, the settings entities' and the platform operator's included; 'my-profile' is the SPA's
// pseudo-permission, never a route's.
const CODENAMES = new Set<string>(ROUTE_PERMISSIONS)

function isRoutePermission(value: unknown): value is RoutePermission {
  if (Array.isArray(value)) return value.length > 0 && value.every((codename) => typeof codename === 'string' && CODENAMES.has(codename))
  return value === 'public' || value === 'authenticated' || (typeof value === 'string' && CODENAMES.has(value))
}

export function registerPermissionGuard(app: FastifyInstance, db: Db, cache?: AuthCache): void {
  const declared: RouteDeclaration[] = []
  // The module each API route belongs to (contract/modules.ts), found once per route by its URL.
  const moduleOfRoute = new Map<string, ModuleKey>()

  app.decorateRequest('lang', {
    getter(this: FastifyRequest) {
      return requestLocale(this)
    },
  })
  app.decorateRequest('site', null)
  app.decorateRequest('auth', null)
  app.decorate('routePermissions', () => [...declared].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method)))

  app.addHook('onRoute', (route: RouteOptions) => {
    const permission = route.config?.permission
    const methods = [route.method].flat()
    if (!isRoutePermission(permission)) {
      throw new Error(`${methods.join(',')} ${route.url} declares no valid permission (config.permission): refusing to start`)
    }
    // Fastify adds a HEAD twin for every GET with the same config; listing the GET is enough.
    for (const method of methods) if (method !== 'HEAD') declared.push({ method, url: route.url, permission })
    const module = moduleOfApi(route.url)
    if (module) moduleOfRoute.set(route.url, module)
  })

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config
    if (request.is404 || config.bare) return
    request.site = await resolveSite(db, request.hostname, cache)
    request.auth = request.site ? await authenticate(db, request, request.site, cache) : null
    enforceCsrf(request)
    enforcePermission(request, config.permission!)
    // An area the site turned off (system/base/modules) answers 403 to everyone, admins included.
    const module = moduleOfRoute.get(request.routeOptions.url ?? '')
    if (module && !siteModules(request.site)[module]) throw detailError(403, 'moduleDisabled', request.lang)
  })
}

function enforcePermission(request: FastifyRequest, permission: RoutePermission): void {
  if (permission === 'public') return
  if (!request.auth) throw detailError(401, 'notAuthenticated', request.lang, {}, { 'WWW-Authenticate': 'Token' })
  if (permission === 'authenticated') return
  const anyOf: readonly string[] = typeof permission === 'string' ? [permission] : permission
  if (!anyOf.some((codename) => request.auth!.roles.includes(codename))) {
    throw detailError(403, 'permissionDenied', request.lang)
  }
}
