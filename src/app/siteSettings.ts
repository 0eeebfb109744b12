import { useEffect } from 'react'
import type { PublicSiteSettings, SiteSettings } from '../../contract/api/profile.ts'
import { fetchPublicSiteSettings } from '../api/session.ts'
import { createStore, useStore } from './store.ts'

// The site settings the theme follows, kept outside TanStack Query so the root (and the sign-in page) need no query
// cache: the public settings of the sign-in page, fetched here, and the signed-in user's site, which `queryClient.ts`
// mirrors from the ['profile'] query.

/** GET /api/v1/business/site-settings/ (public): the sign-in page's name, logos and colours. */
export const publicSite = createStore<PublicSiteSettings | undefined>(undefined)
/** `profile.site.settings` of the signed-in user; undefined when nobody is signed in. */
export const signedInSiteSettings = createStore<Partial<SiteSettings> | undefined>(undefined)

/** As long as the public settings are fresh (a sign-in page shown again later asks again). */
export const PUBLIC_SITE_STALE_MS = 5 * 60_000

let loading: Promise<void> | undefined
let fetchedAt = 0

/** Fetches the public settings unless fresh or already on the way; a failure leaves the page on the defaults. */
export function loadPublicSite(now = Date.now()): Promise<void> {
  if (loading) return loading
  if (publicSite.get() && now - fetchedAt < PUBLIC_SITE_STALE_MS) return Promise.resolve()
  loading = fetchPublicSiteSettings()
    .then((site) => {
      fetchedAt = Date.now()
      publicSite.set(site)
    })
    .catch((error: unknown) => console.warn('site settings', error))
    .finally(() => {
      loading = undefined
    })
  return loading
}

/** The public site settings for the sign-in layout (loads them when it mounts). */
export function usePublicSite(): PublicSiteSettings | undefined {
  useEffect(() => {
    void loadPublicSite()
  }, [])
  return useStore(publicSite)
}

/** The site's settings as known now: the signed-in user's site, else the public settings of the sign-in page. */
export function useSiteSettings(): Partial<SiteSettings> | undefined {
  const signedIn = useStore(signedInSiteSettings)
  const site = useStore(publicSite)
  return signedIn ?? site?.settings
}
