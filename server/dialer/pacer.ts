// The dialer's pacer: how many calls a campaign originates now. Pure, called every tick (about once a second) by the
// live campaign runtime and by the simulator alike. Every decision carries a reason a supervisor reads and the numbers
// behind it. See README.md ("Pacing") for the model.
//
// Two layers:
//  1. What the mode wants. preview: offer a lead to each idle agent without one (the agent dials); progressive: one
//     call per idle agent without a call; power: a fixed number of calls in flight per idle agent; predictive: the
//     largest number of calls whose predicted abandon share stays at the target, from the measured answer rate and
//     ring, talk and wrap-up times (re-measured each minute by the caller), with the agents expected to be free when
//     the calls answer, shrunk while the last minutes' abandon rate runs above the target.
//  2. The abandon cap, a hard ceiling whatever the mode wants: a call placed beyond the idle agents may abandon, at
//     most once. The pacer places such a "risky" call only while
//        abandoned + (calls in flight − idle agents) + new risky calls ≤ ⌊cap × answered⌋
//     over the rolling window (30 days). Every term on the left only falls or turns into an abandon, and answered
//     only grows, so the window's abandon rate can never pass the cap (as long as agents counted idle stay: an agent
//     who pauses with calls in flight for them is the runtime's to avoid). A campaign starts with no allowance and
//     earns it as calls are answered: until then predictive dials like progressive.

export type PacerMode = 'preview' | 'progressive' | 'power' | 'predictive'

export type PacerConfig = {
  mode: PacerMode
  /** power: calls in flight per idle agent (default 2). */
  ratio?: number
  /** The abandon cap, a share of answered calls over the rolling window (default 0.03 = 3 %). */
  abandonCap?: number
  /** predictive: the abandon share aimed at, under the cap (default half the cap). */
  targetAbandon?: number
  /** predictive: ceiling on calls in flight per agent expected free (default 8). */
  maxRatio?: number
  /** predictive: finished calls measured before the statistics are trusted (default 30); until then progressive. */
  minSamples?: number
}

export type PacerState = {
  agents: {
    /** Logged in, ready, not on a call (an agent previewing a lead counts here, with the preview in `inFlight`). */
    idle: number
    talking: number
    wrapUp: number
  }
  /** Calls originated and not yet with an agent or ended: ringing, plus answered ones waiting for an agent. */
  inFlight: number
  /**
   * Seconds each call still ringing has been ringing (optional; the other inFlight − ringing.length calls are answered
   * and waiting). With the stats' ring samples, a call ringing for long is known to be unlikely to answer; without
   * them every call in flight counts at the answer rate (more cautious).
   */
  ringing?: readonly number[]
  /** Measured over the recent calls (the caller refreshes them each minute). */
  stats: {
    /** Finished dial attempts behind the figures. */
    samples: number
    /** Answered share of dial attempts (0–1). */
    answerRate: number
    /** Seconds from origination to answer, for answered calls. */
    meanRingSeconds: number
    meanTalkSeconds: number
    meanWrapSeconds: number
    /** Ring seconds of recent answered calls, ascending (optional, see `ringing`). */
    answerRings?: readonly number[]
    /** Seconds recent unanswered attempts lasted (busy, no answer, failures), ascending. */
    failRings?: readonly number[]
    /** Recent talk and wrap-up durations, ascending (optional, see `busy`). */
    talkSamples?: readonly number[]
    wrapSamples?: readonly number[]
  }
  /**
   * How long each busy agent has been talking or wrapping up (optional). With the stats' talk and wrap samples the
   * pacer knows an agent 170 s into a call that lasts 60–180 s is about to be free; without, it uses the average rate.
   */
  busy?: readonly { state: 'talk' | 'wrap'; seconds: number }[]
  /** The abandon window (rolling 30 days): answered calls (abandoned ones included) and abandoned ones. */
  abandon: { answered: number; abandoned: number }
  /** The last minutes (e.g. 15), for the adaptive brake. */
  recent?: { answered: number; abandoned: number }
  /** Leads dialable now; the pacer never asks for more (absent = plenty). */
  leadsReady?: number
}

export type PacerDecision = {
  /** Calls to originate now (preview: leads to offer to idle agents, who dial them). */
  calls: number
  /** Why, in a sentence a supervisor reads. */
  reason: string
  /** The numbers behind the decision, for the pacing log. */
  log: Record<string, unknown>
}

export const DEFAULT_ABANDON_CAP = 0.03
export const DEFAULT_POWER_RATIO = 2
export const DEFAULT_MAX_RATIO = 8
export const DEFAULT_MIN_SAMPLES = 30
/** Answered calls in `recent` before its abandon rate brakes the predictive pacer. */
const RECENT_MIN_ANSWERED = 10
/** Seconds an answered call waits for an agent before it is abandoned (the issue's two seconds). */
export const GRACE_SECONDS = 2

const pct = (x: number) => `${(Math.round(x * 1000) / 10).toLocaleString('en-US')} %`
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits

/** The abandon cap's room: how many more calls may be placed beyond the idle agents now. */
export function abandonRoom(s: PacerState, cap = DEFAULT_ABANDON_CAP): { allowance: number; risk: number; room: number } {
  const allowance = Math.floor(cap * s.abandon.answered + 1e-9) - s.abandon.abandoned
  const risk = Math.max(0, s.inFlight - s.agents.idle)
  return { allowance, risk, room: Math.max(0, allowance - risk) }
}

/** E[max(0, X − a)] for X ~ Binomial(n, p): the answers expected to find no agent among `a`. */
export function expectedOverflow(n: number, p: number, a: number): number {
  if (n <= 0 || p <= 0) return 0
  if (p >= 1) return Math.max(0, n - a)
  let pmf = (1 - p) ** n
  let sum = 0
  for (let k = 0; k <= n; k++) {
    if (k > a) sum += (k - a) * pmf
    pmf = (pmf * (n - k) * p) / ((k + 1) * (1 - p))
  }
  return sum
}

export function pace(s: PacerState, c: PacerConfig): PacerDecision {
  const cap = c.abandonCap ?? DEFAULT_ABANDON_CAP
  const { idle, talking, wrapUp } = s.agents
  const inFlight = s.inFlight
  const { allowance, risk, room } = abandonRoom(s, cap)
  const safe = Math.max(0, idle - inFlight)
  const leads = s.leadsReady ?? Number.POSITIVE_INFINITY
  const windowRate = s.abandon.answered > 0 ? s.abandon.abandoned / s.abandon.answered : 0
  const log: Record<string, unknown> = {
    mode: c.mode,
    idle,
    talking,
    wrapUp,
    inFlight,
    cap,
    windowAnswered: s.abandon.answered,
    windowAbandoned: s.abandon.abandoned,
    windowRate: round(windowRate, 4),
    allowance,
    risk,
    riskyRoom: room,
    safe,
  }
  if (Number.isFinite(leads)) log.leadsReady = leads

  const finish = (wanted: number, why: string): PacerDecision => {
    const want = Math.max(0, Math.floor(wanted))
    let calls = want
    const limits: string[] = []
    const clippedBy: string[] = []
    if (calls > safe + room) {
      clippedBy.push('abandon_cap')
      calls = safe + room
      limits.push(
        room > 0
          ? `held to ${calls} by the abandon cap (${allowance - risk} of ${Math.max(0, allowance)} allowed abandons free; ${s.abandon.abandoned} abandoned of ${s.abandon.answered} answered = ${pct(windowRate)}, cap ${pct(cap)})`
          : `held to ${calls} by the abandon cap (no abandon allowance free: ${s.abandon.abandoned} abandoned of ${s.abandon.answered} answered, cap ${pct(cap)}, ${risk} calls in flight beyond idle agents)`,
      )
    }
    if (calls > leads) {
      clippedBy.push('leads')
      calls = leads
      limits.push(`only ${leads} leads ready`)
    }
    log.wanted = want
    log.calls = calls
    log.clippedBy = clippedBy.length ? clippedBy.join(',') : null
    return { calls, reason: `${c.mode}: ${calls} call${calls === 1 ? '' : 's'} — ${why}${limits.length ? `; ${limits.join('; ')}` : ''}`, log }
  }

  switch (c.mode) {
    case 'preview': {
      return finish(safe, `${idle} idle agents, ${inFlight} already previewing or dialling: offer ${safe} lead${safe === 1 ? '' : 's'} for the agents to dial`)
    }
    case 'progressive':
      return finish(safe, `one call per idle agent without a call (${idle} idle, ${inFlight} in flight)`)
    case 'power': {
      const ratio = c.ratio ?? DEFAULT_POWER_RATIO
      const target = Math.round(ratio * idle)
      log.ratio = ratio
      log.targetInFlight = target
      return finish(Math.max(0, target - inFlight), `fixed ratio ${ratio} × ${idle} idle agents = ${target} calls in flight, ${inFlight} already`)
    }
    case 'predictive': {
      const minSamples = c.minSamples ?? DEFAULT_MIN_SAMPLES
      const target = c.targetAbandon ?? cap / 2
      const st = s.stats
      log.samples = st.samples
      log.target = target
      if (st.samples < minSamples || !(st.answerRate > 0)) {
        log.learning = true
        return finish(safe, `learning (${st.samples} of ${minSamples} calls measured): one call per idle agent without a call`)
      }
      const p = Math.min(1, Math.max(0.01, st.answerRate))
      const ring = Math.max(1, st.meanRingSeconds)
      const talk = Math.max(1, st.meanTalkSeconds)
      const wrap = Math.max(0, st.meanWrapSeconds)
      // Agents expected free by the time calls placed now answer: busy agents finish at the rate busy / (talk + wrap)
      // (the renewal rate, whatever the distributions), over the mean ring time of an answered call.
      // With each agent's elapsed time and measured durations, each agent's own chance to be free in time.
      const handle = talk + wrap
      const horizon = ring + GRACE_SECONDS
      const fromBusy =
        s.busy && st.talkSamples?.length && st.wrapSamples?.length
          ? s.busy.reduce((sum, agent) => sum + freeChance(agent, horizon, wrap, st.talkSamples!, st.wrapSamples!), 0)
          : (talking + wrapUp) * Math.min(1, horizon / handle)
      const recent = s.recent
      const recentRate = recent && recent.answered >= RECENT_MIN_ANSWERED ? recent.abandoned / recent.answered : null
      const brake = recentRate !== null && recentRate > target ? Math.max(0.25, target / recentRate) : 1
      const agentsSoon = idle + brake * fromBusy
      // The answers to come: answered calls waiting are certain, a ringing call answers with the chance left at its age.
      const ages = s.ringing
      const waiting = ages ? Math.max(0, inFlight - ages.length) : 0
      const chances = ages ? ages.map((age) => answerChance(age, p, st.answerRings, st.failRings)) : Array.from({ length: inFlight }, () => p)
      let dist = answersDistribution(waiting, chances)
      const expectedInFlight = waiting + chances.reduce((a, b) => a + b, 0)
      const ceiling = Math.ceil((c.maxRatio ?? DEFAULT_MAX_RATIO) * Math.max(idle, agentsSoon)) - inFlight
      // The largest n whose predicted abandons stay within the target share of predicted answers.
      let n = 0
      let predicted = expectedInFlight > 0 ? overflow(dist, agentsSoon) / expectedInFlight : 0
      while (n < ceiling) {
        const next = addBernoulli(dist, p)
        const answers = expectedInFlight + (n + 1) * p
        const over = overflow(next, agentsSoon)
        if (over > target * answers) break
        dist = next
        n++
        predicted = over / answers
      }
      Object.assign(log, {
        answerRate: round(p),
        meanRing: round(ring, 1),
        meanTalk: round(talk, 1),
        meanWrap: round(wrap, 1),
        expectedAnswersInFlight: round(expectedInFlight, 2),
        freeFromBusy: round(fromBusy, 2),
        recentRate: recentRate === null ? null : round(recentRate, 4),
        brake: round(brake),
        agentsSoon: round(agentsSoon, 2),
        predictedAbandon: round(predicted, 4),
      })
      const wanted = Math.max(n, safe)
      const why =
        `answer rate ${pct(p)}, ${idle} idle + ${round(fromBusy, 1)} expected free within ${Math.round(ring)} s` +
        `${brake < 1 ? ` (braked ×${round(brake, 2)}: last minutes abandoned ${pct(recentRate ?? 0)})` : ''}` +
        `; ${round(expectedInFlight, 1)} answers expected from ${inFlight} in flight, ${n} more calls → predicted abandon ${pct(predicted)} (target ${pct(target)})`
      return finish(wanted, why)
    }
  }
}

/** Share of sorted samples above x. */
function survival(sorted: readonly number[], x: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid]! <= x) lo = mid + 1
    else hi = mid
  }
  return (sorted.length - lo) / sorted.length
}

/** The chance a call ringing for `age` seconds still answers (Bayes over the measured ring times); p without samples. */
export function answerChance(age: number, p: number, answerRings?: readonly number[], failRings?: readonly number[]): number {
  if (!answerRings?.length || !failRings?.length) return p
  const a = p * survival(answerRings, age)
  const f = (1 - p) * survival(failRings, age)
  return a + f > 0 ? a / (a + f) : 0
}

/** The distribution of the number of answers: `certain` sure ones plus one Bernoulli per chance. */
export function answersDistribution(certain: number, chances: readonly number[]): number[] {
  let dist = [1]
  for (const q of chances) dist = addBernoulli(dist, q)
  return [...Array.from({ length: certain }, () => 0), ...dist]
}

function addBernoulli(dist: readonly number[], q: number): number[] {
  const out = new Array<number>(dist.length + 1).fill(0)
  for (let k = 0; k < dist.length; k++) {
    out[k]! += dist[k]! * (1 - q)
    out[k + 1]! += dist[k]! * q
  }
  return out
}

/** E[max(0, X − a)] for X distributed as `dist`. */
function overflow(dist: readonly number[], a: number): number {
  let sum = 0
  for (let k = Math.floor(a) + 1; k < dist.length; k++) sum += (k - a) * dist[k]!
  return sum
}

/** The chance a busy agent is free within `horizon` seconds given how long it has been in its state. */
export function freeChance(
  agent: { state: 'talk' | 'wrap'; seconds: number },
  horizon: number,
  meanWrap: number,
  talks: readonly number[],
  wraps: readonly number[],
): number {
  const samples = agent.state === 'wrap' ? wraps : talks
  const within = agent.state === 'wrap' ? horizon : horizon - meanWrap
  if (within <= 0) return 0
  const alive = survival(samples, agent.seconds)
  if (alive === 0) return Math.min(1, horizon / (meanWrap + (agent.state === 'talk' ? mean(talks) : 0) || 1)) // overdue
  return (alive - survival(samples, agent.seconds + within)) / alive
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0
}
