import { asc, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { sites } from '../db/schema/index.ts'
import type { SiteRow } from '../db/schema/index.ts'
import type { AuthCache } from '../auth/auth-cache.ts'
import { forgetLocally } from '../auth/auth-cache.ts'
import type { PublicSiteSettings, SiteSettings } from '../../contract/api/profile.ts'

// Sites are tenants. A request belongs to the site whose domain matches its Host, else to the default site (the
// first one created), so a fresh install answers on any address.
export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  description: '',
  logo_favicon: null,
  logo_login: null,
  logo_footer: null,
  url_footer: '',
  menu_primary_color: null,
  header_color: null,
  body_color: null,
  footer_color: null,
  login_color: null,
  button_primary_color: null,
  button_secondary_color: null,
  switch_color: null,
  primary_color: null,
  secondary_color: null,
  success_color: null,
  error_color: null,
}

/** Stored settings over the defaults, limited to the known keys. */
export function siteSettings(site: SiteRow): SiteSettings {
  const stored: Partial<SiteSettings> = site.settings ?? {}
  const merged = { ...DEFAULT_SITE_SETTINGS }
  for (const key of Object.keys(DEFAULT_SITE_SETTINGS) as (keyof SiteSettings)[]) {
    if (stored[key] !== undefined) Object.assign(merged, { [key]: stored[key] })
  }
  return merged
}

export function publicSite(site: SiteRow): PublicSiteSettings {
  return { id: site.id, domain: site.domain, name: site.name, settings: siteSettings(site) }
}

export function normaliseDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '')
}

/**
 * The site whose domain is `hostname`, else the default site; null only when no site exists yet. With the app's cache
 * a Host is looked up once until sites change (auth/auth-cache.ts).
 */
export async function resolveSite(db: Db, hostname: string, cache?: AuthCache): Promise<SiteRow | null> {
  return cache ? cache.site(normaliseDomain(hostname), () => lookUpSite(db, hostname)) : lookUpSite(db, hostname)
}

async function lookUpSite(db: Db, hostname: string): Promise<SiteRow | null> {
  const match = await findSiteByDomain(db, hostname)
  if (match) return match
  const [first] = await db.select().from(sites).orderBy(asc(sites.id)).limit(1)
  return first ?? null
}

export async function findSiteByDomain(db: Db, domain: string): Promise<SiteRow | null> {
  const [site] = await db
    .select()
    .from(sites)
    .where(eq(sites.domain, normaliseDomain(domain)))
  return site ?? null
}

export async function createSite(db: Db, values: { domain: string; name: string; settings?: Partial<SiteSettings> }): Promise<SiteRow> {
  const [site] = await db
    .insert(sites)
    .values({ ...values, domain: normaliseDomain(values.domain) })
    .returning()
  // A Host that fell back to the default site may be this site's now.
  forgetLocally(db, { kind: 'all' })
  return site!
}
