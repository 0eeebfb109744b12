import { sendTo } from 'xstate'
import type { SnapshotFrom } from 'xstate'
import { agentStatusMachine } from '../../../machines/agentStatus.machine.ts'
import type { ParentStatusMessage } from '../../../machines/agentStatus.machine.ts'
import { webphoneStatusInputs } from '../../../machines/webphone.machine.ts'
import type { webphoneMachine } from '../../../machines/webphone.machine.ts'
import { defineSlice, follow, sameJson, serviceSocketRef, socketEvent } from '../slice.ts'

// The telephony status (spec 000 §4, §7; 001 §7) on the service socket and to the embedding page, from what the
// webphone reports (registration, transport, calls, ringing, after-service, do-not-disturb) and the pause.

type PhoneInputs = ReturnType<typeof webphoneStatusInputs>

export const agentStatusSlice = defineSlice('agentStatus', ({ effects, actor }) => ({
  logic: agentStatusMachine.provide({
    actions: {
      sendSocket: sendTo(serviceSocketRef, socketEvent),
      postToParent: (_, message: ParentStatusMessage) => effects.postToParent(message),
    },
  }),
  input: (options) => ({ token: options.token, endpoint: options.endpoint, locale: options.locale }),
  // The first status went out before the socket opened; those reported while it was down were dropped.
  resend: () => actor('agentStatus').send({ type: 'RESEND' }),
  links: [
    // The webphone → agentStatus, one event per input that changed, and the socket's calls flag (a remote logout
    // waits for the calls).
    follow(
      'webphone',
      (snapshot: SnapshotFrom<typeof webphoneMachine>) => webphoneStatusInputs(snapshot),
      (now: PhoneInputs, was: PhoneInputs | undefined) => {
        const status = actor('agentStatus')
        if (was?.registration !== now.registration) status.send({ type: 'REGISTRATION_CHANGED', registration: now.registration })
        if (was?.connected !== now.connected) status.send({ type: 'TRANSPORT_CHANGED', connected: now.connected })
        // After-service before the calls: the call that ends and its after-service are one change, and the status
        // must never read not_inuse in between (the ACD would offer that instant a queue call).
        if (was?.afterService !== now.afterService) status.send({ type: 'AFTER_SERVICE_CHANGED', active: now.afterService })
        if (was?.calls !== now.calls || was?.ringing !== now.ringing) {
          status.send({ type: 'CALLS_CHANGED', calls: now.calls, ringing: now.ringing })
          if ((was?.calls ?? 0) > 0 !== now.calls > 0) actor('serviceSocket').send({ type: 'CALLS_CHANGED', hasCalls: now.calls > 0 })
        }
        if (was?.dnd !== now.dnd) status.send({ type: 'DND_CHANGED', dnd: now.dnd })
      },
      sameJson,
    ),
  ],
}))
