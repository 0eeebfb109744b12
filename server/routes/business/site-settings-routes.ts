import type { FastifyInstance } from 'fastify'
import type { PublicSiteSettings } from '../../../contract/api/profile.ts'
import { PUBLIC_SITE_SETTINGS_PATH } from '../../../contract/api/profile.ts'
import { detailError } from '../../http/errors.ts'
import { publicSite } from '../../sites/site-repo.ts'

// What the login page shows before anyone signs in: the request's site, by its Host.
export async function siteSettingsRoutes(app: FastifyInstance): Promise<void> {
  app.get(PUBLIC_SITE_SETTINGS_PATH, { config: { permission: 'public' } }, async (request): Promise<PublicSiteSettings> => {
    if (!request.site) throw detailError(404, 'notFound', request.lang)
    return publicSite(request.site)
  })
}
