import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { permissionGroups, userExtras, userGroups, users, voipAccounts } from '../db/schema/index.ts'
import type { UserRow } from '../db/schema/index.ts'
import { hashPassword } from '../auth/passwords.ts'

// Users are always looked up inside one site: the site id is part of every query, never an afterthought.
export async function findUserByUsername(db: Db, siteId: number, username: string): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.siteId, siteId), eq(users.username, username)))
  return user ?? null
}

export async function findUser(db: Db, siteId: number, userId: number): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.siteId, siteId), eq(users.id, userId)))
  return user ?? null
}

/** A profile's roles: the union of the permission codenames of the user's active groups, sorted. */
export async function loadRoles(db: Db, siteId: number, userId: number): Promise<string[]> {
  const rows = await db
    .select({ permissions: permissionGroups.permissions })
    .from(userGroups)
    .innerJoin(permissionGroups, eq(permissionGroups.id, userGroups.groupId))
    .where(and(eq(userGroups.userId, userId), eq(userGroups.siteId, siteId), eq(permissionGroups.siteId, siteId), eq(permissionGroups.isActive, true)))
  return [...new Set(rows.flatMap((row) => row.permissions))].sort()
}

export type NewUser = {
  siteId: number
  username: string
  password: string
  firstName?: string
  lastName?: string
  email?: string
  teamId?: number | null
  groupIds?: number[]
  voip?: { websocket: string; endpoint: string; realm: string; password: string; deviceStateBusyAt?: number }
  passwordExpireDate?: Date | null
  passwordNotificationStart?: Date | null
}

/** Creates a user with its userextra row, groups and optional SIP account, in one transaction. */
export async function createUser(db: Db, input: NewUser): Promise<UserRow> {
  const password = await hashPassword(input.password)
  return db.transaction(async (tx) => {
    const { siteId } = input
    const [user] = await tx
      .insert(users)
      .values({
        siteId,
        username: input.username,
        password,
        firstName: input.firstName ?? '',
        lastName: input.lastName ?? '',
        email: input.email ?? '',
        teamId: input.teamId ?? null,
      })
      .returning()
    const userId = user!.id
    await tx.insert(userExtras).values({
      userId,
      siteId,
      passwordExpireDate: input.passwordExpireDate ?? null,
      passwordNotificationStart: input.passwordNotificationStart ?? null,
    })
    if (input.groupIds?.length) {
      await tx.insert(userGroups).values(input.groupIds.map((groupId) => ({ userId, groupId, siteId })))
    }
    if (input.voip) await tx.insert(voipAccounts).values({ userId, siteId, ...input.voip })
    return user!
  })
}

export async function createGroup(db: Db, siteId: number, name: string, permissions: readonly string[]): Promise<number> {
  const [group] = await db
    .insert(permissionGroups)
    .values({ siteId, name, permissions: [...permissions] })
    .returning({ id: permissionGroups.id })
  return group!.id
}
