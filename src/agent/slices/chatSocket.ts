import { enqueueActions, fromCallback } from 'xstate'
import { chatSocketMachine } from '../../../machines/chatSocket.machine.ts'
import type { ChatServerFrame, ChatTransportCommand } from '../../../machines/chatSocket.machine.ts'
import type { tabOwnershipMachine } from '../../../machines/tabOwnership.machine.ts'
import { defineSlice, follow } from '../slice.ts'
import { bindSocket } from '../socketTransport.ts'
import { routeChatFrame } from './chatRooms.ts'

// The chat socket /ws/chat/ (spec 001 §7 "Chat socket"): one WebSocket per attempt, the token as a subprotocol, only
// in the tab that serves (spec 001 §4 "Service ownership") and only for a user with the chat console. Known frames go
// to the live data and to the room actors (./chatRooms.ts).

/** The subprotocols of the chat socket: ['token', key] with a token session (contract TOKEN_SUBPROTOCOL); none with a cookie session. */
export function chatSocketProtocols(token: string | null): string[] {
  return token ? ['token', token] : []
}

export const chatSocketSlice = defineSlice('chatSocket', ({ options, effects, actor, logFailure }) => {
  const chat = options.chat && effects.chat ? { options: options.chat, effects: effects.chat } : null
  let signInTried = false
  const connection = fromCallback<ChatTransportCommand, void>(({ sendBack, receive }) => {
    if (!chat) return
    const socket = chat.effects.openSocket(chat.options.socketUrl, chatSocketProtocols(chat.options.token))
    return bindSocket(socket, sendBack, receive)
  })

  return {
    logic: chatSocketMachine.provide({
      actors: { connection },
      actions: {
        forward: enqueueActions(({ enqueue }, frame: ChatServerFrame) => {
          enqueue(() => routeChatFrame(frame, { userId: options.userId, chat: options.chat, effects: effects.chat }, actor))
        }),
        logUnknown: (_, frame: unknown) => logFailure(`the chat socket sent an unknown frame ${JSON.stringify(frame).slice(0, 120)}`),
      },
    }),
    input: () => ({ serving: false }),
    links: [
      // Only the serving tab runs the chat socket (and only with the chat console).
      follow<typeof tabOwnershipMachine, boolean>(
        'tabOwnership',
        (snapshot) => snapshot.matches('serving'),
        (serving) => actor('chatSocket').send({ type: 'SERVING_CHANGED', serving: serving && !!chat }),
      ),
      // The webchat registry (spec 001 §4 "Webchat status"): registered while the chat socket is open. The first open
      // of the serving tab signs the agent in to the chat channel when the team logs them in automatically.
      follow<typeof chatSocketMachine, boolean>(
        'chatSocket',
        (snapshot) => snapshot.matches({ socket: 'connected' }),
        (connected) => {
          actor('webchatStatus').send({ type: 'REGISTRATION_CHANGED', registration: connected ? 'registered' : 'disconnected' })
          if (connected && chat && !signInTried && !chat.options.signedIn && chat.options.team?.enable_auto_login_webchat) {
            signInTried = true
            chat.effects.signIn().catch((error: unknown) => logFailure('the chat channel sign-in failed', error))
          }
        },
      ),
    ],
    start: () => {
      if (chat) actor('webchatStatus').send({ type: 'LIMIT_CHANGED', chatLimit: chat.options.team?.chat_limit_per_user ?? null })
    },
  }
})
