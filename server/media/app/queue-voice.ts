import { and, desc, eq, gte, isNotNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { callRecords } from '../../db/schema/index.ts'
import type { QueueRow } from '../../telephony/control/acd.ts'
import { resolvePromptSet } from '../library.ts'

// What a caller waiting in a queue hears besides the music (README.md "Queues hold callers"): the queue's position
// and estimated-wait announcements, spoken from the keyed prompts of the queue's language (library.ts
// resolvePromptSet: `you-are-number`, `digit-0`…`digit-9`, `in-line`, `estimated-wait`, `minutes`). A number is
// spoken digit by digit ("one two" for 12): every language has the ten digits, no language needs its own grammar,
// and an administrator re-records eleven files, not a hundred. A prompt the language lacks is left out, never
// replaced by another language's.

/** The files that say `n` digit by digit (empty when a digit's prompt is missing: a half-spoken number misleads). */
export function spokenNumber(prompts: ReadonlyMap<string, string>, n: number): string[] {
  const files = String(Math.max(0, Math.floor(n)))
    .split('')
    .map((d) => prompts.get(`digit-${d}`))
  return files.every((f): f is string => typeof f === 'string') ? files : []
}

/** "You are number 3 in line." */
export function positionPrompts(prompts: ReadonlyMap<string, string>, position: number): string[] {
  const digits = spokenNumber(prompts, position)
  if (digits.length === 0 || !prompts.has('you-are-number')) return []
  return [prompts.get('you-are-number')!, ...digits, ...(prompts.has('in-line') ? [prompts.get('in-line')!] : [])]
}

/** "Estimated wait time: 2 minutes." (whole minutes, at least one). */
export function waitPrompts(prompts: ReadonlyMap<string, string>, seconds: number): string[] {
  const digits = spokenNumber(prompts, Math.max(1, Math.ceil(seconds / 60)))
  if (digits.length === 0 || !prompts.has('estimated-wait')) return []
  return [prompts.get('estimated-wait')!, ...digits, ...(prompts.has('minutes') ? [prompts.get('minutes')!] : [])]
}

/** How far back the answered calls of a queue tell its estimated wait. */
const RECENT_MS = 60 * 60_000
const RECENT_CALLS = 20

/**
 * The estimated wait of a caller at `position` (1 = next): the mean wait of the queue's last answered callers (the
 * last hour, at most 20) — each caller ahead is one such turn shared by the members taking calls — or null when
 * nobody was answered lately (the announcement is then left out rather than guessed).
 */
export async function estimatedWaitSeconds(db: Db, siteId: number, queueId: number, position: number, freeing: number, now = new Date()): Promise<number | null> {
  const rows = await db
    .select({ wait: callRecords.queueWait })
    .from(callRecords)
    .where(
      and(
        eq(callRecords.siteId, siteId),
        eq(callRecords.queueId, queueId),
        eq(callRecords.kind, 'queue'),
        isNotNull(callRecords.answeredAt),
        isNotNull(callRecords.queueWait),
        gte(callRecords.startedAt, new Date(now.getTime() - RECENT_MS)),
      ),
    )
    .orderBy(desc(callRecords.startedAt))
    .limit(RECENT_CALLS)
  if (rows.length === 0) return null
  const mean = rows.reduce((sum, r) => sum + (r.wait ?? 0), 0) / rows.length
  return Math.max(1, (mean * position) / Math.max(1, freeing))
}

/** Per queue: the prompts of its language and its current estimate, refreshed by the brain's tick. */
export class QueueVoice {
  private readonly prompts = new Map<string, { at: number; set: Map<string, string> }>()
  private readonly db: Db
  constructor(db: Db) {
    this.db = db
  }

  /** The keyed prompts of `language` for a site (read again at most every 30 s, so a re-recorded digit is heard). */
  async promptsOf(siteId: number, language: string): Promise<Map<string, string>> {
    const key = `${siteId}:${language}`
    const cached = this.prompts.get(key)
    if (cached && Date.now() - cached.at < 30_000) return cached.set
    const set = await resolvePromptSet(this.db, siteId, language)
    this.prompts.set(key, { at: Date.now(), set })
    return set
  }

  /**
   * What to say to the caller at `position` of `queue` now: the position (when the queue announces it) and the
   * estimated wait (when it announces that and has an estimate).
   */
  async say(siteId: number, queue: QueueRow, position: number, freeing: number): Promise<string[]> {
    if (!queue.announcePosition && !queue.announceHoldtime) return []
    const prompts = await this.promptsOf(siteId, queue.language)
    const files: string[] = []
    if (queue.announcePosition) files.push(...positionPrompts(prompts, position))
    if (queue.announceHoldtime) {
      const seconds = await estimatedWaitSeconds(this.db, siteId, queue.id, position, freeing)
      if (seconds !== null) files.push(...waitPrompts(prompts, seconds))
    }
    return files
  }
}
