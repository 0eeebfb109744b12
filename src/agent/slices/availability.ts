import type { AnyActorRef, SnapshotFrom } from 'xstate'
import type { agentStatusMachine } from '../../../machines/agentStatus.machine.ts'
import type { tabOwnershipMachine } from '../../../machines/tabOwnership.machine.ts'
import type { webphoneMachine } from '../../../machines/webphone.machine.ts'
import { follow } from '../slice.ts'
import type { Link } from '../slice.ts'

/**
 * What a dialer of the agent system (activities, preview leads) waits for before it may dial: this tab serves, the
 * phone is registered, the agent is not_inuse — each told to the dialer as it changes.
 */
export function availabilityLinks(dialer: () => Pick<AnyActorRef, 'send'>): Link[] {
  return [
    follow(
      'tabOwnership',
      (snapshot: SnapshotFrom<typeof tabOwnershipMachine>) => snapshot.matches('serving'),
      (serving) => dialer().send({ type: 'SERVING_CHANGED', serving }),
    ),
    follow(
      'webphone',
      (snapshot: SnapshotFrom<typeof webphoneMachine>) => snapshot.context.registration === 'registered',
      (registered) => dialer().send({ type: 'REGISTRATION_CHANGED', registered }),
    ),
    follow(
      'agentStatus',
      (snapshot: SnapshotFrom<typeof agentStatusMachine>) => snapshot.context.status,
      (status) => {
        if (status) dialer().send({ type: 'STATUS_CHANGED', status })
      },
      (last, now) => !now || last === now,
    ),
  ]
}
