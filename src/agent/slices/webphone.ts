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
// its phone only in the serving tab, and signs the agent in to the telephony channel while it runs.

export const webphoneSlice = defineSlice('webphone', ({ effects, actor }) => {
  const phoneEffects = effects.webphone
  let channelIn = false
  return {
    logic: webphoneMachine.provide({
      actions: {
        sendSocket: sendTo(serviceSocketRef, socketEvent),
        notify: (_, notice) => effects.notify(notice),
        notifyIncoming: (_, call) => phoneEffects?.notifyIncomingCall(call),
      },
      actors: {
        phone: phoneActor((config, emit) => (phoneEffects as WebphoneEffects).createSipPhone(config, emit)),
        call: webphoneCallMachine.provide({
          actors: { fetchMetadata: fromPromise(({ input }: { input: { uid: string; callId: string; attempt: number } }) => (phoneEffects as WebphoneEffects).fetchCallMetadata(input.uid)) },
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
      clickToCall: ({ number, force }) => {
        const origin: DialOrigin = 'clickToCall'
        return [{ to: 'webphone', event: { type: 'DIAL', number, origin, force: force === true } }]
      },
    },
    links: [
      // The telephony channel (spec 000 §7 "Agent channel", §3 login_channel_telephony): the queues offer calls only
      // to agents signed in to it. Signed in once the phone runs (by the system when the team's auto login started it,
      // by the user otherwise), out when the agent stops the phone; a phone stopped because another tab serves stays
      // signed in.
      follow(
        'webphone',
        (snapshot: SnapshotFrom<typeof webphoneMachine>) => ({ ready: snapshot.matches('ready'), off: snapshot.matches('off'), by: snapshot.context.autoLogin ? 'system' as const : 'user' as const }),
        ({ ready, off, by }) => {
          const channel = phoneEffects?.telephonyChannel
          if (!channel) return
          if (ready && !channelIn) {
            channelIn = true
            channel(true, by).catch(() => (channelIn = false))
          } else if (off && channelIn) {
            channelIn = false
            channel(false, 'user').catch(() => {})
          }
        },
        () => false,
      ),
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
