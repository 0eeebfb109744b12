import { and, asc, desc, eq, gt, gte, ilike, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { queueReadReceipt } from '../../chat/read-receipts.ts'
import type { Db } from '../../db/client.ts'
import { chatRoomMessages, chatRooms } from '../../db/schema/index.ts'
import type { MessageRow, RoomRow } from './serialize-rows.ts'

// The reads of the chat socket and the chat calls (spec 001 §2, §7), all scoped by the caller: a room is seen by its
// site's users only, and there by its agent or a supervisor. Another site's id, or another agent's room, is "not
// found" — never a different answer that would tell it exists. Writes belong to the chat core and the ACD
// (server/chat/); the one write here is the agent's read mark (read_message), the socket's own.

/** Who asks: the agent's own rooms, or (supervisor) every room of the site. */
export type Viewer = { siteId: number; userId: number; supervisor: boolean }

const nextRevision = sql`nextval('chat_revision_seq')`

/** Rooms an agent's console holds: offered to them, theirs, or ended but not yet removed (the countdown). */
const CONSOLE_STATES = ['offered', 'active', 'ended'] as const

function visible(viewer: Viewer): SQL {
  const site = eq(chatRooms.siteId, viewer.siteId)
  return viewer.supervisor ? site : and(site, eq(chatRooms.userId, viewer.userId))!
}

export async function findRoom(db: Db, viewer: Viewer, id: number): Promise<RoomRow | null> {
  const [row] = await db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.id, id), visible(viewer)))
    .limit(1)
  return row ?? null
}

export async function findRoomByUid(db: Db, viewer: Viewer, uid: string): Promise<RoomRow | null> {
  const [row] = await db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.uid, uid), visible(viewer)))
    .limit(1)
  return row ?? null
}

/** The rooms on the agent's console (check_rooms, sync): offered to them or theirs, not finished. */
export async function consoleRooms(db: Db, siteId: number, userId: number): Promise<RoomRow[]> {
  return db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.siteId, siteId), eq(chatRooms.userId, userId), isNull(chatRooms.finishedAt), inArray(chatRooms.state, [...CONSOLE_STATES])))
    .orderBy(desc(chatRooms.lastClientMessageAt), desc(chatRooms.id))
}

/** The highest revision among these rooms and their messages (the client's cursor after check_rooms). */
export async function highestRevision(db: Db, rooms: readonly RoomRow[]): Promise<number> {
  if (rooms.length === 0) return 0
  const [row] = await db
    .select({ max: sql<string | null>`max(${chatRoomMessages.revision})` })
    .from(chatRoomMessages)
    .where(
      inArray(
        chatRoomMessages.roomId,
        rooms.map((r) => r.id),
      ),
    )
  return Math.max(Number(row?.max ?? 0), ...rooms.map((r) => r.revision))
}

/** A page of a room's messages, oldest first: older than `before`, newer than `after`, or the latest `limit`. */
export async function messagesPage(
  db: Db,
  roomId: number,
  page: { before?: number; after?: number; limit: number },
): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
  const conditions = [eq(chatRoomMessages.roomId, roomId)]
  if (page.before !== undefined) conditions.push(lt(chatRoomMessages.id, page.before))
  if (page.after !== undefined) conditions.push(gt(chatRoomMessages.id, page.after))
  const newer = page.after !== undefined && page.before === undefined
  const rows = await db
    .select()
    .from(chatRoomMessages)
    .where(and(...conditions))
    .orderBy(newer ? asc(chatRoomMessages.id) : desc(chatRoomMessages.id))
    .limit(page.limit + 1)
  const hasMore = rows.length > page.limit
  const kept = rows.slice(0, page.limit)
  return { rows: newer ? kept : kept.reverse(), hasMore }
}

/** Every message of the agent's console rooms past `cursor`, in revision order, at most `limit` (+1 tells more). */
export async function messagesSince(db: Db, roomIds: readonly number[], cursor: number, limit: number): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
  if (roomIds.length === 0) return { rows: [], hasMore: false }
  const rows = await db
    .select()
    .from(chatRoomMessages)
    .where(and(inArray(chatRoomMessages.roomId, [...roomIds]), gt(chatRoomMessages.revision, cursor)))
    .orderBy(asc(chatRoomMessages.revision))
    .limit(limit + 1)
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit }
}

/** Messages by id, only of rooms the viewer may see. */
export async function messagesByIds(db: Db, viewer: Viewer, ids: readonly number[]): Promise<MessageRow[]> {
  const rows = await db
    .select({ message: chatRoomMessages })
    .from(chatRoomMessages)
    .innerJoin(chatRooms, eq(chatRooms.id, chatRoomMessages.roomId))
    .where(and(inArray(chatRoomMessages.id, [...ids]), visible(viewer)))
    .orderBy(asc(chatRoomMessages.id))
  return rows.map((r) => r.message)
}

/**
 * The agent read the customer's messages of a room: `ids`, every one up to `upTo`, or all. Each changed message and
 * the room take a new revision (a reconnecting console re-syncs its unread badges too). Answers the changed rows.
 */
export async function markRead(db: Db, roomId: number, which: { ids?: readonly number[]; upTo?: number }): Promise<MessageRow[]> {
  const conditions = [eq(chatRoomMessages.roomId, roomId), eq(chatRoomMessages.sentBy, 'client'), eq(chatRoomMessages.readByAgent, false)]
  if (which.ids) conditions.push(inArray(chatRoomMessages.id, [...which.ids]))
  if (which.upTo !== undefined) conditions.push(lte(chatRoomMessages.id, which.upTo))
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(chatRoomMessages)
      .set({ readByAgent: true, revision: nextRevision })
      .where(and(...conditions))
      .returning()
    if (changed.length) await tx.update(chatRooms).set({ revision: nextRevision }).where(eq(chatRooms.id, roomId))
    // The customer sees it read (WhatsApp's blue ticks), through the outbox.
    await queueReadReceipt(tx as unknown as Db, roomId, changed)
    return changed
  })
}

/** The customer's unread messages over the agent's console rooms. */
export async function unreadCount(db: Db, siteId: number, userId: number, roomId?: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(chatRoomMessages)
    .innerJoin(chatRooms, eq(chatRooms.id, chatRoomMessages.roomId))
    .where(
      and(
        eq(chatRooms.siteId, siteId),
        eq(chatRooms.userId, userId),
        isNull(chatRooms.finishedAt),
        roomId !== undefined ? eq(chatRooms.id, roomId) : undefined,
        eq(chatRoomMessages.sentBy, 'client'),
        eq(chatRoomMessages.readByAgent, false),
      ),
    )
  return row?.n ?? 0
}

export async function messageCount(db: Db, roomId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(chatRoomMessages)
    .where(eq(chatRoomMessages.roomId, roomId))
  return row?.n ?? 0
}

// ---------------------------------------------------------------------------------------------------------------
// History, archives and search (spec 001 §2 dialogs, §7 historic/, archives/, search/{chatId}/…)

export type Paging = { limit: number; offset: number }

/** A search term as an ILIKE pattern (the trigram indexes on title, phone and content serve it). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Ended rooms (history), archived ones or the live ones (not ended), newest first; search over title, phone and the last customer message. */
export async function listRooms(
  db: Db,
  viewer: Viewer,
  options: { archived: boolean; live?: boolean; search?: string; classification?: number; sub_classification?: number } & Paging,
): Promise<{ count: number; rows: RoomRow[] }> {
  const conditions = [visible(viewer), eq(chatRooms.archived, options.archived)]
  // Live: the rooms a supervisor can watch and transfer (not ended); history: the ended ones.
  if (options.live) conditions.push(isNull(chatRooms.endedAt))
  else if (!options.archived) conditions.push(isNotNull(chatRooms.endedAt))
  // The outcome filters (issue 15 item 7): the agent's classification of the room.
  if (options.classification) conditions.push(sql`(${chatRooms.classification}->>'classification_id')::int = ${options.classification}`)
  if (options.sub_classification) conditions.push(sql`(${chatRooms.classification}->>'sub_classification_id')::int = ${options.sub_classification}`)
  if (options.search) {
    const pattern = likePattern(options.search)
    conditions.push(or(ilike(chatRooms.title, pattern), ilike(chatRooms.phone, pattern))!)
  }
  const where = and(...conditions)
  const [rows, [total]] = await Promise.all([
    db.select().from(chatRooms).where(where).orderBy(desc(chatRooms.startedAt), desc(chatRooms.id)).limit(options.limit).offset(options.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(chatRooms)
      .where(where),
  ])
  return { count: total?.n ?? 0, rows }
}

export type SearchFilters = {
  search?: string
  sort: 'datetime' | '-datetime'
  from?: Date
  to?: Date
  attachment?: boolean
} & Paging

/** Messages of one room matching the search (content or attachment name), in a datetime range, with attachments only. */
export async function searchMessages(db: Db, roomId: number, filters: SearchFilters): Promise<{ count: number; rows: MessageRow[] }> {
  const conditions = [eq(chatRoomMessages.roomId, roomId)]
  if (filters.search) {
    const pattern = likePattern(filters.search)
    conditions.push(or(ilike(chatRoomMessages.content, pattern), ilike(chatRoomMessages.attachmentName, pattern))!)
  }
  if (filters.from) conditions.push(gte(chatRoomMessages.createdAt, filters.from))
  if (filters.to) conditions.push(lte(chatRoomMessages.createdAt, filters.to))
  if (filters.attachment === true) conditions.push(isNotNull(chatRoomMessages.attachmentFile))
  if (filters.attachment === false) conditions.push(isNull(chatRoomMessages.attachmentFile))
  const where = and(...conditions)
  const order =
    filters.sort === 'datetime' ? [asc(chatRoomMessages.createdAt), asc(chatRoomMessages.id)] : [desc(chatRoomMessages.createdAt), desc(chatRoomMessages.id)]
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(chatRoomMessages)
      .where(where)
      .orderBy(...order)
      .limit(filters.limit)
      .offset(filters.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(chatRoomMessages)
      .where(where),
  ])
  return { count: total?.n ?? 0, rows }
}

/**
 * The customer's conversations (the Conversations tab): every room of the same contact on the same channel, the
 * given one included, filtered by a search over their messages (a room matches when one of its messages does).
 */
export async function searchRooms(db: Db, viewer: Viewer, room: RoomRow, filters: SearchFilters): Promise<{ count: number; rows: RoomRow[] }> {
  const conditions = [eq(chatRooms.siteId, viewer.siteId), eq(chatRooms.channelId, room.channelId), eq(chatRooms.contact, room.contact)]
  if (!viewer.supervisor) conditions.push(eq(chatRooms.userId, viewer.userId))
  if (filters.from) conditions.push(gte(chatRooms.startedAt, filters.from))
  if (filters.to) conditions.push(lte(chatRooms.startedAt, filters.to))
  const messageConditions: SQL[] = []
  if (filters.search) {
    const pattern = likePattern(filters.search)
    messageConditions.push(or(ilike(chatRoomMessages.content, pattern), ilike(chatRoomMessages.attachmentName, pattern))!)
  }
  if (filters.attachment === true) messageConditions.push(isNotNull(chatRoomMessages.attachmentFile))
  if (messageConditions.length) {
    conditions.push(sql`exists (select 1 from ${chatRoomMessages} where ${chatRoomMessages.roomId} = ${chatRooms.id} and ${and(...messageConditions)})`)
  }
  const where = and(...conditions)
  const order = filters.sort === 'datetime' ? [asc(chatRooms.startedAt), asc(chatRooms.id)] : [desc(chatRooms.startedAt), desc(chatRooms.id)]
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(chatRooms)
      .where(where)
      .orderBy(...order)
      .limit(filters.limit)
      .offset(filters.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(chatRooms)
      .where(where),
  ])
  return { count: total?.n ?? 0, rows }
}

/** Every message of a room, oldest first (the printable export). */
export async function allMessages(db: Db, roomId: number): Promise<MessageRow[]> {
  return db.select().from(chatRoomMessages).where(eq(chatRoomMessages.roomId, roomId)).orderBy(asc(chatRoomMessages.id))
}
