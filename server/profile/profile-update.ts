import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { users } from '../db/schema/index.ts'
import type { ProfileUpdateBody } from '../../contract/api/profile.ts'

// change-personal-data: the only user columns a user may change about themselves.
export async function updatePersonalData(db: Db, siteId: number, userId: number, changes: Partial<ProfileUpdateBody>): Promise<void> {
  const columns = {
    firstName: changes.first_name,
    lastName: changes.last_name,
    email: changes.email,
    avatarMessage: changes.avatar_message,
  }
  const set = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined))
  if (Object.keys(set).length === 0) return
  await db
    .update(users)
    .set(set)
    .where(and(eq(users.id, userId), eq(users.siteId, siteId)))
}

/** Points the user at a new avatar file (or none) and returns the previous file name, for removal. */
export async function replaceAvatar(db: Db, siteId: number, userId: number, name: string | null): Promise<string | null> {
  const where = and(eq(users.id, userId), eq(users.siteId, siteId))
  return db.transaction(async (tx) => {
    const [current] = await tx.select({ avatar: users.avatar }).from(users).where(where).for('update')
    await tx.update(users).set({ avatar: name }).where(where)
    return current?.avatar ?? null
  })
}
