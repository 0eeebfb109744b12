import { and, eq } from 'drizzle-orm'
import { calendarOpen } from '../../acd/calendar-open.ts'
import { chatBots, chatFlows, chatInbounds, chatMessages, chatRooms } from '../../db/schema/index.ts'
import type { AppDeps } from '../../deps.ts'
import { endRoomBySystem } from './end.ts'
import { queueMessage, tell } from './notify.ts'
import type { AcdOptions } from './queue.ts'
import { enqueueRoom, isOutgoing } from './queue.ts'
import { refreshWebchatStatus } from './status.ts'
import type { RoomRow } from './store.ts'
import { findRoom, idOf, updateRoom } from './store.ts'

// Where a new room goes (spec 001: the channel's inbound rule, contract/entities/chat.ts `inbounds`). The chat core
// calls routeNewRoom after it committed a room in state `new`.
//
// - Outgoing rooms (chat types 10, 11, 31) already name their agent: they become active at once, never queued. A
//   WhatsApp campaign's room (type 11, no agent, the campaign's chat queue in queue_id: server/chat/campaigns.ts)
//   waits in `new` for the customer's reply; the reply (routeCampaignReply) puts it in that queue.
// - The channel's active inbound rule: its calendar open (or none) → `destination`, else `closed_destination` (or
//   `destination` when none is set) — the same calendar rule as telephony's inbound routes (server/acd/).
// - Destinations (CHAT_DESTINATIONS): queue → enqueueRoom; message → the canned message sent to the customer, then
//   the room ends; close → the room ends. Flows and bots are not run yet (issue 13 leaves them out): a bot's room takes
//   the bot's fallback destination and a flow's room the flow's timeout destination, as if the bot failed or the
//   customer never chose. nps has no meaning for a new room.
// - Unrouted: a channel without an active inbound rule, or a destination that names nothing usable (a deleted or
//   inactive queue, an unknown app, a loop of more than MAX_HOPS), leaves the room in state `new` with no queue: it
//   keeps its messages and supervisors see it among the site's open rooms, where they can transfer it to a queue or an
//   agent. Nothing is lost and nothing is guessed.

export type RouteResult =
  | { kind: 'queued'; queueId: number }
  | { kind: 'assigned'; userId: number }
  | { kind: 'ended' }
  | { kind: 'unrouted'; reason: 'no-inbound' | 'bad-destination' }
  | { kind: 'skipped' }

const MAX_HOPS = 5

export async function routeNewRoom(deps: AppDeps, roomId: number, options: AcdOptions = {}): Promise<RouteResult> {
  const [room] = await deps.db.select().from(chatRooms).where(eq(chatRooms.id, roomId))
  if (!room || room.state !== 'new') return { kind: 'skipped' }
  if (isOutgoing(room)) {
    if (room.userId === null) return routeCampaignReply(deps, room, options)
    const now = new Date()
    const active = await updateRoom(deps.db, room, ['new'], { state: 'active', offeredAt: now, answeredAt: now })
    if (!active) return { kind: 'skipped' }
    await tell(deps, [{ kind: 'room', room: active }])
    await refreshWebchatStatus(deps, room.siteId, room.userId)
    return { kind: 'assigned', userId: room.userId }
  }
  const [inbound] = await deps.db
    .select()
    .from(chatInbounds)
    .where(and(eq(chatInbounds.siteId, room.siteId), eq(chatInbounds.channelId, room.channelId), eq(chatInbounds.isActive, true)))
  if (!inbound) return { kind: 'unrouted', reason: 'no-inbound' }
  const open = inbound.calendarId === null ? true : await calendarOpen(deps.db, room.siteId, inbound.calendarId, new Date())
  const useClosed = !open && inbound.closedDestinationApp !== ''
  const app = useClosed ? inbound.closedDestinationApp : inbound.destinationApp
  const appdata = useClosed ? inbound.closedDestinationAppdata : inbound.destinationAppdata
  const routed = (await updateRoom(deps.db, room, ['new'], { inboundId: inbound.id })) ?? room
  return toDestination(deps, routed, app, appdata, 0, options)
}

/** A campaign's room the customer answered: into the campaign's chat queue, once (only from `new`). */
export async function routeCampaignReply(deps: AppDeps, room: RoomRow, options: AcdOptions = {}): Promise<RouteResult> {
  if (room.state !== 'new' || room.userId !== null || !isOutgoing(room) || room.queueId === null) return { kind: 'skipped' }
  const queued = await enqueueRoom(deps, { siteId: room.siteId, roomId: room.id, queueId: room.queueId, from: ['new'] }, options)
  return queued ? { kind: 'queued', queueId: room.queueId } : { kind: 'unrouted', reason: 'bad-destination' }
}

/** Sends a room to a chat destination (an inbound rule, a queue's overflow). */
export async function toDestination(deps: AppDeps, room: RoomRow, app: string, appdata: string, hops: number, options: AcdOptions = {}): Promise<RouteResult> {
  if (hops > MAX_HOPS) return { kind: 'unrouted', reason: 'bad-destination' }
  const id = idOf(appdata)
  switch (app) {
    case 'queue': {
      if (id === null) return { kind: 'unrouted', reason: 'bad-destination' }
      const queued = await enqueueRoom(deps, { siteId: room.siteId, roomId: room.id, queueId: id }, options)
      return queued ? { kind: 'queued', queueId: id } : { kind: 'unrouted', reason: 'bad-destination' }
    }
    case 'message': {
      const [canned] =
        id === null
          ? []
          : await deps.db
              .select()
              .from(chatMessages)
              .where(and(eq(chatMessages.siteId, room.siteId), eq(chatMessages.id, id), eq(chatMessages.isActive, true)))
      if (!canned) return { kind: 'unrouted', reason: 'bad-destination' }
      await queueMessage(deps, room, { content: canned.content, visible: true })
      await endRoomBySystem(deps, (await findRoom(deps.db, room.siteId, room.id)) ?? room)
      return { kind: 'ended' }
    }
    case 'close':
      await endRoomBySystem(deps, room)
      return { kind: 'ended' }
    case 'bot': {
      const [bot] =
        id === null
          ? []
          : await deps.db
              .select()
              .from(chatBots)
              .where(and(eq(chatBots.siteId, room.siteId), eq(chatBots.id, id)))
      if (!bot) return { kind: 'unrouted', reason: 'bad-destination' }
      return toDestination(deps, room, bot.fallbackApp, bot.fallbackAppdata, hops + 1, options)
    }
    case 'flow': {
      const [flow] =
        id === null
          ? []
          : await deps.db
              .select()
              .from(chatFlows)
              .where(and(eq(chatFlows.siteId, room.siteId), eq(chatFlows.id, id)))
      if (!flow) return { kind: 'unrouted', reason: 'bad-destination' }
      return toDestination(deps, room, flow.timeoutDestinationApp, flow.timeoutDestinationAppdata, hops + 1, options)
    }
    default:
      return { kind: 'unrouted', reason: 'bad-destination' }
  }
}
