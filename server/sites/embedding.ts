import type { SiteRow } from '../db/schema/index.ts'

// The embedding of spec 001 §7: a page of another origin (a CRM) may frame the app and hear its phone status. Each
// site lists the origins allowed to (business.sites `embed_origins`, comma-separated, validated as origins); the app
// answers them as Content-Security-Policy frame-ancestors, so no other page can frame it (clickjacking) nor receive
// the token the app posts to the page that framed it.

/** The site's allowed embedding origins, as the setting stores them (a comma-joined list). */
export function embedOrigins(site: SiteRow | null): string[] {
  const stored = (site?.settings as Record<string, unknown> | undefined)?.embed_origins
  if (typeof stored !== 'string') return []
  // Only what still parses as an origin reaches a header: a stray value can neither widen nor break the policy.
  return [...new Set(stored.split(',').flatMap((item) => originOf(item.trim())))]
}

function originOf(value: string): string[] {
  if (!/^https?:\/\//i.test(value)) return []
  try {
    const origin = new URL(value).origin
    return origin === 'null' ? [] : [origin]
  } catch {
    return []
  }
}

/** The frame-ancestors sources of the app's pages: itself, then the site's allowed origins. */
export function frameAncestors(site: SiteRow | null): string {
  return ["'self'", ...embedOrigins(site)].join(' ')
}
