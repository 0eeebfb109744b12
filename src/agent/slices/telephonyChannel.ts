import { fromPromise } from 'xstate'
import type { SnapshotFrom } from 'xstate'
import { telephonyChannelMachine } from '../../../machines/telephonyChannel.machine.ts'
import type { SignInRequest } from '../../../machines/telephonyChannel.machine.ts'
import type { webphoneMachine } from '../../../machines/webphone.machine.ts'
import { defineSlice, follow, sameJson } from '../slice.ts'

// The telephony channel sign-in (spec 000 §7 "Agent channel"): follows the webphone, signs in and out over REST.

export const telephonyChannelSlice = defineSlice('telephonyChannel', ({ effects, actor }) => ({
  logic: telephonyChannelMachine.provide({
    actors: { signIn: fromPromise(async ({ input }: { input: SignInRequest }) => effects.webphone?.telephonyChannel(true, input.by)) },
    actions: { signOut: () => void effects.webphone?.telephonyChannel(false, 'user').catch(() => {}) },
  }),
  links: [
    follow(
      'webphone',
      (snapshot: SnapshotFrom<typeof webphoneMachine>) => ({
        ready: snapshot.matches('ready'),
        off: snapshot.matches('off'),
        autoLogin: snapshot.context.autoLogin,
      }),
      (phone) => actor('telephonyChannel').send({ type: 'PHONE_CHANGED', ...phone }),
      sameJson,
    ),
  ],
}))
