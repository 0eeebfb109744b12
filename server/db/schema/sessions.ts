import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { sites } from './sites.ts'
import { users } from './users.ts'

// Credentials are stored only as SHA-256 of the random key the client holds, so a database leak signs no one in.

/** Cookie strategy: one row per browser session; the CSRF token is bound to it. */
export const sessions = pgTable(
  'sessions',
  {
    keyHash: text('key_hash').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

/** Token strategy (`Authorization: Token <key>`). */
export const authTokens = pgTable(
  'auth_tokens',
  {
    keyHash: text('key_hash').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('auth_tokens_user_idx').on(t.userId)],
)

export type SessionRow = typeof sessions.$inferSelect
