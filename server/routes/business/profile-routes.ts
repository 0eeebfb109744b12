import type { FastifyInstance, FastifyRequest } from 'fastify'
import * as v from 'valibot'
import { PROFILE_PATHS, ProfileUpdateBody } from '../../../contract/api/profile.ts'
import type { Profile } from '../../../contract/api/profile.ts'
import { detailError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import { loadProfile } from '../../profile/profile-view.ts'
import { updatePersonalData } from '../../profile/profile-update.ts'
import { authChanged } from '../../auth/auth-cache.ts'

// GET the signed-in user's profile; PUT/PATCH change-personal-data.
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps
  const PartialProfileUpdateBody = v.partial(ProfileUpdateBody)

  app.get(PROFILE_PATHS.profile, { config: { permission: 'authenticated' } }, (request) => currentProfile(app, request))

  app.route({
    method: ['PUT', 'PATCH'],
    url: PROFILE_PATHS.profile,
    config: { permission: 'authenticated' },
    handler: async (request) => {
      const user = request.auth!.user
      const partial = request.method === 'PATCH'
      const body = parseInput(partial ? PartialProfileUpdateBody : ProfileUpdateBody, request.body, request.lang)
      // PATCH changes only the fields sent; PUT also applies the schema's defaults (an absent last_name is '').
      const sent = partial ? Object.keys(request.body as object) : Object.keys(body)
      const changes = Object.fromEntries(Object.entries(body).filter(([key]) => sent.includes(key)))
      await updatePersonalData(db, user.siteId, user.id, changes)
      await authChanged(db, app.deps.bus, { kind: 'user', user_id: user.id })
      return currentProfile(app, request)
    },
  })
}

/** The caller's profile, scoped by their site; shared by the routes that answer with it. */
export async function currentProfile(app: FastifyInstance, request: FastifyRequest): Promise<Profile> {
  const { user, roles } = request.auth!
  const profile = await loadProfile(app.deps.db, user.siteId, user.id, { roles })
  if (!profile) throw detailError(404, 'notFound', request.lang)
  return profile
}
