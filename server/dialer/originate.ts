import type { MediaBrain } from '../media/app/brain.ts'
import type { Originator } from './runner.ts'

// Where the runner's calls go: the media app (TELEPHONY.md "The media app"). The brain's `originate` sends the worker
// an `originate` (server/media/app/protocol.ts): the customer's leg goes out through Kamailio to the campaign's outbound
// route, anchored in rtpengine like a parked caller; on answer a free member of the campaign's queue gets it with the
// lead's headers within 2 s, else the customer hears a short message and the call counts as abandoned. Ready while the
// brain is linked to the media app: an instance without one claims no campaign (another may).

export function mediaOriginator(brain: MediaBrain): Originator {
  return {
    ready: () => brain.connected,
    originate: (request) => brain.originate(request),
    queueAgents: (siteId, queueId, at) => brain.queueAgents(siteId, queueId, at),
    pending: (campaignId) => brain.dialerPending(campaignId),
  }
}
