import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { boolean, index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { businessDepartments, pabxDevices } from './entities.generated.ts'
import { sites } from './sites.ts'
import { teams } from './teams.ts'

// Users sign in with a username unique within their site; the same name may exist on another site. Also the settings
// entity business.users (server/db/entity-schema/bridge.ts): one SIP device per user at most.
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    username: varchar('username', { length: 150 }).notNull(),
    // argon2id PHC string.
    password: text('password').notNull(),
    firstName: varchar('first_name', { length: 150 }).notNull().default(''),
    lastName: varchar('last_name', { length: 150 }).notNull().default(''),
    email: varchar('email', { length: 254 }).notNull().default(''),
    // File name under DATA_DIR/media/avatars, never a client-chosen path.
    avatar: varchar('avatar', { length: 64 }),
    avatarMessage: varchar('avatar_message', { length: 255 }).notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    dateJoined: timestamp('date_joined', { withTimezone: true }).notNull().defaultNow(),
    teamId: integer('team_id').references(() => teams.id, { onDelete: 'set null' }),
    departmentId: integer('department_id').references((): AnyPgColumn => businessDepartments.id, { onDelete: 'set null' }),
    deviceId: integer('device_id').references((): AnyPgColumn => pabxDevices.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('users_site_username_unique').on(t.siteId, t.username),
    index('users_team_idx').on(t.teamId),
    index('users_department_id_idx').on(t.departmentId),
    uniqueIndex('users_device_unique').on(t.siteId, t.deviceId),
  ],
)

/** Spec 000 §3 userextra: channel logins and the password expiry the SPA warns about. */
export const userExtras = pgTable('user_extras', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  siteId: integer('site_id')
    .notNull()
    .references(() => sites.id, { onDelete: 'cascade' }),
  loginChannelTelephony: boolean('login_channel_telephony').notNull().default(false),
  loginChannelChat: boolean('login_channel_chat').notNull().default(false),
  passwordExpireDate: timestamp('password_expire_date', { withTimezone: true }),
  passwordNotificationStart: timestamp('password_notification_start', { withTimezone: true }),
})

/** The webphone's SIP account; users without one get `voip: null` in their profile. */
export const voipAccounts = pgTable('voip_accounts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  siteId: integer('site_id')
    .notNull()
    .references(() => sites.id, { onDelete: 'cascade' }),
  websocket: varchar('websocket', { length: 255 }).notNull(),
  endpoint: varchar('endpoint', { length: 80 }).notNull(),
  realm: varchar('realm', { length: 253 }).notNull(),
  // SIP digest needs the secret itself, so it is stored as given (the profile hands it to sip.js).
  password: varchar('password', { length: 128 }).notNull(),
  deviceStateBusyAt: integer('device_state_busy_at').notNull().default(1),
})

export type UserRow = typeof users.$inferSelect
