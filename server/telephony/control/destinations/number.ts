import { unavailable } from '../call-plan.ts'
import type { Destination } from '../call-plan.ts'
import { matchesAny } from '../dial-patterns.ts'
import { siteRoutes, toTrunk } from '../outbound.ts'

// `number`: an outside number, through the first route of the site whose patterns match it. No team rule: the admin
// chose this destination.
export const numberDestination: Destination = async (env, base, appdata) => {
  const routes = (await siteRoutes(env.db, base.siteId)).filter((r) => matchesAny(r.dialPatterns, appdata))
  if (!routes[0]) return unavailable(base)
  return toTrunk(env, { ...base, phone: appdata, callee: appdata }, routes[0], [])
}
