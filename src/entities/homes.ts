// The top-level pages entities live under (contract/entities: an entity's `home`), each the splat route that draws
// its entities' lists and forms. A new home is its route file (routes/{-$locale}/_app/<home>/$.tsx, drawing
// EntityHomePage) plus one line here.
export const ENTITY_HOMES = {
  settings: '/{-$locale}/settings/$',
  clients: '/{-$locale}/clients/$',
  leads: '/{-$locale}/leads/$',
  interactions: '/{-$locale}/interactions/$',
} as const

export type HomeRoute = (typeof ENTITY_HOMES)[keyof typeof ENTITY_HOMES]

/** The route drawing a home's pages; a home nobody registered is a programming error. */
export function homeRoute(home: string): HomeRoute {
  const route = (ENTITY_HOMES as Record<string, HomeRoute>)[home]
  if (!route) throw new Error(`No route registered for the entity home '${home}' (src/entities/homes.ts)`)
  return route
}
