import type { EntityKey } from '../../../contract/entities/index.ts'

// Four settings entities existed as tables before the catalogue: sites, users, permission groups and teams. Sign-in,
// tenancy and the profile read those tables, so the catalogue maps onto them instead of creating twins: the missing
// columns were added to the hand-written schema files (sites.ts, users.ts, groups.ts, teams.ts), and this bridge says
// where each registry field lives when the conventions of plan.ts do not hold:
// - sites: the registry's `description` is the site's `name`; logos, footer link and colours stay in the `settings`
//   document the public site-settings route already reads (logos as their public URL, so that route needs nothing);
//   a site is its own tenant, so rows are scoped by `id`, and its domain is unique across all sites.
// - users: the sign-in channels live in `user_extras` (one row per user, read by the profile); groups use the existing
//   `user_groups` join table; avatars are the profile's files (DATA_DIR/media/avatars, bare names).
// - permission groups keep their table name; teams match the conventions already.
export type JsonSlot = { readonly column: string; readonly key: string }

export type Bridge = {
  readonly table: string
  /** The column holding the tenant: `site_id`, or `id` for the sites themselves. */
  readonly scope: 'site_id' | 'id'
  readonly created: string
  readonly updated: string
  /** Field → existing column, where the name differs from the convention. */
  readonly columns?: Readonly<Record<string, string>>
  /** Fields kept as keys of a jsonb document. */
  readonly json?: Readonly<Record<string, JsonSlot>>
  /** Fields kept in a one-to-one side table keyed by the row's id. */
  readonly side?: { readonly table: string; readonly owner: string; readonly fields: readonly string[] }
  /** m2m fields stored in an existing join table. */
  readonly joins?: Readonly<Record<string, { readonly table: string; readonly owner: string; readonly target: string }>>
  /** File fields kept outside DATA_DIR/media/<area>-<name>, or stored as URLs. */
  readonly files?: Readonly<Record<string, { readonly dir: string; readonly stored: 'name' | 'url' }>>
  /** Unique fields unique across every site rather than within one. */
  readonly globalUnique?: readonly string[]
}

const SITE_JSON = [
  'logo_favicon',
  'logo_login',
  'logo_footer',
  'url_footer',
  'menu_primary_color',
  'header_color',
  'body_color',
  'footer_color',
  'login_color',
  'button_primary_color',
  'button_secondary_color',
  'switch_color',
  'embed_origins',
] as const

const SITE_LOGOS = ['logo_favicon', 'logo_login', 'logo_footer'] as const

export const BRIDGES: Partial<Record<EntityKey, Bridge>> = {
  'business.sites': {
    table: 'sites',
    scope: 'id',
    created: 'created_at',
    updated: 'updated_at',
    columns: { description: 'name' },
    json: Object.fromEntries(SITE_JSON.map((key) => [key, { column: 'settings', key }])),
    files: Object.fromEntries(SITE_LOGOS.map((key) => [key, { dir: 'business-sites', stored: 'url' as const }])),
    globalUnique: ['domain'],
  },
  'business.users': {
    table: 'users',
    scope: 'site_id',
    created: 'date_joined',
    updated: 'updated_at',
    side: { table: 'user_extras', owner: 'user_id', fields: ['login_channel_telephony', 'login_channel_chat'] },
    joins: { groups: { table: 'user_groups', owner: 'user_id', target: 'group_id' } },
    files: { avatar: { dir: 'avatars', stored: 'name' } },
  },
  'business.groups': { table: 'permission_groups', scope: 'site_id', created: 'created_at', updated: 'updated_at' },
  'service.teams': { table: 'teams', scope: 'site_id', created: 'created_at', updated: 'updated_at' },
}
