import type { Pause } from '../../contract/api/agent.ts'
import type { PauseReportRow } from '../db/schema/agent.ts'

// A pause report as the API and the socket describe it (spec 000 §3). `seconds` counts from the start to the end, or
// to `now` while the pause runs; a pending pause has not started and counts nothing.

export function pauseSeconds(row: Pick<PauseReportRow, 'startedAt' | 'endedAt'>, now: number = Date.now()): number {
  if (!row.startedAt) return 0
  const end = row.endedAt?.getTime() ?? now
  return Math.max(0, Math.floor((end - row.startedAt.getTime()) / 1000))
}

/** A pause is exceeded once it has run longer than its type's maximum (0 means no maximum). */
export function isExceeded(row: Pick<PauseReportRow, 'startedAt' | 'endedAt' | 'maximumDuration'>, now: number = Date.now()): boolean {
  return row.maximumDuration > 0 && pauseSeconds(row, now) > row.maximumDuration
}

export function toPause(row: PauseReportRow, now: number = Date.now()): Pause {
  const started = row.startedAt
  return {
    id: row.id,
    pause_id: row.pauseId,
    description: row.description,
    started_time: started ? started.toISOString() : null,
    started_timestamp: started ? Math.floor(started.getTime() / 1000) : null,
    maximum_duration: row.maximumDuration,
    seconds: pauseSeconds(row, now),
    exceeded: row.exceeded || isExceeded(row, now),
    user: row.userId,
    started_by: row.startedBy,
    pending: row.pending,
    enable_webphone: row.enableWebphone,
    enable_webchat: row.enableWebchat,
    allow_incoming_call: row.allowIncomingCall,
    allow_outgoing_call: row.allowOutgoingCall,
    allow_incoming_chat: row.allowIncomingChat,
    allow_outgoing_chat: row.allowOutgoingChat,
    lock_screen: row.lockScreen,
  }
}
