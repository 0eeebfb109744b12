import { sendTo } from 'xstate'
import type { SnapshotFrom } from 'xstate'
import type { serviceSocketMachine } from '../../../machines/serviceSocket.machine.ts'
import { wallboardMachine } from '../../../machines/wallboard.machine.ts'
import { wallboardStore } from '../../features/dashboards/wallboardStore.ts'
import { dialerProgressStore } from '../../features/dialer/dialerProgressStore.ts'
import { defineSlice, follow, serviceSocketRef, socketEvent } from '../slice.ts'

// The supervisor wallboard's subscription (issue 19): the machine subscribes while /dashboards is shown and the service
// socket is up; the frames it hears go to the wallboard store the page reads.

export const wallboardSlice = defineSlice('wallboard', ({ actor }) => ({
  logic: wallboardMachine.provide({
    actions: {
      sendSocket: sendTo(serviceSocketRef, socketEvent),
      applySnapshot: (_, frame) => wallboardStore.applySnapshot(frame),
      applyDelta: (_, frame) => wallboardStore.applyDelta(frame),
      applyCallers: (_, frame) => wallboardStore.applyCallers(frame),
      markStale: () => wallboardStore.markStale(),
    },
  }),
  socket: {
    wallboardSnapshot: (frame) => [{ to: 'wallboard', event: { type: 'SNAPSHOT', frame } }],
    wallboardDelta: (frame) => [{ to: 'wallboard', event: { type: 'DELTA', frame } }],
    // The supervisors' feed also carries the dialer campaigns' progress (server/dialer/): no machine, the panel's store.
    dialerProgress: (frame) => [() => dialerProgressStore.apply(frame)],
    queueCallers: (frame) => [{ to: 'wallboard', event: { type: 'CALLERS', frame } }],
  },
  links: [
    follow(
      'serviceSocket',
      (snapshot: SnapshotFrom<typeof serviceSocketMachine>) => snapshot.matches({ connection: { socket: 'connected' } }),
      (connected) => actor('wallboard').send({ type: connected ? 'CONNECTED' : 'DISCONNECTED' }),
    ),
  ],
}))
