// What the dialer asks of the media app (server/dialer/runner.ts Originator, brain.ts originate): one call to a
// lead's phone and what became of it. Here, beside the brain, so the dialer depends on the media app and not the
// other way round.

/** One customer leg to place: the headers (spec 000 §7) go to the agent's leg when the customer answers. */
export type OriginateRequest = {
  siteId: number
  campaignId: number
  queueId: number
  callId: string
  uid: string
  phone: string
  callerId: string
  outboundRouteId: number | null
  dialTimeoutMs: number
  headers: Record<string, string>
  /** Answering-machine detection: the customer's first seconds are heard before an agent is sought (552 if a machine). */
  amd?: boolean
}

/** What happened: the dial status (200 answered, 486 busy, 480/487 no answer…), when it was answered, talk seconds. */
export type OriginateOutcome = { status: number; answeredAt: Date | null; talkSeconds: number; abandoned: boolean }

/** A queue's members and how many of them are free for a call now. */
export type QueueAgents = { members: number; idle: number }
