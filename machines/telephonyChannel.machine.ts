import { assign, setup } from 'xstate'
import { missingAction, missingPromise } from './effects.ts'

// Telephony channel sign-in — spec 000 §7 "Agent channel" (POST channel/login?channel=telephony&logged_in_by=…, and
// channel/logout), §3 login_channel_telephony: the queues offer calls only to agents signed in to the channel. The
// agent is signed in once the webphone runs (by the system when the team's auto login started it, by the user
// otherwise) and out when the agent stops the phone (webphone `off`); a phone stopped because another tab serves
// stays signed in. A sign-in that fails leaves the agent out: the next change of the phone that finds it ready tries
// again. The sign-out is sent and not waited for.

export type TelephonyChannelEvent =
  /** What the webphone is now: `ready` (its phone runs), `off` (not asked for, or stopped), who started it. */
  { type: 'PHONE_CHANGED'; ready: boolean; off: boolean; autoLogin: boolean }

export type SignInRequest = { by: 'user' | 'system' }

export type TelephonyChannelContext = {
  /** Who the last sign-in was made by. */
  by: SignInRequest['by'] | null
}

export const telephonyChannelMachine = setup({
  types: {
    context: {} as TelephonyChannelContext,
    events: {} as TelephonyChannelEvent,
  },
  actors: {
    /** POST channel/login?channel=telephony&logged_in_by=<by>. */
    signIn: missingPromise<unknown, SignInRequest>('telephonyChannel', 'signIn'),
  },
  actions: {
    /** POST channel/logout?channel=telephony; failures are not the agent's concern. */
    signOut: missingAction('telephonyChannel', 'signOut'),
    rememberBy: assign({ by: ({ event }) => (event.autoLogin ? 'system' : 'user') }),
  },
  guards: {
    phoneReady: ({ event }) => event.ready,
    phoneOff: ({ event }) => event.off,
  },
}).createMachine({
  id: 'telephonyChannel',
  context: { by: null },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: { PHONE_CHANGED: { guard: 'phoneReady', target: 'signingIn', actions: 'rememberBy' } },
    },
    signingIn: {
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ context }) => ({ by: context.by ?? 'user' }),
        onDone: 'signedIn',
        onError: 'signedOut',
      },
      on: { PHONE_CHANGED: { guard: 'phoneOff', target: 'signedOut', actions: 'signOut' } },
    },
    signedIn: {
      on: { PHONE_CHANGED: { guard: 'phoneOff', target: 'signedOut', actions: 'signOut' } },
    },
  },
})
