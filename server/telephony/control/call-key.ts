import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'

// How the reports count calls when the media app is in the path (server/media/README.md "Routing").
//
// The media app bridges a caller it holds (a queue caller who waited, an NPS-surveyed call, a dialer call) to the
// agent with an INVITE of its own: call control records that leg as a call of its own Call-ID whose steps all have
// `parent_uid` = the caller's step 1 (server/telephony/control/routing.ts `fromMedia`). For the customer it is one
// call, so a report counts the leg under the caller's Call-ID. A transfer's call is not merged: its step 1 has
// `parent_uid` null (it names the step it came from in `transfer_of_uid`), and later steps point to their own call's
// step 1 — so "parent_uid names a step of another call" is true of media legs only.

/** The Call-ID a step of `call_records` (alias `a`) counts under: the caller's for a media leg, else its own. */
export function callKey(a: string): SQL {
  return sql.raw(
    `coalesce((select p.call_id from call_records p where p.uid = ${a}.parent_uid and p.site_id = ${a}.site_id and p.call_id <> ${a}.call_id), ${a}.call_id)`,
  )
}

/**
 * The caller's queue step held in the media app (`decision.media`): the brain writes the agent and `answered_at` on
 * it when it bridges the caller, and the bridge leg has the agent's own answered step — whose talk time is the one
 * counted (the held step's `answered_duration` is the same conversation again).
 */
export function heldInApp(a: string): SQL {
  return sql.raw(`(${a}.kind = 'queue' and coalesce(${a}.decision->>'media', '') = 'true')`)
}

