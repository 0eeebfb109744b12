import { fromPromise, sendTo } from 'xstate'
import type { AnyActorRef, SnapshotFrom } from 'xstate'
import { ACTIVITY_CALL_HEADER } from '../../../contract/api/activities.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { activityDialerMachine } from '../../../machines/activityDialer.machine.ts'
import type { DialRequest, DialResult } from '../../../machines/activityDialer.machine.ts'
import type { DialOrigin, webphoneMachine } from '../../../machines/webphone.machine.ts'
import { defineSlice, followAll, sameJson, serviceSocketRef, socketEvent } from '../slice.ts'
import type { ActivityEffects } from '../types.ts'
import { availabilityLinks } from './availability.ts'

// The activity dialer (spec 000 §2–§4, §9): the due list from the socket, dialled through the webphone while this tab
// serves, the phone is registered and the agent is not_inuse.

type Webphone = Pick<AnyActorRef, 'send' | 'getSnapshot'>

/**
 * Asks the webphone to dial an activity (origin 'activity', the activity id in the call headers) and answers the call
 * it started; a refusal (the webphone's own rules, a missing route) rejects.
 */
export function dialActivity(webphone: Webphone, request: DialRequest): DialResult {
  const calls = () => (webphone.getSnapshot() as SnapshotFrom<typeof webphoneMachine>).context.calls
  const known = new Set(calls().map((call) => call.id))
  const origin: DialOrigin = 'activity'
  webphone.send({ type: 'DIAL', number: request.destination, origin, headers: { [ACTIVITY_CALL_HEADER]: String(request.id) } })
  const started = calls().find((call) => !known.has(call.id))
  if (!started) throw new Error(`activity ${request.id}: the webphone did not dial ${request.destination}`)
  return { callId: started.id }
}

export const activityDialerSlice = defineSlice('activityDialer', ({ options, effects, actor, logFailure }) => {
  const dialer = () => actor('activityDialer')
  return {
    logic: activityDialerMachine.provide({
      actors: {
        attempt: fromPromise(({ input }: { input: { id: number } }) => (effects.activities as ActivityEffects).attempt(input.id)),
        dial: fromPromise(async ({ input, system }: { input: DialRequest; system: AnyActorRef['system'] }) => dialActivity(system.get('webphone'), input)),
      },
      actions: {
        sendSocket: sendTo(serviceSocketRef, socketEvent),
        markDone: (_, { id }: { id: number }) =>
          void (effects.activities as ActivityEffects).done(id).catch((error: unknown) => logFailure(`activity ${id} done failed`, error)),
      },
    }),
    // Activities are dialled by the webphone: without it (or the requests) the dialer never starts a try.
    input: () => ({ enabled: !!effects.webphone && !!effects.activities && has(options.roles, PERMISSIONS.viewSoftphone) }),
    socket: {
      // The whole due list every time (answer to get_activities, or pushed after a change): it replaces the last one.
      activity: ({ activities }) => [
        () => effects.rememberActivities(activities),
        { to: 'activityDialer', event: { type: 'ACTIVITIES', activities, at: Date.now() } },
      ],
    },
    // It follows the serving tab, the registration, the status and its own call (answered, gone).
    links: [
      followAll(
        ['activityDialer', 'webphone'],
        (get) => {
          const callId = (get('activityDialer').getSnapshot() as SnapshotFrom<typeof activityDialerMachine>).context.callId
          if (!callId) return null
          const phone = (get('webphone').getSnapshot() as SnapshotFrom<typeof webphoneMachine>).context
          return { callId, accepted: phone.callStates[callId]?.accepted ?? false, ended: !phone.calls.some((call) => call.id === callId) }
        },
        (call) => {
          if (call) dialer().send({ type: 'CALL_CHANGED', ...call })
        },
        sameJson,
      ),
      ...availabilityLinks(dialer),
    ],
  }
})
