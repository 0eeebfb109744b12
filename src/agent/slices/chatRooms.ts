import { fromPromise, sendParent, sendTo } from 'xstate'
import type { AnyActorRef, SnapshotFrom } from 'xstate'
import type { ChatRoom } from '../../../contract/api/chat.ts'
import { chatRoomMachine } from '../../../machines/chatRoom.machine.ts'
import type { ChatPause, ChatRoomEvent, ChatRoomInput, RoomFrame, RoomRemoved } from '../../../machines/chatRoom.machine.ts'
import { chatRoomsMachine } from '../../../machines/chatRooms.machine.ts'
import type { ChatRoomsEvent } from '../../../machines/chatRooms.machine.ts'
import type { ChatServerFrame } from '../../../machines/chatSocket.machine.ts'
import type { pauseMachine } from '../../../machines/pause.machine.ts'
import { defineSlice } from '../slice.ts'
import type { ChatOptions } from '../types.ts'

// The agent's chat rooms (spec 001 §4 "Chat lifecycle in the console"): the room actors' effects (the chat socket,
// the rings, the desktop notification, the live data) and how a chat-socket frame turns into their events.

/** sync_step goes on the service socket (contract/realtime/service-socket.ts); every other room frame on the chat socket. */
const socketFor = ({ system }: { system: AnyActorRef['system'] }, frame: RoomFrame) => system.get(frame.action === 'sync_step' ? 'serviceSocket' : 'chatSocket')

/** A room as its actor starts: the agent, the team's chat settings, the running pause, the other open rooms. */
export function roomSeed(room: ChatRoom, all: readonly ChatRoom[], userId: number, chat: ChatOptions, pause: ChatPause | null): ChatRoomInput {
  const open = all.filter((other) => other.id !== room.id && other.user?.id === userId && !other.end && other.status !== 'ended')
  const mine = room.user?.id === userId
  return {
    stepId: room.id,
    chatType: room.chat_type,
    assignedToMe: mine,
    answered: mine && room.status === 'active',
    ended: !!room.end || room.status === 'ended',
    autoAnswer: !!chat.team?.enable_webchat_auto_answer,
    removeAfterSeconds: chat.team?.chat_timeout_to_remove_inactive ?? null,
    pause,
    openChats: open.length,
    chatLimit: chat.team?.chat_limit_per_user ?? null,
    queueable: ['new', 'queued', 'offered'].includes(room.status),
  }
}

/** The running pause's chat flags, when it enables the webchat. */
export function chatPause(snapshot: SnapshotFrom<typeof pauseMachine> | undefined): ChatPause | null {
  const current = snapshot?.context?.current
  if (!current || !current.enableWebchat) return null
  return { allowIncoming: current.allowIncomingChat, allowOutgoing: current.allowOutgoingChat }
}

const stepOf = (frame: ChatServerFrame): number | null => {
  for (const key of ['step_id', 'step']) if (typeof frame[key] === 'number') return frame[key] as number
  for (const key of ['room', 'chat', 'data']) {
    const row = frame[key] as Record<string, unknown> | undefined
    if (row && typeof row === 'object' && typeof row.id === 'number') return row.id
  }
  return null
}

/**
 * What one frame means to the room actors, given the rooms the live data now holds (contract/realtime/chat-socket.ts):
 * rooms listed or changed are seen (new ones get an actor); a changed room that became the agent's is ANSWERED, one that
 * ended ENDED; an offer that rang out, or a room taken away, is DROPPED; a refused answer is ANSWER_FAILED.
 */
export function chatFrameEvents(frame: ChatServerFrame, rooms: readonly ChatRoom[], seed: (room: ChatRoom) => ChatRoomInput, userId: number): ChatRoomsEvent[] {
  const events: ChatRoomsEvent[] = []
  const room = (stepId: number | null, event: ChatRoomEvent) => {
    if (stepId !== null) events.push({ type: 'ROOM', stepId, event })
  }
  switch (frame.action) {
    case 'chats':
    case 'chat':
    case 'syncMessages': {
      events.push({ type: 'ROOMS_SEEN', rooms: rooms.map(seed) })
      const changed = frame.action === 'chats' ? rooms : frame.action === 'chat' ? rooms.filter((row) => row.id === stepOf(frame)) : rooms
      for (const row of changed) {
        if (row.end || row.status === 'ended') room(row.id, { type: 'ENDED' })
        else if (row.user?.id === userId && row.status === 'active') room(row.id, { type: 'ANSWERED' })
      }
      break
    }
    case 'end':
      room(stepOf(frame), { type: 'ENDED' })
      break
    case 'noAnswer':
      room(stepOf(frame), { type: 'DROPPED' })
      break
    case 'removeChat':
      room(stepOf(frame), { type: frame.reason === 'taken' ? 'ANSWER_FAILED' : 'DROPPED' })
      break
    case 'error':
      if (frame.request === 'answer') room(stepOf(frame), { type: 'ANSWER_FAILED' })
      break
    case 'message': {
      room(stepOf(frame), { type: 'MESSAGES_CHANGED' })
      const message = frame.message as { sent_by?: unknown } | undefined
      if (message?.sent_by === 'client') room(stepOf(frame), { type: 'CLIENT_MESSAGE' })
      break
    }
    case 'messages':
    case 'messageStatus':
      room(stepOf(frame), { type: 'MESSAGES_CHANGED' })
      break
    case 'typing':
      // The customer types in the widget (the server sends the agent's own typing only to the visitor and watchers).
      if (frame.from === 'client') room(stepOf(frame), { type: 'CLIENT_TYPING' })
      break
  }
  return events
}

export const chatRoomsSlice = defineSlice('chatRooms', ({ options, effects, actor }) => {
  const chat = effects.chat
  const room = chatRoomMachine.provide({
    actions: {
      sendSocket: sendTo(socketFor, (_, message: RoomFrame) => ({ type: 'SEND' as const, message })),
      startRing: ({ context }) => chat?.startRing(context.stepId),
      stopRing: ({ context }) => chat?.stopRing(context.stepId),
      showNotification: (_, notification) => {
        const title = chat?.rooms().find((row) => row.id === notification.stepId)?.title ?? ''
        chat?.showNewChat(notification.stepId, title)
      },
      closeNotification: (_, { stepId }) => chat?.closeNewChat(stepId),
      ringInactivity: (_, { stepId, secondsLeft }) => chat?.ringInactivity(stepId, secondsLeft),
      notify: (_, notice) => effects.notify(notice),
      retryUnread: (_, { stepId }) => chat?.retryUnread(stepId),
      showTyping: (_, { stepId, typing }) => chat?.showTyping(stepId, typing),
      removed: sendParent((_, removed: RoomRemoved) => {
        chat?.removeRoom(removed.stepId)
        return { type: 'ROOM_REMOVED' as const, ...removed }
      }),
    },
    actors: {
      saveForm: fromPromise<unknown, { stepId: number }>(({ input }) => chat?.saveRoomForm?.(input.stepId) ?? Promise.resolve(null)),
      closeChat: fromPromise<unknown, { stepId: number; force: boolean }>(
        ({ input }) => chat?.closeRoom?.(input.stepId, input.force) ?? Promise.reject(new Error('Ocorreu um erro')),
      ),
    },
  })
  return {
    logic: chatRoomsMachine.provide({ actors: { chatRoom: room } }),
  }
})

/** Routes one known chat-socket frame: the live data first, then the room actors. */
export function routeChatFrame(
  frame: ChatServerFrame,
  context: { userId: number; chat: ChatOptions | null | undefined; effects: { receive(frame: unknown): void; rooms(): ChatRoom[] } | undefined },
  actor: (name: string) => Pick<AnyActorRef, 'send' | 'getSnapshot'>,
): void {
  const { chat, effects, userId } = context
  if (!chat || !effects) return
  effects.receive(frame)
  const rooms = effects.rooms()
  const pause = chatPause(actor('pause').getSnapshot() as SnapshotFrom<typeof pauseMachine> | undefined)
  for (const event of chatFrameEvents(frame, rooms, (row) => roomSeed(row, rooms, userId, chat, pause), userId)) actor('chatRooms').send(event)
  const openChats = rooms.filter((row) => row.user?.id === userId && !row.end && row.status !== 'ended').length
  actor('webchatStatus').send({ type: 'CHATS_CHANGED', openChats })
}
