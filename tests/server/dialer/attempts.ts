import { randomUUID } from 'node:crypto'
import type { Db } from '../../../server/db/client.ts'
import { callRecords } from '../../../server/db/schema/index.ts'
import { ABANDONED_TEXT } from '../../../server/dialer/store.ts'

// A campaign's finished dialer attempts as the runner leaves them in call_records (the pacer's statistics and the
// simulator's history read them): step 1 on the trunk, and the agent's leg with its wrap-up when one was given.

export type Attempt = {
  ring: number
  answered: boolean
  talk?: number
  wrap?: number
  abandoned?: boolean
  /** When it started, before `now` (default 5 minutes). */
  minutesAgo?: number
  /** The dial status of an unanswered attempt (default 480, no answer). */
  status?: number
}

export async function insertAttempt(db: Db, siteId: number, campaign: number, a: Attempt, now: Date): Promise<void> {
  const startedAt = new Date(now.getTime() - (a.minutesAgo ?? 5) * 60_000)
  const answeredAt = a.answered ? new Date(startedAt.getTime() + a.ring * 1000) : null
  const uid = randomUUID()
  await db.insert(callRecords).values({
    siteId,
    callId: `dialer-${uid}`,
    step: 1,
    uid,
    direction: 'outbound',
    callType: 14,
    kind: 'trunk',
    phone: '011987650000',
    callee: '011987650000',
    startedAt,
    answeredAt,
    endedAt: new Date(startedAt.getTime() + (a.ring + (a.talk ?? 0)) * 1000),
    totalDuration: a.ring + (a.talk ?? 0),
    answeredDuration: a.answered ? (a.talk ?? 0) : null,
    dialStatus: a.answered ? 200 : (a.status ?? 480),
    dialStatusText: a.abandoned ? ABANDONED_TEXT : '',
    decision: { dialer: campaign, campaign },
  })
  if (a.wrap !== undefined) {
    const legUid = randomUUID()
    await db.insert(callRecords).values({
      siteId,
      callId: `leg-${legUid}`,
      step: 1,
      uid: legUid,
      parentUid: uid,
      direction: 'outbound',
      callType: 14,
      kind: 'queue',
      startedAt: answeredAt!,
      afterServiceDuration: a.wrap,
      decision: { action: 'relay' },
    })
  }
}
