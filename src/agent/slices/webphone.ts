import { fromPromise, sendTo } from 'xstate'
import type { SnapshotFrom } from 'xstate'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import type { CancelTransferRequest } from '../../../machines/transfer.machine.ts'
import type { tabOwnershipMachine } from '../../../machines/tabOwnership.machine.ts'
import { webphoneCallMachine, webphoneMachine, webphoneTransferMachine } from '../../../machines/webphone.machine.ts'
import type { DialOrigin } from '../../../machines/webphone.machine.ts'
import { phoneActor } from '../../../machines/webphoneTypes.ts'
import { defineSlice, follow, serviceSocketRef, socketEvent } from '../slice.ts'
import type { WebphoneEffects } from '../types.ts'

// The webphone (spec 000 §2, §4, §5, §7–§9): sip.js through the browser's effects, one call child per call; it runs
// its phone only in the serving tab (the telephonyChannel slice signs the agent in while it runs).

export const webphoneSlice = defineSlice('webphone', ({ effects, actor }) => {
  const phoneEffects = effects.webphone
  return {
    logic: webphoneMachine.provide({
      actions: {
        sendSocket: sendTo(serviceSocketRef, socketEvent),
        notify: (_, notice) => effects.notify(notice),
        notifyIncoming: (_, call) => phoneEffects?.notifyIncomingCall(call),
        afterServiceEnded: (_, end) => void phoneEffects?.endAfterService(end),
        saveForm: (_, { uid }) => void phoneEffects?.saveForm(uid),
      },
      actors: {
        phone: phoneActor((config, emit) => (phoneEffects as WebphoneEffects).createSipPhone(config, emit)),
        startAfterService: fromPromise(({ input }: { input: { uid: string } }) => (phoneEffects as WebphoneEffects).startAfterService(input.uid)),
        call: webphoneCallMachine.provide({
          actors: {
            fetchMetadata: fromPromise(({ input }: { input: { uid: string; callId: string; attempt: number } }) =>
              (phoneEffects as WebphoneEffects).fetchCallMetadata(input.uid),
            ),
          },
        }),
        transfer: webphoneTransferMachine.provide({
          actors: { cancelTransfer: fromPromise(({ input }: { input: CancelTransferRequest }) => (phoneEffects as WebphoneEffects).cancelTransfer(input)) },
        }),
      },
    }),
    // Without the browser side (or the softphone permission) there is no voip: the webphone stays off.
    input: (options) => ({
      voip: phoneEffects && has(options.roles, PERMISSIONS.viewSoftphone) ? (options.voip ?? null) : null,
      team: options.team ?? null,
      permissions: phoneEffects?.permissions() ?? null,
    }),
    socket: {
      // The webphone owns do-not-disturb and feeds agentStatus (the agentStatus slice).
      dnd: ({ dnd }) => [{ to: 'webphone', event: { type: 'SET_DND', dnd } }],
      startWebphone: () => [{ to: 'webphone', event: { type: 'START' } }],
      changeDeviceState: ({ state }) => [{ to: 'webphone', event: { type: 'DEVICE_STATE', state } }],
      // The server ended the after-service (its time is over, or a supervisor ended it).
      afterServiceTimeout: ({ uid }) => [{ to: 'webphone', event: { type: 'AFTER_SERVICE_TIMEOUT', uid } }],
      // The live call is another step now (an attended transfer's customer joined): its outcome goes there.
      changeCallStep: ({ uid, step_uid }) => [{ to: 'webphone', event: { type: 'CALL_STEP_CHANGED', uid, stepUid: step_uid } }],
      clickToCall: ({ number, force }) => {
        const origin: DialOrigin = 'clickToCall'
        return [{ to: 'webphone', event: { type: 'DIAL', number, origin, force: force === true } }]
      },
    },
    links: [
      // Tab ownership → the webphone: it runs its phone only in the serving tab; nothing while the tabs still decide.
      follow(
        'tabOwnership',
        (snapshot: SnapshotFrom<typeof tabOwnershipMachine>) => (snapshot.matches('serving') ? true : snapshot.matches('claiming') ? null : false),
        (serving) => {
          if (serving !== null) actor('webphone').send({ type: 'SERVING_CHANGED', serving })
        },
        (last, now) => now === null || last === now,
      ),
    ],
  }
})
