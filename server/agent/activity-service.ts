import { and, asc, eq, lte, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { Activity, ActivityCreateBody } from '../../contract/api/activities.ts'
import { ACTIVITY_MAX_ATTEMPTS } from '../../contract/api/activities.ts'
import type { Locale } from '../../contract/locales.ts'
import type { Db } from '../db/client.ts'
import { activities, crmClients, crmLeads, crmMailings } from '../db/schema/index.ts'
import type { ActivityRow, UserRow } from '../db/schema/index.ts'
import type { AppDeps } from '../deps.ts'
import { detailError, fieldErrors } from '../http/errors.ts'
import { message } from '../../contract/messages.ts'
import { pushToUser } from '../bus/channels.ts'
import { findUser } from '../users/user-repo.ts'

// Activities (scheduled callbacks) — spec 000 §2, §3 Activity, §4 "the next is dialled automatically (an activity is
// done after 50 attempts)". Every query names the agent's site and the agent: another user's id is simply not found.
// After any change the agent's sockets (every tab, every instance) receive `activity` with the due list, the same
// answer get_activities gives, so a client can always replace its list with the last frame it heard.

export type Who = { siteId: number; userId: number }

/** More than a console could dial in a shift; the list is ordered by start, so the next ones are always in it. */
const LIST_LIMIT = 500

export function toActivity(row: ActivityRow): Activity {
  return {
    id: row.id,
    user: row.userId,
    destination: row.destination,
    client: row.clientId,
    mailing: row.mailingId,
    mailing_client: row.mailingClientId,
    campaign: row.campaignId,
    dialer: row.dialerId,
    count: row.count,
    done: row.done,
    start: row.start.toISOString(),
    end: row.end?.toISOString() ?? null,
    subject: row.subject,
    type: row.type,
    target: row.target,
    active: row.active,
    automatic_execution: row.automaticExecution,
    created_by: row.createdBy,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  }
}

function mine(who: Who): SQL {
  return and(eq(activities.siteId, who.siteId), eq(activities.userId, who.userId))!
}

/** The agent's pending activities: active and not done; only those due now unless `upcoming`. */
export async function pendingActivities(db: Db, who: Who, options: { upcoming?: boolean } = {}): Promise<Activity[]> {
  const conditions = [mine(who), eq(activities.done, false), eq(activities.active, true)]
  if (!options.upcoming) conditions.push(lte(activities.start, new Date()))
  const rows = await db
    .select()
    .from(activities)
    .where(and(...conditions))
    .orderBy(asc(activities.start), asc(activities.id))
    .limit(LIST_LIMIT)
  return rows.map(toActivity)
}

/** Tells every socket of the agent their due list changed. */
export async function pushActivities(deps: AppDeps, who: Who): Promise<void> {
  await pushToUser(deps.bus, who, { action: 'activity', activities: await pendingActivities(deps.db, who) })
}

type CrmRefs = { client?: number | null; mailing?: number | null; mailing_client?: number | null }

/** The CRM rows of `refs` that are not the site's (missing, or another site's): a field error each, never a 500. */
export async function foreignCrmRefs(db: Db, siteId: number, refs: CrmRefs): Promise<Array<keyof CrmRefs>> {
  const tables = { client: crmClients, mailing: crmMailings, mailing_client: crmLeads } as const
  const wrong: Array<keyof CrmRefs> = []
  for (const key of Object.keys(tables) as Array<keyof CrmRefs>) {
    const id = refs[key]
    if (id == null) continue
    const table = tables[key]
    const [row] = await db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.id, id), eq(table.siteId, siteId)))
    if (!row) wrong.push(key)
  }
  return wrong
}

/** POST /v1/agent/activities/: a supervisor (or admin) schedules an activity for an agent of their site. */
export async function createActivity(deps: AppDeps, caller: { user: UserRow; lang: Locale }, body: ActivityCreateBody): Promise<Activity> {
  const siteId = caller.user.siteId
  const agent = await findUser(deps.db, siteId, body.user)
  if (!agent) throw detailError(404, 'notFound', caller.lang)
  const wrong = await foreignCrmRefs(deps.db, siteId, body)
  if (wrong.length) throw fieldErrors(Object.fromEntries(wrong.map((key) => [key, [message('invalidValue', caller.lang)]])))
  const [row] = await deps.db
    .insert(activities)
    .values({
      siteId,
      userId: agent.id,
      destination: body.destination,
      clientId: body.client,
      mailingId: body.mailing,
      mailingClientId: body.mailing_client,
      campaignId: body.campaign,
      dialerId: body.dialer,
      start: body.start,
      end: body.end,
      subject: body.subject,
      type: body.type,
      target: body.target,
      active: body.active,
      automaticExecution: body.automatic_execution,
      createdBy: caller.user.id,
    })
    .returning()
  await pushActivities(deps, { siteId, userId: agent.id })
  return toActivity(row!)
}

async function findOwn(db: Db, who: Who, id: number): Promise<ActivityRow | null> {
  const [row] = await db
    .select()
    .from(activities)
    .where(and(mine(who), eq(activities.id, id)))
  return row ?? null
}

/**
 * Marks the agent's own activity done (REST and the socket's done_activity). Null when the agent has no such
 * activity: another user's id changes nothing. Marking it again answers it unchanged and pushes nothing.
 */
export async function markActivityDone(deps: AppDeps, who: Who, id: number): Promise<Activity | null> {
  const [updated] = await deps.db
    .update(activities)
    .set({ done: true, updated: new Date() })
    .where(and(mine(who), eq(activities.id, id), eq(activities.done, false)))
    .returning()
  if (!updated) {
    const row = await findOwn(deps.db, who, id)
    return row ? toActivity(row) : null
  }
  await pushActivities(deps, who)
  return toActivity(updated)
}

/**
 * One more dial attempt of the agent's own activity; the ACTIVITY_MAX_ATTEMPTS-th makes it done (spec 000 §4, §9).
 * One UPDATE, so two attempts at once both count. A done activity is answered unchanged.
 */
export async function recordAttempt(deps: AppDeps, who: Who, id: number): Promise<Activity | null> {
  const [updated] = await deps.db
    .update(activities)
    .set({
      count: sql`${activities.count} + 1`,
      done: sql`${activities.count} + 1 >= ${ACTIVITY_MAX_ATTEMPTS}`,
      updated: new Date(),
    })
    .where(and(mine(who), eq(activities.id, id), eq(activities.done, false)))
    .returning()
  if (!updated) {
    const row = await findOwn(deps.db, who, id)
    return row ? toActivity(row) : null
  }
  await pushActivities(deps, who)
  return toActivity(updated)
}
