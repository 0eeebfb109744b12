import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { chatChannels, chatRoomMessages, chatRooms, users } from '../../../server/db/schema/index.ts'
import { resolveSite } from '../../../server/sites/site-repo.ts'
import type { AppDeps } from '../../../server/deps.ts'
import { CHAT_CHANNEL } from '../../../server/chat/events.ts'
import type { ChatEvent, InboundMessage } from '../../../server/chat/types.ts'
import type { TestApp } from '../helper.ts'

// Chat tests' ground: the demo site's ids, a WhatsApp and a webchat channel, and the events the core publishes.

export type ChatFixture = {
  deps: AppDeps
  siteId: number
  whatsapp: number
  webchat: number
  agent1: number
  agent2: number
  supervisor: number
  events: ChatEvent[]
}

export async function chatFixture(t: TestApp): Promise<ChatFixture> {
  // The chat service (dispatcher, sweeps) starts when the app is ready.
  await t.app.ready()
  const deps = t.app.deps
  const db = deps.db
  const site = (await resolveSite(db, 'localhost'))!
  const [wa] = await db
    .insert(chatChannels)
    .values({ siteId: site.id, description: 'WhatsApp', type: 'whatsapp', phoneNumberId: randomUUID().slice(0, 12) })
    .returning()
  const [web] = await db.insert(chatChannels).values({ siteId: site.id, description: 'Site', type: 'webchat' }).returning()
  const id = async (username: string) =>
    (
      await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.siteId, site.id), eq(users.username, username)))
    )[0]!.id
  const events: ChatEvent[] = []
  await deps.bus.subscribe(CHAT_CHANNEL, (event) => events.push(event as ChatEvent))
  return {
    deps,
    siteId: site.id,
    whatsapp: wa!.id,
    webchat: web!.id,
    agent1: await id('agent1'),
    agent2: await id('agent2'),
    supervisor: await id('supervisor'),
    events,
  }
}

let counter = 0

/** A WhatsApp text from `waId` with a fresh wamid unless one is given. */
export function waText(f: ChatFixture, waId: string, content: string, extra: Partial<InboundMessage> = {}): InboundMessage {
  counter++
  return {
    siteId: f.siteId,
    channelId: f.whatsapp,
    customer: { contact: waId, name: 'Maria' },
    externalId: `wamid.${Date.now()}.${counter}.${Math.random().toString(36).slice(2)}`,
    type: 'text',
    content,
    sentAt: new Date(),
    ...extra,
  }
}

export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export async function roomMessages(f: ChatFixture, roomId: number) {
  return f.deps.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.roomId, roomId)).orderBy(chatRoomMessages.id)
}

export async function roomRow(f: ChatFixture, roomId: number) {
  return (await f.deps.db.select().from(chatRooms).where(eq(chatRooms.id, roomId)))[0]!
}

/** Hands a room to an agent as the ACD would (active, answered). */
export async function assign(f: ChatFixture, roomId: number, userId: number) {
  await f.deps.db.update(chatRooms).set({ userId, state: 'active', answeredAt: new Date() }).where(eq(chatRooms.id, roomId))
}
