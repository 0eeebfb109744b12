import type { MediaBrain } from '../media/app/brain.ts'
import type { Originator } from './runner.ts'

// Where the runner's calls go: the media app (TELEPHONY.md "The media app": it originates the customer leg through
// Kamailio and, on answer, bridges it to a free agent of the campaign's queue with the lead's headers).
// NOT BUILT YET: the worker has no `originate` command (server/media/app/protocol.ts). Until it has, the media app
// originator says it is not ready, so the runner claims no campaign and places nothing (no lead is touched).

type Originating = { originate?: Originator['originate'] }

export function mediaOriginator(brain: MediaBrain): Originator {
  const withOriginate = brain as unknown as Originating
  return {
    ready: () => brain.connected && typeof withOriginate.originate === 'function',
    originate: (request) => withOriginate.originate!(request),
  }
}
