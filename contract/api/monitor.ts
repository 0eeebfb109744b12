import * as v from 'valibot'
import { message } from '../messages.ts'
import { Id } from './agent.ts'

// Ours (issue 19 item 1, beyond the spec): a supervisor listens to an agent's call, whispers to the agent, or barges in.
// The media app puts itself in the call's media path (server/media/app/spy.ts) and calls the supervisor's webphone;
// `mode` may change while the session lasts. Permission `sites.monitor_agent`; every start, change and end is written
// to the audit log (entity agent.supervisor_action). Paths are relative to /api.
export const MONITOR_PATHS = {
  start: '/v1/agent/supervisor/monitor/',
  mode: '/v1/agent/supervisor/monitor/:id/mode/',
  stop: '/v1/agent/supervisor/monitor/:id/stop/',
} as const

/** listen: the supervisor hears both, nobody hears them; whisper: the agent hears them; barge: both do. */
export const MONITOR_MODES = ['listen', 'whisper', 'barge'] as const
export type MonitorMode = (typeof MONITOR_MODES)[number]

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)

export const MonitorStartBody = v.object({ user_id: Id, mode: v.picklist(MONITOR_MODES, invalid) })
export type MonitorStartBody = v.InferOutput<typeof MonitorStartBody>

export const MonitorModeBody = v.object({ mode: v.picklist(MONITOR_MODES, invalid) })
export type MonitorModeBody = v.InferOutput<typeof MonitorModeBody>

export const MonitorIdParams = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/, invalid)) })

/**
 * A monitoring session: the supervisor's webphone rings with it (`X-Atende-Monitor: <mode>`). `listen_only`: the agent
 * took the call directly on a desk phone (not through the media app, not in the browser webphone), so rtpengine copies
 * its media to the supervisor and whisper and barge answer 409. A browser agent's direct call can be whispered to and
 * barged in on through a second leg the browser mixes (server/media/README.md "Monitoring").
 */
export type MonitorSession = { id: string; user_id: number; call_id: string; mode: MonitorMode; started_at: string; listen_only: boolean }
