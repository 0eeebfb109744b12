import { and, isNull, lt, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { callRecords } from '../../db/schema/index.ts'
import type { DialogsEvent, KamailioCommand } from '../types.ts'
import { applyProgress } from './records.ts'

// Call records follow Kamailio's dialogs. Every dialog ends with an event (kamailio.cfg: keepalives, timeouts, a
// failed event for each refusal), but an event can still be lost: Kamailio restarted (its dialogs live in memory), the
// evapi link was down when a call ended. So every few seconds the open records are checked against the live dialogs
// (`dialogs` → Kamailio answers the Call-IDs it has no dialog for), and a call reported gone twice in a row — the
// second time a sweep later, so an `ended` event already on its way wins — is closed. Only a live dialog keeps a
// device busy for longer than that.

/** Call-IDs per question: Kamailio prints each evapi message into its 32 KB buffer. */
const CALL_IDS_PER_COMMAND = 50
/** Open records checked per sweep (the oldest first). */
const SWEEP_LIMIT = 2000

export type ReconcilerOptions = {
  db: Db
  send(command: KamailioCommand): boolean
  /** Records younger than this are not asked about: their dialog may not exist yet (the decision is on its way). */
  graceMs?: number
  now?: () => Date
  log?: { warn(obj: object, msg?: string): void; info(obj: object, msg?: string): void }
}

export class DialogReconciler {
  private readonly options: ReconcilerOptions
  /** Reported gone by the previous sweep. */
  private suspects = new Set<string>()
  /** Reported gone by the current sweep so far. */
  private gone = new Set<string>()
  private closing: Promise<void> = Promise.resolve()
  /** Calls closed so far (tests and the log). */
  closed = 0

  constructor(options: ReconcilerOptions) {
    this.options = options
  }

  /** Asks Kamailio about the open records; false when Kamailio is not connected (nothing is closed then). */
  async sweep(): Promise<boolean> {
    const now = this.options.now?.() ?? new Date()
    const cutoff = new Date(now.getTime() - (this.options.graceMs ?? 10_000))
    const rows = await this.options.db
      .selectDistinct({ callId: callRecords.callId })
      .from(callRecords)
      .where(and(isNull(callRecords.endedAt), lt(callRecords.startedAt, cutoff)))
      .orderBy(callRecords.callId)
      .limit(SWEEP_LIMIT)
    // A new sweep: what the last one found gone is now a suspect, confirmed when this one finds it gone again.
    this.suspects = this.gone
    this.gone = new Set()
    const ids = rows.map((row) => row.callId)
    for (let i = 0; i < ids.length; i += CALL_IDS_PER_COMMAND) {
      if (!this.options.send({ cmd: 'dialogs', call_ids: ids.slice(i, i + CALL_IDS_PER_COMMAND) })) {
        this.suspects = new Set()
        return false
      }
    }
    return true
  }

  /** Kamailio's answer: closes the calls it reported gone in the previous sweep too. */
  onDialogs(event: DialogsEvent): void {
    const confirmed: string[] = []
    for (const callId of event.gone ?? []) {
      if (typeof callId !== 'string') continue
      this.gone.add(callId)
      if (this.suspects.has(callId)) confirmed.push(callId)
    }
    if (confirmed.length === 0) return
    this.closing = this.closing.then(() => this.close(confirmed)).catch((err: unknown) => this.options.log?.warn({ err }, 'reconcile: closing calls failed'))
  }

  /** Resolves when the calls confirmed gone so far are closed. */
  settled(): Promise<void> {
    return this.closing
  }

  private async close(callIds: string[]): Promise<void> {
    const at = this.options.now?.() ?? new Date()
    for (const callId of callIds) {
      await applyProgress(this.options.db, { callId, state: 'ended', code: 408, reason: 'Dialog Lost', by: '', at })
      this.suspects.delete(callId)
      this.gone.delete(callId)
      this.closed++
    }
    this.options.log?.info({ calls: callIds.length }, 'reconcile: closed call records whose dialog is gone')
  }
}

/** Open records of calls (tests): how many steps of `callId` are still open. */
export async function openSteps(db: Db, callId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(callRecords)
    .where(and(isNull(callRecords.endedAt), sql`${callRecords.callId} = ${callId}`))
  return Number(row?.n ?? 0)
}
