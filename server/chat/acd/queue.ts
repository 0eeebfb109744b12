import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { OUTGOING_CHAT_TYPES } from '../../../contract/api/chat.ts'
import { message } from '../../../contract/messages.ts'
import { onChatAvailability } from '../../agent/chat-availability.ts'
import type { Random } from '../../acd/strategies.ts'
import { chooseMembers } from '../../acd/strategies.ts'
import { chatQueues, chatRooms, users } from '../../db/schema/index.ts'
import type { AppDeps } from '../../deps.ts'
import { answeredToday, candidateOf, loadAgents, loadQueueMembers, mayTakeIncoming, queueMemory, servesChannel } from './agents.ts'
import type { RoomNotice } from './notify.ts'
import { hasMessage, queueMessage, tell } from './notify.ts'
import { queuePositions } from './positions.ts'
import type { QueuePlace } from './positions.ts'
import { refreshWebchatStatus } from './status.ts'
import type { AcdResult, DbOrTx, QueueRow, RoomRow, Tx } from './store.ts'
import { findQueue, findRoom, refuse, updateRoom, withAcdLock } from './store.ts'

// The chat queues (spec 001 §4 "Chat lifecycle"; issue 13 item 4). A room waits in its queue (state `queued`) until
// the queue offers it to one agent (`offered`, ChatEvent 'offer' with the queue's ring_time), who answers it (`active`)
// or declines it / lets it ring out (back to `queued`, the agent added to declined_user_ids, the next agent offered).
// A team with enable_webchat_auto_answer skips the ring: the room becomes `active` at once (ChatEvent 'room').
//
// - Order: heavier queues first (weight), then the oldest room first (queued_at) — every waiting room of the site is
//   considered in that order in one pass, so an agent freed takes the oldest room they can serve.
// - Agent choice: the queue's strategy (server/acd/strategies.ts, shared with telephony) over the members who may take
//   the room now (agents.ts); ring all offers to the first free member of the lowest penalty (a room rings one agent).
//   What a strategy remembers comes from the rooms: longest idle = the agent given a room longest ago; fewest calls =
//   rooms answered in the queue in 24 h; round robin = the agent the queue offered its newest room to.
// - When every member who could take the room has already declined it, the round starts over once ring_time has
//   passed since the last offer (a lone agent who lets it ring is offered it again, not never).
// - Every pass runs under the site's ACD lock (store.ts): two server instances never offer one room twice nor give an
//   agent more rooms than the team's limit.

export type AcdOptions = { random?: Random }

export { mayStartOutgoingChat } from './outgoing.ts'
export { averageWait, EWT_SAMPLE, queuePositions, type QueuePlace } from './positions.ts'

// The agent service tells the ACD when an agent signs in to chat or a pause starts or ends.
// Signing out of chat takes back the offers ringing for the agent (a pause lets them ring out: the agent may still
// answer what rang before the pause).
onChatAvailability(async (deps, who) => {
  const agent = (await loadAgents(deps.db, who.siteId, [who.userId])).get(who.userId)
  if (agent && !agent.loggedIn) {
    const ringing = await deps.db
      .select({ id: chatRooms.id })
      .from(chatRooms)
      .where(and(eq(chatRooms.siteId, who.siteId), eq(chatRooms.userId, who.userId), eq(chatRooms.state, 'offered')))
    for (const { id } of ringing) {
      const room = await withdrawOffer(deps.db, who.siteId, id, who.userId)
      if (room) await tell(deps, [{ kind: 'withdrawn', room, userId: who.userId, reason: 'no_answer' }])
    }
  }
  await refreshWebchatStatus(deps, who.siteId, who.userId)
  await offerWaiting(deps, who.siteId)
})

/** Puts a room in a queue (a new room, a transfer to a queue, an overflow) and offers the site's waiting rooms. */
export async function enqueueRoom(
  deps: AppDeps,
  input: {
    siteId: number
    roomId: number
    queueId: number
    /** Only from these states (a campaign's reply: `new` only, so two replies queue it once). */ from?: readonly string[]
  },
  options: AcdOptions = {},
): Promise<RoomRow | null> {
  const queued = await requeue(deps.db, input.siteId, input.roomId, input.queueId, [], input.from)
  if (!queued) return null
  await tell(deps, [{ kind: 'room', room: queued.room }])
  await announceEntry(deps, queued.room, queued.queue)
  await offerWaiting(deps, input.siteId, options)
  return (await findRoom(deps.db, input.siteId, input.roomId)) ?? queued.room
}

async function requeue(
  db: DbOrTx,
  siteId: number,
  roomId: number,
  queueId: number,
  declined: number[],
  from: readonly string[] = ['new', 'queued', 'offered', 'active'],
): Promise<{ room: RoomRow; queue: QueueRow } | null> {
  const queue = await findQueue(db, siteId, queueId)
  if (!queue) return null
  const room = await updateRoom(db, { id: roomId, siteId }, from, {
    state: 'queued',
    queueId,
    queuedAt: new Date(),
    userId: null,
    offeredAt: null,
    declinedUserIds: declined,
  })
  return room ? { room, queue } : null
}

/**
 * Offers the site's waiting rooms to the agents free to take them. Called when a room enters a queue, an agent becomes
 * available (chat login, pause end, a room released) and by the sweep every second.
 */
export async function offerWaiting(deps: AppDeps, siteId: number, options: AcdOptions = {}): Promise<void> {
  const notices = await withAcdLock(deps.db, siteId, (tx) => offerPass(tx, siteId, new Date(), options.random ?? Math.random))
  await tell(deps, notices)
  const agents = new Set(notices.map((n) => (n.kind === 'offer' ? n.userId : n.kind === 'room' ? (n.room.userId ?? 0) : 0)).filter((id) => id > 0))
  for (const userId of agents) await refreshWebchatStatus(deps, siteId, userId)
}

async function offerPass(tx: Tx, siteId: number, now: Date, random: Random): Promise<RoomNotice[]> {
  const waiting = await tx
    .select({ room: chatRooms, queue: chatQueues })
    .from(chatRooms)
    .innerJoin(chatQueues, eq(chatQueues.id, chatRooms.queueId))
    .where(and(eq(chatRooms.siteId, siteId), eq(chatRooms.state, 'queued'), eq(chatQueues.isActive, true)))
    .orderBy(desc(chatQueues.weight), asc(chatRooms.queuedAt), asc(chatRooms.id))
  if (waiting.length === 0) return []
  const queueIds = [...new Set(waiting.map((w) => w.queue.id))]
  const members = await loadQueueMembers(tx, siteId, queueIds)
  const agents = await loadAgents(
    tx,
    siteId,
    [...members.values()].flat().map((m) => m.userId),
  )
  if (![...agents.values()].some((agent) => mayTakeIncoming(agent))) return []
  const memories = new Map<number, { lastOfferedUserId: number | null }>()
  const answered = new Map<number, Map<number, number>>()
  const notices: RoomNotice[] = []
  for (const { room, queue } of waiting) {
    const list = members.get(queue.id) ?? []
    const able = list.filter((m) => {
      const agent = agents.get(m.userId)
      return mayTakeIncoming(agent) && servesChannel(agent, room.channelId)
    })
    if (able.length === 0) continue
    let declined = room.declinedUserIds
    let fresh = able.filter((m) => !declined.includes(m.userId))
    if (fresh.length === 0) {
      const lastOffer = room.offeredAt ?? room.queuedAt ?? now
      if (now.getTime() - lastOffer.getTime() < queue.ringTime * 1000) continue
      declined = []
      fresh = able
    }
    if (!memories.has(queue.id)) memories.set(queue.id, await queueMemory(tx, siteId, queue.id))
    if (!answered.has(queue.id)) answered.set(queue.id, await answeredToday(tx, siteId, queue.id, now))
    const counts = answered.get(queue.id)!
    const everyone = list.map((m) => candidateOf(m, agents.get(m.userId), counts))
    const candidates = fresh.map((m) => candidateOf(m, agents.get(m.userId), counts))
    const chosen = chooseMembers(queue.strategy, candidates, memories.get(queue.id)!, random, everyone)[0]
    if (!chosen) continue
    const agent = agents.get(chosen.userId)!
    const updated = await updateRoom(tx, room, ['queued'], {
      state: agent.autoAnswer ? 'active' : 'offered',
      userId: agent.userId,
      offeredAt: now,
      answeredAt: agent.autoAnswer ? now : null,
      declinedUserIds: declined,
    })
    if (!updated) continue
    agent.holding++
    agent.lastAssignedAt = now
    memories.set(queue.id, { lastOfferedUserId: agent.userId })
    notices.push(agent.autoAnswer ? { kind: 'room', room: updated } : { kind: 'offer', room: updated, userId: agent.userId, ringSeconds: queue.ringTime })
  }
  return notices
}

/** The offered agent answers: the room becomes theirs. Anyone else, or an offer gone, is refused (409). */
export async function answerOffer(deps: AppDeps, input: { siteId: number; userId: number; roomId: number }): Promise<AcdResult> {
  const room = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(chatRooms)
      .where(and(eq(chatRooms.id, input.roomId), eq(chatRooms.siteId, input.siteId)))
      .for('update')
    if (!row || row.userId !== input.userId) return null
    if (row.state === 'active') return row
    if (row.state !== 'offered') return null
    return updateRoom(tx, row, ['offered'], { state: 'active', answeredAt: new Date() })
  })
  if (!room) return refuse(409, 'chatAnswerFailed')
  await tell(deps, [{ kind: 'room', room }])
  return { ok: true, room }
}

/** The offered agent declines (hangs up the ring): the room goes back to its queue and the next agent is offered it. */
export async function declineOffer(deps: AppDeps, input: { siteId: number; userId: number; roomId: number }): Promise<AcdResult> {
  const room = await withdrawOffer(deps.db, input.siteId, input.roomId, input.userId)
  if (!room) return refuse(409, 'chatAnswerFailed')
  await tell(deps, [{ kind: 'withdrawn', room, userId: input.userId, reason: 'no_answer' }])
  await refreshWebchatStatus(deps, input.siteId, input.userId)
  await offerWaiting(deps, input.siteId)
  return { ok: true, room }
}

/** Takes an offer back from the agent (declined or rung out): queued again, the agent remembered as having declined. */
export async function withdrawOffer(db: DbOrTx, siteId: number, roomId: number, userId: number): Promise<RoomRow | null> {
  const [row] = await db
    .update(chatRooms)
    .set({
      state: 'queued',
      userId: null,
      declinedUserIds: sql`case when ${chatRooms.declinedUserIds} @> ${JSON.stringify([userId])}::jsonb then ${chatRooms.declinedUserIds} else ${chatRooms.declinedUserIds} || ${JSON.stringify([userId])}::jsonb end`,
      revision: sql`nextval('chat_revision_seq')`,
    })
    .where(and(eq(chatRooms.id, roomId), eq(chatRooms.siteId, siteId), eq(chatRooms.state, 'offered'), eq(chatRooms.userId, userId)))
    .returning()
  return row ?? null
}

/**
 * A room the agent held ended (closed, finished): their capacity is free, so the queue may offer the next room.
 * Takes (siteId, userId) or the ended room itself.
 */
export async function roomReleased(deps: AppDeps, room: { siteId: number; userId: number | null }): Promise<void>
export async function roomReleased(deps: AppDeps, siteId: number, userId: number | null): Promise<void>
export async function roomReleased(deps: AppDeps, site: number | { siteId: number; userId: number | null }, user?: number | null): Promise<void> {
  const siteId = typeof site === 'number' ? site : site.siteId
  const userId = typeof site === 'number' ? (user ?? null) : site.userId
  if (userId !== null) await refreshWebchatStatus(deps, siteId, userId)
  await offerWaiting(deps, siteId)
}

export type TransferInput = {
  siteId: number
  byUserId: number
  /** The caller may transfer any room of the site (the REST route decides it from the caller's roles). */
  supervisor: boolean
  roomId: number
  to: { user_id: number } | { queue_id: number }
}

/**
 * POST /v1/chat/transfer/{id}/. To an agent: the room is theirs at once (state active, like Chatwoot's assignment —
 * the agent is signed in to chat, so no ring), whatever their capacity (a transfer is a person's decision). To a queue:
 * back to waiting there, the previous agent remembered as having declined it so another agent is offered it first.
 * The previous agent's console drops it ('removed', or 'withdrawn' when it was only ringing for them); a system note
 * not visible to the customer records the transfer. Only the room's agent or a supervisor may transfer; an ended room
 * cannot be.
 */
export async function transferRoom(deps: AppDeps, input: TransferInput): Promise<AcdResult> {
  const { siteId } = input
  const room = await findRoom(deps.db, siteId, input.roomId)
  if (!room) return refuse(404, 'notFound')
  if (!input.supervisor && room.userId !== input.byUserId) return refuse(403, 'permissionDenied')
  if (room.state === 'ended' || room.archived) return refuse(400, 'chatTransferFailed')
  const previous = room.userId
  const wasOffered = room.state === 'offered'
  let moved: RoomRow | null
  let note: string
  if ('user_id' in input.to) {
    const target = input.to.user_id
    if (target === previous && room.state === 'active') return refuse(400, 'chatTransferFailed')
    const agent = (await loadAgents(deps.db, siteId, [target])).get(target)
    if (!agent || !agent.active) return refuse(400, 'chatTransferFailed')
    if (!agent.loggedIn) return refuse(400, 'chatTransferUnavailable')
    const [user] = await deps.db.select().from(users).where(eq(users.id, target))
    note = message('chatTransferredToAgent', undefined, { name: `${user!.firstName} ${user!.lastName}`.trim() || user!.username })
    moved = await withAcdLock(deps.db, siteId, async (tx) => {
      const now = new Date()
      return updateRoom(tx, room, ['new', 'queued', 'offered', 'active'], {
        state: 'active',
        userId: target,
        offeredAt: room.offeredAt ?? now,
        answeredAt: room.answeredAt ?? now,
        declinedUserIds: [],
      })
    })
  } else {
    const queueId = input.to.queue_id
    const queue = await findQueue(deps.db, siteId, queueId)
    if (!queue) return refuse(400, 'chatTransferFailed')
    note = message('chatTransferredToQueue', undefined, { queue: queue.description })
    moved = (await requeue(deps.db, siteId, room.id, queueId, previous === null ? [] : [previous]))?.room ?? null
  }
  if (!moved) return refuse(400, 'chatTransferFailed')
  await queueMessage(deps, moved, { content: note, visible: false })
  moved = (await findRoom(deps.db, siteId, moved.id)) ?? moved
  const notices: RoomNotice[] = []
  if (previous !== null && previous !== moved.userId) {
    notices.push(wasOffered ? { kind: 'withdrawn', room: moved, userId: previous, reason: 'transferred' } : { kind: 'removed', room: moved, userId: previous })
  }
  notices.push({ kind: 'room', room: moved })
  await tell(deps, notices)
  if (previous !== null) await refreshWebchatStatus(deps, siteId, previous)
  if (moved.userId !== null && moved.userId !== previous) await refreshWebchatStatus(deps, siteId, moved.userId)
  await offerWaiting(deps, siteId)
  return { ok: true, room: (await findRoom(deps.db, siteId, moved.id)) ?? moved }
}

/** Whether the agent may be offered one more incoming room now (signed in to chat, pause, capacity). */
export async function agentMayTakeChats(deps: AppDeps, siteId: number, userId: number): Promise<boolean> {
  return mayTakeIncoming((await loadAgents(deps.db, siteId, [userId])).get(userId))
}

/** Whether a room is an outgoing one (assigned to its agent directly, never queued). */
export function isOutgoing(room: Pick<RoomRow, 'chatType'>): boolean {
  return OUTGOING_CHAT_TYPES.includes(room.chatType)
}

// ---------------------------------------------------------------------------------------------------------------------
// Announcements (the queue's `announcement`: on entry, or periodic every announcement_frequency seconds after entry).

/** The announcement text with {position} and {wait_time} filled (wait in whole minutes, at least 1; '-' unknown). */
export function announcementText(queue: QueueRow, place: QueuePlace | undefined): string {
  const wait = place?.estimated_wait
  return queue.announcementMessage
    .replaceAll('{position}', place ? String(place.position) : '-')
    .replaceAll('{wait_time}', wait === null || wait === undefined ? '-' : `${Math.max(1, Math.round(wait / 60))} min`)
}

const epochSeconds = (d: Date) => Math.floor(d.getTime() / 1000)

/** Once-only uids of the ACD's messages in a room's stay in a queue (the unique (site, uid) index makes them once). */
export const acdUid = {
  entry: (room: RoomRow) => `acde-${room.id}-${epochSeconds(room.queuedAt!)}`,
  periodic: (room: RoomRow, n: number) => `acdp-${room.id}-${epochSeconds(room.queuedAt!)}-${n}`,
  expired: (room: RoomRow) => `acdx-${room.id}-${epochSeconds(room.queuedAt!)}`,
}

async function announceEntry(deps: AppDeps, room: RoomRow, queue: QueueRow): Promise<void> {
  if (queue.announcement !== 'entry' || !queue.announcementMessage.trim()) return
  const place = (await queuePositions(deps, room.siteId, queue.id)).get(room.id)
  await queueMessage(deps, room, { uid: acdUid.entry(room), content: announcementText(queue, place), visible: true })
}

/** Periodic announcements due now (the sweep): the n-th one once n × frequency seconds have passed in the queue. */
export async function announcePeriodic(deps: AppDeps, now: Date): Promise<number> {
  const rows = await deps.db
    .select({ room: chatRooms, queue: chatQueues })
    .from(chatRooms)
    .innerJoin(chatQueues, eq(chatQueues.id, chatRooms.queueId))
    .where(
      and(
        eq(chatRooms.state, 'queued'),
        eq(chatQueues.announcement, 'periodic'),
        sql`${chatQueues.announcementMessage} <> ''`,
        sql`${chatRooms.queuedAt} <= ${now}::timestamptz - make_interval(secs => ${chatQueues.announcementFrequency})`,
      ),
    )
  let sent = 0
  const places = new Map<number, Map<number, QueuePlace>>()
  for (const { room, queue } of rows) {
    const n = Math.floor((now.getTime() - room.queuedAt!.getTime()) / (queue.announcementFrequency * 1000))
    if (n < 1) continue
    const uid = acdUid.periodic(room, n)
    if (await hasMessage(deps.db, room.siteId, uid)) continue
    if (!places.has(queue.id)) places.set(queue.id, await queuePositions(deps, room.siteId, queue.id))
    if (await queueMessage(deps, room, { uid, content: announcementText(queue, places.get(queue.id)!.get(room.id)), visible: true })) sent++
  }
  return sent
}
