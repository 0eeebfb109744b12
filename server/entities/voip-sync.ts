import { and, eq, inArray } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { pabxDevices, users, voipAccounts } from '../db/schema/index.ts'
import type { EntityContext } from './context.ts'

// The webphone's SIP account (the profile's `voip`) follows the user's SIP device: endpoint = the device's username,
// password = its secret, realm = the site's domain. Run after a user or device is written, and before a device is
// deleted, so the profile never hands out credentials the SIP proxy no longer accepts.

export async function syncVoipAccounts(ctx: EntityContext, which: { userIds?: number[]; deviceIds?: number[] }): Promise<void> {
  const { db, site } = ctx
  const scope: SQL[] = [eq(users.siteId, site.id)]
  if (which.userIds) scope.push(inArray(users.id, which.userIds))
  if (which.deviceIds) scope.push(inArray(users.deviceId, which.deviceIds))
  const rows = await db
    .select({ userId: users.id, device: pabxDevices, voip: voipAccounts })
    .from(users)
    .leftJoin(pabxDevices, and(eq(pabxDevices.id, users.deviceId), eq(pabxDevices.siteId, site.id)))
    .leftJoin(voipAccounts, eq(voipAccounts.userId, users.id))
    .where(and(...scope))
  for (const { userId, device, voip } of rows) {
    if (!device) {
      if (voip) await db.delete(voipAccounts).where(eq(voipAccounts.userId, userId))
      continue
    }
    const account = {
      websocket: voip?.websocket ?? defaultWebsocket(ctx),
      endpoint: device.username,
      realm: site.domain,
      password: device.secret,
      deviceStateBusyAt: device.deviceStateBusyAt,
    }
    await db
      .insert(voipAccounts)
      .values({ userId, siteId: site.id, ...account })
      .onConflictDoUpdate({ target: voipAccounts.userId, set: account })
  }
}

/** Before a device goes: its users lose their webphone account (their device_id is then cleared by the database). */
export async function dropVoipOfDevice(ctx: EntityContext, deviceId: number): Promise<void> {
  const owners = ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.siteId, ctx.site.id), eq(users.deviceId, deviceId)))
  await ctx.db.delete(voipAccounts).where(inArray(voipAccounts.userId, owners))
}

function defaultWebsocket(ctx: EntityContext): string {
  const origin = ctx.origin ?? { secure: true, host: ctx.site.domain }
  return `${origin.secure ? 'wss' : 'ws'}://${origin.host}/ws/sip`
}
