// PLACEHOLDER (dialrun): the pacer is dialbrain's file; this minimal version (progressive = one call per free agent,
// power = ratio per free agent, predictive as power) keeps the runtime to the agreed signature and is replaced at merge.

export type PacerMode = 'preview' | 'progressive' | 'power' | 'predictive'

export type PacerState = {
  /** Agents of the campaign's queue free now (not offered, not talking, not in after-service). */
  freeAgents: number
  /** Customer legs ringing or answered and waiting for an agent. */
  callsInFlight: number
  now: Date
}

export type PacerConfig = { mode: PacerMode; ratio: number; maxAbandonRate: number }

export function pace(s: PacerState, c: PacerConfig): { calls: number; reason: string; log: Record<string, unknown> } {
  if (c.mode === 'preview') return { calls: 0, reason: 'preview: agents dial', log: { mode: c.mode } }
  const perAgent = c.mode === 'progressive' ? 1 : Math.max(1, c.ratio)
  const calls = Math.max(0, s.freeAgents * perAgent - s.callsInFlight)
  return { calls, reason: `${c.mode}: ${s.freeAgents} free × ${perAgent} − ${s.callsInFlight} in flight`, log: { mode: c.mode, freeAgents: s.freeAgents, inFlight: s.callsInFlight, perAgent } }
}
