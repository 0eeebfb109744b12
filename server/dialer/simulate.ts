import { setImmediate as yieldToLoop } from 'node:timers/promises'
import type { SimulateBody, SimulateResponse, SimulationResult } from '../../contract/api/dialer.ts'
import { SIMULATION_MIN_HISTORY } from '../../contract/api/dialer.ts'
import type { PacerConfig } from './pacer.ts'
import { simulate } from './simulator.ts'
import type { Dist, PastResult, SimConfig } from './simulator.ts'

// The simulator as a user runs it (POST /api/v1/service/dialer/simulate/, contract/api/dialer.ts SimulateBody): the
// request's rates and times, or a campaign's past results, turned into one simulate() per mode. The same pace() as
// the live dialer; seeded, so the same body answers the same figures. Bounded by the contract (agents × hours × modes).

/** The parsed body (the schema transforms nothing: input and output are the same). */
type Body = SimulateBody
type SecondsInput = NonNullable<SimulateBody['talk']>

/** Defaults: bench/dialer-sim.ts's campaign. */
const DEFAULT_RING: Dist = { kind: 'uniform', min: 5, max: 20 }
const DEFAULT_TALK: Dist = { kind: 'uniform', min: 60, max: 180 }
const DEFAULT_WRAP: Dist = { kind: 'uniform', min: 5, max: 15 }

function distOf(input: SecondsInput | undefined, fallback: Dist, cap: number): Dist {
  if (!input) return fallback
  if ('mean' in input) return { kind: 'exponential', mean: input.mean, max: cap }
  return input.min === input.max ? { kind: 'fixed', value: input.min } : { kind: 'uniform', min: input.min, max: input.max }
}

export type SimulationInput = {
  body: Body
  /** The campaign's past results (when the body names one) and its own cap and ratio. */
  campaign?: { history: readonly PastResult[]; abandonCapPercent: number; ratio: number; window: { answered: number; abandoned: number } }
}

/** Runs the comparison; 'tooLittleHistory' when the campaign's history is too short and the body gave no rates. */
export async function runSimulation({ body, campaign }: SimulationInput): Promise<SimulateResponse | 'tooLittleHistory'> {
  const history = campaign && campaign.history.length >= SIMULATION_MIN_HISTORY ? campaign.history : undefined
  if (campaign && !history && !body.rates) return 'tooLittleHistory'
  const seed = body.seed ?? 1
  const abandonCap = body.abandon_cap ?? campaign?.abandonCapPercent ?? 3
  // Replaying, talk and wrap-up come from the rows that have them; the others (abandoned calls) draw from these.
  const talks = history?.flatMap((r) => (r.talkSeconds != null ? [r.talkSeconds] : [])) ?? []
  const wraps = history?.flatMap((r) => (r.wrapSeconds != null ? [r.wrapSeconds] : [])) ?? []
  const base: Omit<SimConfig, 'pacer'> = {
    seed,
    agents: body.agents,
    hours: body.hours,
    talk: distOf(body.talk, talks.length ? { kind: 'empirical', values: talks } : DEFAULT_TALK, 7200),
    wrap: distOf(body.wrap, wraps.length ? { kind: 'empirical', values: wraps } : DEFAULT_WRAP, 3600),
    initialWindow: campaign?.window,
    ...(history
      ? { history }
      : {
          rates: { answer: body.rates!.answer / 100, busy: body.rates!.busy / 100, noAnswer: body.rates!.no_answer / 100 },
          ring: { answer: distOf(body.ring, DEFAULT_RING, 120) },
        }),
  }
  const results: SimulationResult[] = []
  for (const m of body.modes) {
    const pacer: PacerConfig = {
      mode: m.mode,
      abandonCap: abandonCap / 100,
      ...(m.mode === 'power' ? { ratio: m.ratio ?? campaign?.ratio ?? 2 } : {}),
      ...(m.mode === 'predictive' && m.ratio !== undefined ? { maxRatio: m.ratio } : {}),
    }
    // Between modes the event loop serves other requests (one run is at most a second or so).
    await yieldToLoop()
    const r = simulate({ ...base, pacer })
    results.push({
      mode: m.mode,
      // power: calls per idle agent; predictive: its ceiling (maxRatio) when given; progressive has none.
      ratio: m.mode === 'power' ? (pacer.ratio ?? null) : m.mode === 'predictive' ? (m.ratio ?? null) : null,
      occupancy: r.occupancy,
      wrap_share: r.wrapShare,
      idle_share: r.idleShare,
      abandon_rate: r.abandonRate,
      worst_window_rate: r.maxWindowRate,
      answered_per_agent_hour: r.answeredPerAgentHour,
      dials_per_second: r.dialsPerSecond,
      dials: r.dials,
      answered: r.answered,
      abandoned: r.abandoned,
    })
  }
  return {
    source: history ? 'history' : 'rates',
    history_attempts: campaign ? campaign.history.length : null,
    agents: body.agents,
    hours: body.hours,
    seed,
    abandon_cap: abandonCap,
    results,
  }
}
