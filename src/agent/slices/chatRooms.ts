import { sendParent, sendTo } from 'xstate'
import type { AnyActorRef, SnapshotFrom } from 'xstate'
import type { ChatRoom } from '../../../contract/api/chat.ts'
import { chatRoomMachine } from '../../../machines/chatRoom.machine.ts'
import type { ChatPause, ChatRoomEvent, ChatRoomInput, RoomRemoved } from '../../../machines/chatRoom.machine.ts'
import { chatRoomsMachine } from '../../../machines/chatRooms.machine.ts'
import type { ChatRoomsEvent } from '../../../machines/chatRooms.machine.ts'
import type { ChatClientFrame, ChatServerFrame } from '../../../machines/chatSocket.machine.ts'
import type { pauseMachine } from '../../../machines/pause.machine.ts'
import { defineSlice } from '../slice.ts'
import type { ChatOptions } from '../types.ts'

// The agent's chat rooms (spec 001 §4 "Chat lifecycle in the console"): the room actors' effects (the chat socket,
// the rings, the desktop notification, the live data) and how a chat-socket frame turns into their events.

const chatSocketRef = ({ system }: { system: AnyActorRef['system'] }) => system.get('chatSocket')

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
    queueable: room.status !== 'new' || !!room.queue,
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
  const data = frame.data as Record<string, unknown> | undefined
  if (data && typeof data === 'object') for (const key of ['step', 'step_id', 'id']) if (typeof data[key] === 'number') return data[key] as number
  return null
}

/** What one frame means to the room actors, given the rooms the live data now holds. */
export function chatFrameEvents(frame: ChatServerFrame, rooms: readonly ChatRoom[], seed: (room: ChatRoom) => ChatRoomInput, userId: number): ChatRoomsEvent[] {
  const events: ChatRoomsEvent[] = []
  const room = (stepId: number | null, event: ChatRoomEvent) => {
    if (stepId !== null) events.push({ type: 'ROOM', stepId, event })
  }
  if (frame.action === 'chats' || frame.action === 'chat') {
    events.push({ type: 'ROOMS_SEEN', rooms: rooms.map(seed) })
    if (frame.action === 'chat') {
      const changed = rooms.find((row) => row.id === stepOf(frame) || row.id === (frame.chat as { id?: number } | undefined)?.id)
      if (changed?.end || changed?.status === 'ended') room(changed.id, { type: 'ENDED' })
      else if (changed && changed.user?.id === userId && changed.status === 'active') room(changed.id, { type: 'ANSWERED' })
      else if (changed && changed.user && changed.user.id !== userId && changed.status === 'active') room(changed.id, { type: 'ANSWER_FAILED' })
    }
  } else if (frame.action === 'end') room(stepOf(frame), { type: 'ENDED' })
  else if (frame.action === 'noAnswer') room(stepOf(frame), { type: 'ANSWER_FAILED' })
  else if (['message', 'messages', 'syncMessages', 'messageStatus'].includes(frame.action)) {
    const stepId = stepOf(frame)
    if (stepId !== null) room(stepId, { type: 'MESSAGES_CHANGED' })
  }
  return events
}

export const chatRoomsSlice = defineSlice('chatRooms', ({ options, effects, actor }) => {
  const chat = effects.chat
  const room = chatRoomMachine.provide({
    actions: {
      sendSocket: sendTo(chatSocketRef, (_, message: ChatClientFrame) => ({ type: 'SEND' as const, message })),
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
      removed: sendParent((_, removed: RoomRemoved) => {
        chat?.removeRoom(removed.stepId)
        return { type: 'ROOM_REMOVED' as const, ...removed }
      }),
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
