import { hashKey, QueryClient } from '@tanstack/react-query'
import type { Profile } from '../../contract/api/profile.ts'
import { isApiError } from '../api/errors.ts'
import { profileQuery } from '../api/session.ts'
import { signedInSiteSettings } from './siteSettings.ts'

// Loaded with the first signed-in page (main.tsx imports it lazily through `lazyQueryClient`), never on the sign-in page.
export function createQueryClient() {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Client errors will not get better by asking again.
        retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 2,
      },
    },
  })
  mirrorSiteSettings(client)
  return client
}

/** The theme (SiteTheme, above the query cache) follows the signed-in user's site: set, updated, forgotten on logout. */
function mirrorSiteSettings(client: QueryClient) {
  const profileHash = hashKey(profileQuery.queryKey)
  const sync = () => {
    const settings = client.getQueryData<Profile>(profileQuery.queryKey)?.site?.settings
    if (signedInSiteSettings.get() !== settings) signedInSiteSettings.set(settings)
  }
  sync()
  client.getQueryCache().subscribe((event) => {
    if (event.query.queryHash === profileHash) sync()
  })
}
