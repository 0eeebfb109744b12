import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../../../server/db/client.ts'
import {
  chatChannels,
  chatInbounds,
  chatQueues,
  chatQueuesMembers,
  chatRoomMessages,
  chatRooms,
  servicePauses,
  teams,
  userExtras,
  users,
  usersChatChannels,
} from '../../../server/db/schema/index.ts'
import { pauseReports } from '../../../server/db/schema/agent.ts'
import type { AppDeps } from '../../../server/deps.ts'
import { CHAT_CHANNEL } from '../../../server/chat/events.ts'
import type { ChatEvent } from '../../../server/chat/types.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import type { TestApp } from '../helper.ts'

// A small chat contact centre per test (its own site, so tests never share agents or rooms): teams, agents signed in
// to the chat channel, a channel, queues with members, rooms inserted as the chat core would (state `new`), pauses,
// and the chat events published on the bus.

let serial = 0
const MARKER = 'acd-test-marker'
const next = () => `${++serial}${Date.now() % 1_000_000}`

export type World = Awaited<ReturnType<typeof chatWorld>>

export async function chatWorld(t: TestApp) {
  const deps: AppDeps = t.app.deps
  const db: Db = deps.db
  const site = await createSite(db, { domain: `acd${next()}.test`, name: 'ACD' })
  const siteId = site.id
  const events: ChatEvent[] = []
  const markers = new Map<string, () => void>()
  const unsubscribe = await deps.bus.subscribe(CHAT_CHANNEL, (payload) => {
    const marker = payload as { type: string; marker?: string }
    if (marker.type === MARKER) return markers.get(marker.marker!)?.()
    const event = payload as ChatEvent
    if (event.site_id === siteId) events.push(event)
  })

  const world = {
    deps,
    db,
    site,
    siteId,
    events,
    unsubscribe,
    async team(values: { limit?: number; autoAnswer?: boolean } = {}) {
      const [row] = await db
        .insert(teams)
        .values({ siteId, name: `team${next()}`, chatLimitPerUser: values.limit ?? 1, enableWebchatAutoAnswer: values.autoAnswer ?? false })
        .returning()
      return row!
    },
    async agent(values: { teamId?: number | null; loggedIn?: boolean; channels?: number[]; name?: string; lastLogin?: Date } = {}) {
      const username = `${values.name ?? 'agent'}${next()}`
      const [user] = await db
        .insert(users)
        .values({
          siteId,
          username,
          password: 'not-a-hash',
          firstName: values.name ?? 'Agent',
          teamId: values.teamId ?? null,
          lastLogin: values.lastLogin ?? null,
        })
        .returning()
      await db.insert(userExtras).values({ userId: user!.id, siteId, loginChannelChat: values.loggedIn ?? true })
      for (const channelId of values.channels ?? []) await db.insert(usersChatChannels).values({ userId: user!.id, channelId, siteId })
      return user!
    },
    async channel(type: 'whatsapp' | 'webchat' = 'whatsapp') {
      const [row] = await db
        .insert(chatChannels)
        .values({ siteId, description: `channel${next()}`, type })
        .returning()
      return row!
    },
    async queue(values: Partial<typeof chatQueues.$inferInsert> = {}, members: (number | { userId: number; penalty?: number })[] = []) {
      const [row] = await db
        .insert(chatQueues)
        .values({ siteId, description: `queue${next()}`, ...values })
        .returning()
      let position = 0
      for (const member of members) {
        const m = typeof member === 'number' ? { userId: member } : member
        await db.insert(chatQueuesMembers).values({ siteId, queueId: row!.id, userId: m.userId, penalty: m.penalty ?? 0, position: position++ })
      }
      return row!
    },
    async inbound(channelId: number, destination: { app: string; appdata: string }, values: Partial<typeof chatInbounds.$inferInsert> = {}) {
      const [row] = await db
        .insert(chatInbounds)
        .values({ siteId, channelId, description: `in${next()}`, destinationApp: destination.app, destinationAppdata: destination.appdata, ...values })
        .returning()
      return row!
    },
    /** A room as the chat core creates it: state new, one customer. */
    async room(channelId: number, values: Partial<typeof chatRooms.$inferInsert> = {}) {
      const contact = `5511${next()}`.slice(0, 20)
      const [row] = await db
        .insert(chatRooms)
        .values({ uid: randomUUID(), siteId, channelId, contact, address: contact, phone: contact, title: `Cliente ${contact}`, ...values })
        .returning()
      return row!
    },
    async roomRow(id: number) {
      const [row] = await db.select().from(chatRooms).where(eq(chatRooms.id, id))
      return row!
    },
    async messagesOf(roomId: number) {
      return db.select().from(chatRoomMessages).where(eq(chatRoomMessages.roomId, roomId)).orderBy(chatRoomMessages.id)
    },
    /** A started pause of the agent with the chat flags given (enable_webchat on unless said). */
    async pause(userId: number, flags: { enableWebchat?: boolean; allowIncomingChat?: boolean; allowOutgoingChat?: boolean } = {}) {
      const [type] = await db
        .insert(servicePauses)
        .values({ siteId, description: `pause${next()}` })
        .returning()
      const [row] = await db
        .insert(pauseReports)
        .values({
          siteId,
          userId,
          pauseId: type!.id,
          description: type!.description,
          enableWebchat: flags.enableWebchat ?? true,
          allowIncomingChat: flags.allowIncomingChat ?? false,
          allowOutgoingChat: flags.allowOutgoingChat ?? false,
          startedAt: new Date(),
        })
        .returning()
      return row!
    },
    async endPause(reportId: number) {
      await db.update(pauseReports).set({ endedAt: new Date() }).where(eq(pauseReports.id, reportId))
    },
    /** Moves a room's times into the past, as if `seconds` had passed since it was queued / offered. */
    async age(roomId: number, seconds: number) {
      await db
        .update(chatRooms)
        .set({
          queuedAt: sql`${chatRooms.queuedAt} - make_interval(secs => ${seconds})`,
          offeredAt: sql`${chatRooms.offeredAt} - make_interval(secs => ${seconds})`,
        })
        .where(and(eq(chatRooms.id, roomId), eq(chatRooms.siteId, siteId)))
    },
    /** Ends a room as the chat core's closeRoom would (state ended). */
    async close(roomId: number) {
      await db.update(chatRooms).set({ state: 'ended', endedAt: new Date(), endedBy: 'agent' }).where(eq(chatRooms.id, roomId))
    },
    /**
     * Waits until every event published so far has arrived (the Redis bus delivers a moment after the publish): a
     * marker published now arrives after them.
     */
    async settled() {
      const marker = randomUUID()
      const arrived = new Promise<void>((resolve) => markers.set(marker, resolve))
      await deps.bus.publish(CHAT_CHANNEL, { type: MARKER, marker, site_id: siteId, users: [] })
      await arrived
      markers.delete(marker)
    },
    eventsOf(type: ChatEvent['type'], userId?: number) {
      return events.filter((e) => e.type === type && (userId === undefined || e.users.includes(userId)))
    },
  }
  return world
}

/** Waits until `check` answers a truthy value (polling the database, never a fixed sleep); fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
