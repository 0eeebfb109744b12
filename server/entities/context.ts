import type { Db } from '../db/client.ts'
import type { SiteRow } from '../db/schema/index.ts'
import type { Locale } from '../../contract/locales.ts'
import type { Bus } from '../bus/bus.ts'

// What every settings operation runs with: the database (or the open transaction), the caller's site — the only
// rows it may see — the caller, the answer language and where uploads live.
export type EntityContext = {
  readonly db: Db
  readonly site: SiteRow
  readonly userId: number | null
  readonly lang: Locale
  readonly mediaDir: string
  /** How the caller reached the server (defaults for addresses the server hands out, e.g. the SIP websocket). */
  readonly origin?: { readonly secure: boolean; readonly host: string }
  /** Where changes other parts must hear of are announced (a disabled user's sockets close); absent in the seed. */
  readonly bus?: Bus
}

/** The same context inside a transaction. */
export function within(ctx: EntityContext, db: Db): EntityContext {
  return { ...ctx, db }
}
