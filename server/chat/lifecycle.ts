import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Locale } from '../../contract/locales.ts'
import type { AppDeps } from '../deps.ts'
import { chatRooms } from '../db/schema/index.ts'
import { detailError } from '../errors/http-error.ts'
import { roomReleased } from './acd/queue.ts'
import { publishChatEvent, roomAudience } from './events.ts'
import type { RoomRow } from './serialize.ts'
import { serializeRoom } from './serialize.ts'

// A room's end (spec 001 §4 "Chat lifecycle in the console"): closing sets ended (state, ended_at, ended_by); the
// room then stays on its agent's console for the team's chat_timeout_to_remove_inactive seconds (default 15) and
// leaves it (finished_at, ChatEvent 'removed'). The countdown is a database query run every second by the chat
// service, so a restart does not forget it. Ended rooms can be archived and unarchived.

const nextRevision = sql`nextval('chat_revision_seq')`
export const DEFAULT_REMOVE_INACTIVE_SECONDS = 15

export type CloseRoom = {
  siteId: number
  uid?: string
  roomId?: number
  /** The agent closing it (must be the room's agent), or who else ended it. */
  byUserId?: number
  by?: 'client' | 'system' | 'timeout' | 'supervisor'
  lang?: Locale
}

/** Ends a room; answers it (already ended: as it is, nothing published again). */
export async function closeRoom(deps: AppDeps, input: CloseRoom): Promise<RoomRow> {
  const lang = input.lang ?? 'pt-BR'
  const match = and(eq(chatRooms.siteId, input.siteId), input.roomId !== undefined ? eq(chatRooms.id, input.roomId) : eq(chatRooms.uid, input.uid ?? ''))
  const [room] = await deps.db.select().from(chatRooms).where(match)
  if (!room) throw detailError(404, 'notFound', lang)
  if (input.byUserId !== undefined && room.userId !== input.byUserId) throw detailError(403, 'chatNotYours', lang)
  if (room.endedAt) return room
  const [ended] = await deps.db
    .update(chatRooms)
    .set({ state: 'ended', endedAt: new Date(), endedBy: input.byUserId !== undefined ? 'agent' : (input.by ?? 'system'), revision: nextRevision })
    .where(and(eq(chatRooms.id, room.id), isNull(chatRooms.endedAt)))
    .returning()
  if (!ended) {
    const [now] = await deps.db.select().from(chatRooms).where(eq(chatRooms.id, room.id))
    return now!
  }
  const users = await roomAudience(deps, ended)
  await publishChatEvent(deps.bus, { type: 'room', site_id: ended.siteId, users, room: await serializeRoom(deps, ended) })
  if (room.state === 'offered' && room.userId !== null) {
    await publishChatEvent(deps.bus, { type: 'withdrawn', site_id: ended.siteId, users: [room.userId], room_id: room.id, reason: 'ended' })
  }
  if (room.userId !== null) await roomReleased(deps, ended)
  return ended
}

/**
 * Ended rooms whose countdown ran out leave their agent's console: finished_at set, 'removed' published. The
 * countdown is the team's chat_timeout_to_remove_inactive of the room's agent (default 15 s). Answers the rooms.
 */
export async function sweepInactiveRooms(deps: AppDeps): Promise<number> {
  const result = (await deps.db.execute(sql`
    update chat_rooms set finished_at = now(), revision = nextval('chat_revision_seq')
    where id in (
      select r.id from chat_rooms r
      left join users u on u.id = r.user_id
      left join teams t on t.id = u.team_id
      where r.ended_at is not null and r.finished_at is null
        and r.ended_at + make_interval(secs => coalesce(t.chat_timeout_to_remove_inactive, ${DEFAULT_REMOVE_INACTIVE_SECONDS})) <= now()
      order by r.id limit 200
      for update of r skip locked)
    returning id, site_id, user_id`)) as unknown as { rows: { id: string | number; site_id: number; user_id: number | null }[] }
  for (const row of result.rows) {
    const room = { id: Number(row.id), siteId: row.site_id, userId: row.user_id }
    await publishChatEvent(deps.bus, { type: 'removed', site_id: room.siteId, users: await roomAudience(deps, room), room_id: room.id })
  }
  return result.rows.length
}

async function setArchived(deps: AppDeps, input: { siteId: number; roomId: number; lang?: Locale }, archived: boolean): Promise<RoomRow> {
  const lang = input.lang ?? 'pt-BR'
  const [room] = await deps.db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.siteId, input.siteId), eq(chatRooms.id, input.roomId)))
  if (!room) throw detailError(404, 'notFound', lang)
  if (!room.endedAt) throw detailError(400, 'chatNotEnded', lang)
  if (room.archived === archived) return room
  const [changed] = await deps.db.update(chatRooms).set({ archived, revision: nextRevision }).where(eq(chatRooms.id, room.id)).returning()
  await publishChatEvent(deps.bus, {
    type: 'room',
    site_id: changed!.siteId,
    users: await roomAudience(deps, changed!),
    room: await serializeRoom(deps, changed!),
  })
  return changed!
}

export async function archiveRoom(deps: AppDeps, input: { siteId: number; roomId: number; lang?: Locale }): Promise<RoomRow> {
  return setArchived(deps, input, true)
}

export async function unarchiveRoom(deps: AppDeps, input: { siteId: number; roomId: number; lang?: Locale }): Promise<RoomRow> {
  return setArchived(deps, input, false)
}
