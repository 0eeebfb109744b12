import { boolean, integer, jsonb, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core'
import type { SiteSettings } from '../../../contract/api/profile.ts'

// A tenant. Requests find their site by the Host header; every other table carries site_id. Also the settings entity
// business.sites (see server/db/entity-schema/bridge.ts: `name` is its description, `settings` holds logos and colours).
export const sites = pgTable('sites', {
  id: serial('id').primaryKey(),
  domain: varchar('domain', { length: 253 }).notNull().unique(),
  name: varchar('name', { length: 255 }).notNull(),
  isActive: boolean('is_active').notNull().default(true),
  // Stored partially; reads merge it over DEFAULT_SITE_SETTINGS so answers never miss a field.
  settings: jsonb('settings').$type<Partial<SiteSettings>>().notNull().default({}),
  // Password policy: days a new password lives (0 = never expires) and days of warning before it expires.
  passwordExpireDays: integer('password_expire_days').notNull().default(90),
  passwordNotifyDays: integer('password_notify_days').notNull().default(7),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export type SiteRow = typeof sites.$inferSelect
