import type { AppDeps } from '../../deps.ts'
import type { RoomNotice } from './notify.ts'
import { tell } from './notify.ts'
import { roomReleased } from './queue.ts'
import type { RoomRow } from './store.ts'
import { updateRoom } from './store.ts'

// The ACD ends a room itself when its destination is `close` or a canned message, or when its queue's maximum wait
// is over with action `close`. TEMPORARY minimal version until the chat core's lifecycle.closeRoom is merged (which
// also starts the removal countdown): state ended, ended_by 'system', the agent it rang for told, capacity freed.

export async function endRoomBySystem(deps: AppDeps, room: RoomRow): Promise<RoomRow | null> {
  const ended = await updateRoom(deps.db, room, ['new', 'queued', 'offered', 'active'], { state: 'ended', endedAt: new Date(), endedBy: 'system' })
  if (!ended) return null
  const notices: RoomNotice[] = []
  if (room.userId !== null) {
    notices.push(
      room.state === 'offered' ? { kind: 'withdrawn', room: ended, userId: room.userId, reason: 'ended' } : { kind: 'room', room: ended, users: [room.userId] },
    )
  }
  await tell(deps, notices)
  if (room.userId !== null) await roomReleased(deps, room.siteId, room.userId)
  return ended
}
