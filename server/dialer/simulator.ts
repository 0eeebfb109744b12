import { pace, type PacerConfig, type PacerDecision, type PacerState } from './pacer.ts'

// A discrete-event simulator of a dialer campaign (issue 18 item 5): N agents, a pacer tick every second calling the
// live dialer's pace(), calls that answer, ring out or come back busy with the given rates (or drawn from a campaign's
// past results), talk and wrap-up times from distributions, an answered call waiting up to two seconds for an agent
// before it counts as abandoned. It measures what the live runtime would: the statistics pace() reads are re-measured
// each minute from the simulated calls themselves. Seeded, so the same input gives the same report.

// ---------------------------------------------------------------------------------------------------------------
// Random numbers and distributions
// ---------------------------------------------------------------------------------------------------------------

/** mulberry32: a small seeded PRNG (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Seconds. */
export type Dist =
  | { kind: 'fixed'; value: number }
  | { kind: 'uniform'; min: number; max: number }
  | { kind: 'exponential'; mean: number; min?: number; max?: number }
  /** Draws one of the values (e.g. measured talk times). */
  | { kind: 'empirical'; values: readonly number[] }

export function sample(d: Dist, random: () => number): number {
  switch (d.kind) {
    case 'fixed':
      return d.value
    case 'uniform':
      return d.min + (d.max - d.min) * random()
    case 'exponential': {
      const x = -d.mean * Math.log(1 - random())
      return Math.min(d.max ?? Number.POSITIVE_INFINITY, Math.max(d.min ?? 0, x))
    }
    case 'empirical':
      return d.values.length ? d.values[Math.floor(random() * d.values.length)]! : 0
  }
}

export function meanOf(d: Dist): number {
  switch (d.kind) {
    case 'fixed':
      return d.value
    case 'uniform':
      return (d.min + d.max) / 2
    case 'exponential':
      return d.mean
    case 'empirical':
      return d.values.length ? d.values.reduce((a, b) => a + b, 0) / d.values.length : 0
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Configuration and report
// ---------------------------------------------------------------------------------------------------------------

/** One past dial attempt of a campaign (status 200 = answered). */
export type PastResult = { status: number; ringSeconds: number; talkSeconds?: number; wrapSeconds?: number }

export type SimConfig = {
  seed: number
  agents: number
  /** Simulated time, in hours. */
  hours: number
  pacer: PacerConfig
  /** Shares of dial attempts (the rest: other failures, e.g. number does not exist). Ignored with `history`. */
  rates?: { answer: number; busy: number; noAnswer: number }
  /** Seconds from origination to the outcome, per outcome. */
  ring?: { answer?: Dist; busy?: Dist; noAnswer?: Dist; other?: Dist }
  talk: Dist
  wrap: Dist
  /** preview: seconds an agent reads the lead before dialling. */
  preview?: Dist
  /** Replay: each dial draws one of these (bootstrap); talk/wrap from the row when given, else from the distributions. */
  history?: readonly PastResult[]
  /** Seconds an answered call waits for an agent before it is abandoned (2). */
  graceSeconds?: number
  /** Seconds between pacer ticks (1). */
  tickSeconds?: number
  /** Seconds between re-measurements of the statistics (60). */
  statsEverySeconds?: number
  /** Dial attempts the statistics look back over (500). */
  statsWindow?: number
  /** Minutes of the adaptive brake's window (15). */
  recentMinutes?: number
  /** The abandon window before the run (the last 30 days' answered and abandoned). */
  initialWindow?: { answered: number; abandoned: number }
  /** Called after each tick with a decision that placed calls or was clipped (for logs and tests). */
  onDecision?: (atSeconds: number, decision: PacerDecision, state: PacerState) => void
}

export type SimReport = {
  mode: PacerConfig['mode']
  ratio: number | null
  agents: number
  hours: number
  seed: number
  dials: number
  answered: number
  abandoned: number
  /** Abandoned share of answered calls in the run. */
  abandonRate: number
  /** The worst abandon rate of the rolling window (history + run) seen at any moment once 100 calls were answered. */
  maxWindowRate: number
  /** Moments the window's abandons passed ⌊cap × answered⌋ (must be 0). */
  capBreaches: number
  /** Talk share of logged-in agent time (the occupancy). */
  occupancy: number
  wrapShare: number
  /** Share of agent time idle or previewing. */
  idleShare: number
  answeredPerAgentHour: number
  dialsPerSecond: number
  /** Decisions the abandon cap clipped. */
  capClipped: number
}

// ---------------------------------------------------------------------------------------------------------------
// Simulation
// ---------------------------------------------------------------------------------------------------------------

type Event =
  | { t: number; seq: number; type: 'tick' }
  | { t: number; seq: number; type: 'stats' }
  | { t: number; seq: number; type: 'outcome'; callId: number; answered: boolean; ring: number; talk: number; wrap: number }
  | { t: number; seq: number; type: 'talk_end'; wrap: number; handle: number }
  | { t: number; seq: number; type: 'wrap_end'; handle: number }
  | { t: number; seq: number; type: 'grace_end'; callId: number }
  | { t: number; seq: number; type: 'preview_end' }

type Unsequenced = Event extends infer E ? (E extends Event ? Omit<E, 'seq'> : never) : never

/** A binary min-heap on (t, seq): ties resolve in insertion order, so runs are deterministic. */
class Queue {
  private heap: Event[] = []
  get size() {
    return this.heap.length
  }
  push(e: Event) {
    const h = this.heap
    h.push(e)
    let i = h.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (before(h[parent]!, h[i]!)) break
      ;[h[parent], h[i]] = [h[i]!, h[parent]!]
      i = parent
    }
  }
  pop(): Event | undefined {
    const h = this.heap
    const top = h[0]
    const last = h.pop()
    if (h.length > 0 && last) {
      h[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < h.length && before(h[l]!, h[m]!)) m = l
        if (r < h.length && before(h[r]!, h[m]!)) m = r
        if (m === i) break
        ;[h[m], h[i]] = [h[i]!, h[m]!]
        i = m
      }
    }
    return top
  }
}

function before(a: Event, b: Event): boolean {
  return a.t < b.t || (a.t === b.t && a.seq < b.seq)
}

const DEFAULT_RING = {
  answer: { kind: 'uniform', min: 5, max: 20 },
  busy: { kind: 'uniform', min: 2, max: 5 },
  noAnswer: { kind: 'fixed', value: 30 },
  other: { kind: 'uniform', min: 1, max: 4 },
} as const satisfies Record<string, Dist>

const THIRTY_DAYS = 30 * 86_400

export function simulate(config: SimConfig): SimReport {
  const random = seededRandom(config.seed)
  const duration = config.hours * 3600
  const grace = config.graceSeconds ?? 2
  const tick = config.tickSeconds ?? 1
  const statsEvery = config.statsEverySeconds ?? 60
  const statsWindow = config.statsWindow ?? 500
  const recentSeconds = (config.recentMinutes ?? 15) * 60
  const cap = config.pacer.abandonCap ?? 0.03
  const rates = config.rates ?? { answer: 0.3, busy: 0.1, noAnswer: 0.5 }
  const ring = { ...DEFAULT_RING, ...config.ring }
  const preview = config.preview ?? { kind: 'uniform', min: 5, max: 15 }
  const isPreview = config.pacer.mode === 'preview'

  const queue = new Queue()
  let seq = 0
  const at = (e: Unsequenced) => queue.push({ ...e, seq: seq++ } as Event)

  // Agents, as counts: idle (includes agents previewing or waiting for their own preview call), talking, wrapping.
  let idle = config.agents
  let talking = 0
  let wrapping = 0
  let inFlight = 0 // ringing + answered waiting + previews being read
  const waiting: { id: number; talk: number; wrap: number }[] = []
  const ringing = new Map<number, number>() // call id → origination time
  const busyAgents = new Map<number, { state: 'talk' | 'wrap'; since: number }>() // handle id → state
  let handleIds = 0
  let callIds = 0

  // Measurements.
  let dials = 0
  let answered = 0
  let abandoned = 0
  let talkSeconds = 0
  let wrapSeconds = 0
  let capClipped = 0
  let capBreaches = 0
  let maxWindowRate = 0
  const initial = config.initialWindow ?? { answered: 0, abandoned: 0 }
  // Rolling windows: [time, abandoned?] of answered calls in the run (the initial history counts for the first 30 days).
  const answers: { t: number; abandoned: boolean }[] = []
  let windowAnswered = initial.answered
  let windowAbandoned = initial.abandoned
  let windowStart = 0 // index into answers of the first still in the 30-day window
  let recentStart = 0
  let recentAnswered = 0
  let recentAbandoned = 0
  const outcomes: { answered: boolean; ring: number }[] = []
  const handles: { talk: number; wrap: number }[] = []
  let stats: PacerState['stats'] = { samples: 0, answerRate: 0, meanRingSeconds: 0, meanTalkSeconds: 0, meanWrapSeconds: 0 }

  const clampToRun = (start: number, length: number) => Math.max(0, Math.min(start + length, duration) - start)

  const startTalk = (t: number, talk: number, wrap: number) => {
    talking++
    talkSeconds += clampToRun(t, talk)
    handles.push({ talk, wrap })
    if (handles.length > statsWindow) handles.shift()
    const handle = ++handleIds
    busyAgents.set(handle, { state: 'talk', since: t })
    at({ t: t + talk, type: 'talk_end', wrap, handle })
  }

  const recordAnswer = (t: number) => {
    answered++
    windowAnswered++
    recentAnswered++
    answers.push({ t, abandoned: false })
  }

  const dial = (t: number) => {
    dials++
    inFlight++
    let answeredCall: boolean
    let ringTime: number
    let talk = sample(config.talk, random)
    let wrap = sample(config.wrap, random)
    if (config.history && config.history.length > 0) {
      const row = config.history[Math.floor(random() * config.history.length)]!
      answeredCall = row.status === 200
      ringTime = row.ringSeconds
      if (row.talkSeconds != null) talk = row.talkSeconds
      if (row.wrapSeconds != null) wrap = row.wrapSeconds
    } else {
      const u = random()
      answeredCall = u < rates.answer
      const d = answeredCall
        ? ring.answer
        : u < rates.answer + rates.busy
          ? ring.busy
          : u < rates.answer + rates.busy + rates.noAnswer
            ? ring.noAnswer
            : ring.other
      ringTime = sample(d, random)
    }
    const callId = ++callIds
    ringing.set(callId, t)
    at({ t: t + ringTime, type: 'outcome', callId, answered: answeredCall, ring: ringTime, talk, wrap })
  }

  const agentFree = (t: number) => {
    const next = waiting.shift()
    if (next) {
      inFlight--
      startTalk(t, next.talk, next.wrap)
    } else idle++
  }

  const state = (now: number): PacerState => ({
    agents: { idle, talking, wrapUp: wrapping },
    inFlight,
    ringing: [...ringing.values()].map((since) => now - since),
    busy: [...busyAgents.values()].map((b) => ({ state: b.state, seconds: now - b.since })),
    stats,
    abandon: { answered: windowAnswered, abandoned: windowAbandoned },
    recent: { answered: recentAnswered, abandoned: recentAbandoned },
  })

  const checkCap = () => {
    if (windowAbandoned > Math.floor(cap * windowAnswered + 1e-9)) capBreaches++
    if (windowAnswered >= 100) maxWindowRate = Math.max(maxWindowRate, windowAbandoned / windowAnswered)
  }

  const slideWindows = (t: number) => {
    // Answers older than 30 days leave the window (the history before the run stays: runs are shorter than that).
    while (windowStart < answers.length && answers[windowStart]!.t <= t - THIRTY_DAYS) {
      windowAnswered--
      if (answers[windowStart]!.abandoned) windowAbandoned--
      windowStart++
    }
    while (recentStart < answers.length && answers[recentStart]!.t <= t - recentSeconds) {
      recentAnswered--
      if (answers[recentStart]!.abandoned) recentAbandoned--
      recentStart++
    }
  }

  at({ t: 0, type: 'stats' })
  at({ t: 0, type: 'tick' })
  for (let e = queue.pop(); e && e.t <= duration; e = queue.pop()) {
    const t = e.t
    switch (e.type) {
      case 'stats': {
        const n = outcomes.length
        const answeredOutcomes = outcomes.filter((o) => o.answered)
        stats = {
          samples: n,
          answerRate: n ? answeredOutcomes.length / n : 0,
          meanRingSeconds: answeredOutcomes.length ? answeredOutcomes.reduce((a, o) => a + o.ring, 0) / answeredOutcomes.length : 0,
          meanTalkSeconds: handles.length ? handles.reduce((a, h) => a + h.talk, 0) / handles.length : 0,
          meanWrapSeconds: handles.length ? handles.reduce((a, h) => a + h.wrap, 0) / handles.length : 0,
          answerRings: answeredOutcomes.map((o) => o.ring).sort((a, b) => a - b),
          talkSamples: handles.map((h) => h.talk).sort((a, b) => a - b),
          wrapSamples: handles.map((h) => h.wrap).sort((a, b) => a - b),
          failRings: outcomes
            .filter((o) => !o.answered)
            .map((o) => o.ring)
            .sort((a, b) => a - b),
        }
        at({ t: t + statsEvery, type: 'stats' })
        break
      }
      case 'tick': {
        slideWindows(t)
        const s = state(t)
        const decision = pace(s, config.pacer)
        if (decision.log.clippedBy && String(decision.log.clippedBy).includes('abandon_cap')) capClipped++
        if (decision.calls > 0 || decision.log.clippedBy) config.onDecision?.(t, decision, s)
        for (let k = 0; k < decision.calls; k++) {
          if (isPreview) {
            inFlight++ // the preview holds the agent's slot until the agent dials
            at({ t: t + sample(preview, random), type: 'preview_end' })
          } else dial(t)
        }
        at({ t: t + tick, type: 'tick' })
        break
      }
      case 'preview_end':
        inFlight--
        dial(t)
        break
      case 'outcome': {
        ringing.delete(e.callId)
        outcomes.push({ answered: e.answered, ring: e.ring })
        if (outcomes.length > statsWindow) outcomes.shift()
        if (!e.answered) {
          inFlight--
          break
        }
        if (idle > 0) {
          inFlight--
          idle--
          recordAnswer(t)
          startTalk(t, e.talk, e.wrap)
        } else {
          const id = e.callId
          waiting.push({ id, talk: e.talk, wrap: e.wrap })
          recordAnswer(t)
          at({ t: t + grace, type: 'grace_end', callId: id })
        }
        checkCap()
        break
      }
      case 'grace_end': {
        const index = waiting.findIndex((w) => w.id === e.callId)
        if (index >= 0) {
          waiting.splice(index, 1)
          inFlight--
          // The answer was counted when it came; it turns into an abandon now.
          abandoned++
          windowAbandoned++
          recentAbandoned++
          markAbandoned(answers, t, grace)
          checkCap()
        }
        break
      }
      case 'talk_end':
        talking--
        wrapping++
        wrapSeconds += clampToRun(t, e.wrap)
        busyAgents.set(e.handle, { state: 'wrap', since: t })
        at({ t: t + e.wrap, type: 'wrap_end', handle: e.handle })
        break
      case 'wrap_end':
        wrapping--
        busyAgents.delete(e.handle)
        agentFree(t)
        break
    }
  }

  const agentSeconds = config.agents * duration
  const occupancy = talkSeconds / agentSeconds
  const wrapShare = wrapSeconds / agentSeconds
  return {
    mode: config.pacer.mode,
    ratio: config.pacer.mode === 'power' ? (config.pacer.ratio ?? 2) : null,
    agents: config.agents,
    hours: config.hours,
    seed: config.seed,
    dials,
    answered,
    abandoned,
    abandonRate: answered ? abandoned / answered : 0,
    maxWindowRate,
    capBreaches,
    occupancy,
    wrapShare,
    idleShare: Math.max(0, 1 - occupancy - wrapShare),
    answeredPerAgentHour: answered / config.agents / config.hours,
    dialsPerSecond: dials / duration,
    capClipped,
  }
}

/** Marks the answer that came `grace` seconds ago (the abandoned call's) in the rolling record. */
function markAbandoned(answers: { t: number; abandoned: boolean }[], now: number, grace: number): void {
  for (let i = answers.length - 1; i >= 0; i--) {
    const a = answers[i]!
    if (!a.abandoned && Math.abs(a.t - (now - grace)) < 1e-9) {
      a.abandoned = true
      return
    }
    if (a.t < now - grace - 1e-9) return
  }
}

/** The same campaign under several pacer configurations (modes, ratios): one report each, same seed. */
export function compare(base: Omit<SimConfig, 'pacer'>, pacers: readonly PacerConfig[]): SimReport[] {
  return pacers.map((pacer) => simulate({ ...base, pacer }))
}
