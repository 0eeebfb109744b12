import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { boolean, integer, jsonb, pgTable, serial, timestamp, unique, varchar } from 'drizzle-orm/pg-core'
import { servicePauses } from './entities.generated.ts'
import { sites } from './sites.ts'

// Spec 000 §3 — a team's flags drive auto login / auto answer, after-service and the call form. Also the settings
// entity service.teams (server/db/entity-schema/bridge.ts).
export const teams = pgTable(
  'teams',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 150 }).notNull(),
    enableAutoLoginWebphone: boolean('enable_auto_login_webphone').notNull().default(false),
    enableWebphoneAutoAnswer: boolean('enable_webphone_auto_answer').notNull().default(false),
    enableAutoLoginWebchat: boolean('enable_auto_login_webchat').notNull().default(false),
    enableWebchatAutoAnswer: boolean('enable_webchat_auto_answer').notNull().default(false),
    chatLimitPerUser: integer('chat_limit_per_user').notNull().default(1),
    chatTimeoutToRemoveInactive: integer('chat_timeout_to_remove_inactive').notNull().default(15),
    enableAfterService: boolean('enable_after_service').notNull().default(false),
    durationOfAfterService: integer('duration_of_after_service').notNull().default(0),
    ignoreAfterServiceWithDurationShorterThan: integer('ignore_after_service_with_duration_shorter_than').notNull().default(0),
    ignoreAfterServiceUnaccepted: boolean('ignore_after_service_unaccepted').notNull().default(false),
    /** How after-service ends (contract/codes/after-service.ts AFTER_SERVICE_MODES): the spec's countdown by default. */
    afterServiceMode: varchar('after_service_mode', { length: 32 }).notNull().default('spec'),
    enableClassifications: jsonb('enable_classifications').$type<string[]>().notNull().default([]),
    enableComment: boolean('enable_comment').notNull().default(false),
    minimumCommentSize: integer('minimum_comment_size').notNull().default(0),
    maximumCommentSize: integer('maximum_comment_size').notNull().default(255),
    isActive: boolean('is_active').notNull().default(true),
    afterServicePauseId: integer('after_service_pause_id').references((): AnyPgColumn => servicePauses.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('teams_site_name_unique').on(t.siteId, t.name)],
)

export type TeamRow = typeof teams.$inferSelect
