import { integer, jsonb, pgTable, primaryKey, serial, unique, varchar } from 'drizzle-orm/pg-core'
import { sites } from './sites.ts'
import { users } from './users.ts'

// Permission groups (business/groups): a profile's roles are the union of its groups' codenames.
export const permissionGroups = pgTable(
  'permission_groups',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 150 }).notNull(),
    permissions: jsonb('permissions').$type<string[]>().notNull().default([]),
  },
  (t) => [unique('permission_groups_site_name_unique').on(t.siteId, t.name)],
)

export const userGroups = pgTable(
  'user_groups',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').notNull().references(() => permissionGroups.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.groupId] })],
)
