// The eight distribution strategies of spec 000 §3 (values of contract/entities/options.ts QUEUE_STRATEGIES), as a
// pure choice over the members available now. Everything a strategy remembers comes from the call records (acd.ts
// loads it), never from this process's memory: a restart or a second server instance decides the same way.

export type QueueStrategy = 'ringall' | 'leastrecent' | 'fewestcalls' | 'random' | 'wrandom' | 'rrmemory' | 'rrordered' | 'linear'

export type Candidate = {
  userId: number
  /** The member's place in the queue's member list. */
  position: number
  /** Lower is offered first (every strategy but wrandom serves the lowest penalty present first). */
  penalty: number
  /** When the agent last finished a call (any queue): longest idle = oldest; never = first. */
  lastCallEndedAt: Date | null
  /** Calls the agent answered in this queue in the last 24 hours. */
  callsAnswered: number
  /** When the agent signed in; "by login" strategies order by it (earliest first). */
  loginAt: Date | null
}

export type Memory = {
  /** The member this queue offered its last call to (rrmemory, rrordered). */
  lastOfferedUserId: number | null
}

/** A random number in [0, 1); tests pass a fixed sequence. */
export type Random = () => number

const time = (d: Date | null) => (d ? d.getTime() : Number.NEGATIVE_INFINITY)
const byPosition = (a: Candidate, b: Candidate) => a.position - b.position || a.userId - b.userId
const byLogin = (a: Candidate, b: Candidate) => (a.loginAt ? a.loginAt.getTime() : Infinity) - (b.loginAt ? b.loginAt.getTime() : Infinity) || byPosition(a, b)

/** The members of the lowest penalty among the candidates (Asterisk's penalty tiers). */
function lowestTier(candidates: readonly Candidate[]): Candidate[] {
  const lowest = Math.min(...candidates.map((c) => c.penalty))
  return candidates.filter((c) => c.penalty === lowest)
}

/** The next one after `last` in `ordered`, wrapping; the first when `last` is absent from the list. */
function after(ordered: readonly Candidate[], all: readonly Candidate[], last: number | null, order: (a: Candidate, b: Candidate) => number): Candidate {
  if (last === null) return ordered[0]!
  const lastMember = all.find((c) => c.userId === last)
  if (!lastMember) return ordered[0]!
  return ordered.find((c) => order(c, lastMember) > 0) ?? ordered[0]!
}

/**
 * The members to ring now: several at once for ringall, one otherwise; [] when nobody is available. `everyone` is
 * the whole member list (available or not), which round robin needs to find the place after the last member served.
 */
export function chooseMembers(
  strategy: string,
  available: readonly Candidate[],
  memory: Memory,
  random: Random = Math.random,
  everyone: readonly Candidate[] = available,
): Candidate[] {
  if (available.length === 0) return []
  if (strategy === 'wrandom') {
    // Weighted by penalty: weight 1/(1 + penalty), so penalty 0 is twice as likely as penalty 1.
    const weights = available.map((c) => 1 / (1 + Math.max(0, c.penalty)))
    let pick = random() * weights.reduce((a, b) => a + b, 0)
    for (let i = 0; i < available.length; i++) {
      pick -= weights[i]!
      if (pick < 0) return [available[i]!]
    }
    return [available[available.length - 1]!]
  }
  const tier = lowestTier(available)
  switch (strategy as QueueStrategy) {
    case 'ringall':
      return [...tier].sort(byPosition)
    case 'leastrecent':
      return [[...tier].sort((a, b) => time(a.lastCallEndedAt) - time(b.lastCallEndedAt) || byPosition(a, b))[0]!]
    case 'fewestcalls':
      return [[...tier].sort((a, b) => a.callsAnswered - b.callsAnswered || byPosition(a, b))[0]!]
    case 'random':
      return [tier[Math.min(tier.length - 1, Math.floor(random() * tier.length))]!]
    case 'rrmemory':
      return [after([...tier].sort(byPosition), everyone, memory.lastOfferedUserId, byPosition)]
    case 'rrordered':
      return [after([...tier].sort(byLogin), everyone, memory.lastOfferedUserId, byLogin)]
    case 'linear':
      return [[...tier].sort(byLogin)[0]!]
    default:
      return [[...tier].sort(byPosition)[0]!]
  }
}
