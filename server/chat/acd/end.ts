import type { AppDeps } from '../../deps.ts'
import { closeRoom } from '../lifecycle.ts'
import type { RoomRow } from './store.ts'

// The ACD ends a room itself when its destination is `close` or a canned message (by 'system'), or when its queue's
// maximum wait is over with action `close` (by 'timeout'): the chat core's closeRoom (it tells the room's audience and
// a ringing agent, and frees the agent's capacity through roomReleased). Answers the ended room (null when it had ended already).

export async function endRoomBySystem(deps: AppDeps, room: RoomRow, by: 'system' | 'timeout' = 'system'): Promise<RoomRow | null> {
  if (room.endedAt) return null
  return closeRoom(deps, { siteId: room.siteId, roomId: room.id, by })
}
