import { enqueueActions, fromCallback } from 'xstate'
import { serviceSocketMachine } from '../../../machines/serviceSocket.machine.ts'
import type { TransportCommand } from '../../../machines/serviceSocket.machine.ts'
import type { tabOwnershipMachine } from '../../../machines/tabOwnership.machine.ts'
import type { SocketMessage } from '../../../machines/types.ts'
import { coworkerPresence } from '../../features/coworkers/coworkerPresence.ts'
import { defineSlice, follow } from '../slice.ts'
import { bindSocket } from '../socketTransport.ts'

// The service socket /ws/business/ (spec 000 §4, §7; 001 §4, §7): one WebSocket per attempt, every forwarded frame
// routed through the realtime table (../realtime.ts), and the console-wide commands (refresh, openUrl, updateUser).

export const serviceSocketSlice = defineSlice('serviceSocket', ({ options, effects, actor, routeServerFrame, resync, resend, logFailure }) => {
  const connection = fromCallback<TransportCommand, void>(({ sendBack, receive }) => {
    const socket = effects.openSocket(options.socketUrl)
    return bindSocket(socket, sendBack, receive)
  })

  return {
    logic: serviceSocketMachine.provide({
      actors: { connection },
      actions: {
        forward: enqueueActions(({ enqueue, system }, message: SocketMessage) => {
          for (const step of routeServerFrame(message)) {
            if (typeof step === 'function') enqueue(step)
            else enqueue.sendTo(system.get(step.to), step.event)
          }
        }),
        resync: () => resync(),
        resend: () => resend(),
        notify: (_, notice) => effects.notify(notice),
        logout: () => effects.logout(),
      },
    }),
    input: () => ({ page: options.page }),
    socket: {
      refresh: () => [() => effects.reload()],
      openUrl: ({ url }) => [() => effects.openUrl(url)],
      updateUser: () => [() => effects.refetchProfile()],
      // A colleague's status changed: the coworkers page shows it (supervisors and sockets on that page hear it).
      agentStatus: ({ user, channel, status, previous, changed_at }) => [() => coworkerPresence.publish({ user, channel, status, previous, changed_at })],
      // A new voicemail message of the user's boxes: the top bar's notifications ask again.
      voicemail: () => [() => effects.voicemailArrived?.()],
      // The chat counters' answers (spec 001 §7): no actor of the console holds chat rooms yet (the chat workspace,
      // the next issue, moves these four to its own slice).
      numberOfMessages: () => [],
      unreadMessages: () => [],
      unreadAllMessages: () => [],
      syncStep: () => [],
      error: ({ detail, request }) => [
        () => logFailure(`the service socket refused ${request ?? 'a frame'}: ${detail}`),
        // The wallboard asked without sites.view_dashboard_supervisor.
        ...(request === 'wallboard_subscribe' ? [{ to: 'wallboard', event: { type: 'REFUSED' } }] : []),
      ],
    },
    links: [
      // Tab ownership → the socket: the serving tab polls pauses and activities.
      follow<typeof tabOwnershipMachine, boolean>(
        'tabOwnership',
        (snapshot) => snapshot.matches('serving'),
        (serving, previous) => {
          if (previous !== undefined || serving) actor('serviceSocket').send({ type: 'SERVING_CHANGED', serving })
        },
      ),
    ],
  }
})
