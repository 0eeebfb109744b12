import { setup, enqueueActions, sendTo } from 'xstate'
import { chatRoomMachine, shouldAddRoom } from './chatRoom.machine.ts'
import type { ChatRoomEvent, ChatRoomInput } from './chatRoom.machine.ts'

// Chat rooms — the agent's rooms, one chatRoom actor each (spec 001 §4 "Chat lifecycle in the console"): a room the
// chat socket lists for the first time is spawned (`room-<stepId>`), decided by the room actor itself (hung up, auto
// answered, ringing, ...); a room that removed itself is stopped, and recorded as finished when it had been answered:
// a finished room is never added again, whatever the socket lists later. Room data stays in the views' live store;
// this actor holds ids only.

export type ChatRoomsContext = { active: number[]; finished: number[] }

export type ChatRoomsEvent =
  | { type: 'ROOMS_SEEN'; rooms: ChatRoomInput[] }
  | { type: 'ROOM'; stepId: number; event: ChatRoomEvent }
  | { type: 'ROOM_REMOVED'; stepId: number; answered: boolean }
  | { type: 'CLEAR' } // signing out of the chat channel: every room goes

export const roomActorId = (stepId: number) => `room-${stepId}`

export const chatRoomsMachine = setup({
  types: {
    context: {} as ChatRoomsContext,
    events: {} as ChatRoomsEvent,
  },
  actors: { chatRoom: chatRoomMachine },
}).createMachine({
  id: 'chatRooms',
  context: { active: [], finished: [] },
  on: {
    ROOMS_SEEN: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const finished = new Set(context.finished)
        const added: number[] = []
        for (const room of event.rooms) {
          if (!shouldAddRoom(finished, room.stepId) || context.active.includes(room.stepId) || added.includes(room.stepId)) continue
          added.push(room.stepId)
          enqueue.spawnChild('chatRoom', { id: roomActorId(room.stepId), input: room })
        }
        if (added.length) enqueue.assign({ active: [...context.active, ...added] })
      }),
    },
    ROOM: {
      guard: ({ context, event }) => context.active.includes(event.stepId),
      actions: sendTo(
        ({ event }) => roomActorId(event.stepId),
        ({ event }) => event.event,
      ),
    },
    ROOM_REMOVED: {
      guard: ({ context, event }) => context.active.includes(event.stepId),
      actions: enqueueActions(({ context, event, enqueue }) => {
        enqueue.stopChild(roomActorId(event.stepId))
        enqueue.assign({
          active: context.active.filter((id) => id !== event.stepId),
          finished: event.answered && !context.finished.includes(event.stepId) ? [...context.finished, event.stepId] : context.finished,
        })
      }),
    },
    CLEAR: {
      actions: enqueueActions(({ context, enqueue }) => {
        for (const id of context.active) enqueue.stopChild(roomActorId(id))
        enqueue.assign({ active: [] })
      }),
    },
  },
  initial: 'running',
  states: { running: {} },
})
