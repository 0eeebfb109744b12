import { randomBytes } from 'node:crypto'
import { and, desc, eq, isNotNull, isNull, or } from 'drizzle-orm'
import type { Locale } from '../../../contract/locales.ts'
import type { MonitorMode, MonitorSession } from '../../../contract/api/monitor.ts'
import { auditSupervisorAction } from '../../agent/supervisor-audit.ts'
import type { Db } from '../../db/client.ts'
import { callRecords, pabxDevices, sites } from '../../db/schema/index.ts'
import type { UserRow } from '../../db/schema/index.ts'
import { detailError } from '../../http/errors.ts'
import { findUser } from '../../users/user-repo.ts'
import type { MediaBrain } from './brain.ts'
import { LISTEN_ONLY } from './protocol.ts'
import type { WorkerEvent } from './protocol.ts'

// The server's side of monitoring (issue 19 item 1): a supervisor starts listening to, whispering to or barging in on
// an agent's answered call; the media app (spy.ts) puts the call's media through itself and calls the supervisor's
// device. Every start, change of mode and end (with who ended it and how long it lasted) goes to the audit log
// (`agent.supervisor_action`, object = the agent; `command` monitor_start / monitor_mode / monitor_end). Sessions live in
// this server's memory while they last (a server restart ends the record of them: the media app ends them too).

type Live = {
  id: string
  siteId: number
  supervisorId: number
  agentId: number
  callId: string
  mode: MonitorMode
  startedAt: Date
  started: boolean
  /** A call the media app did not bridge: it copies the media to the supervisor, nothing goes into the call. */
  listenOnly: boolean
  waiter: ((outcome: { ok: true } | { ok: false; code: number; reason: string }) => void) | null
}

/** How long the supervisor's phone may ring before the start is given up (the worker's INVITE times out at 30 s). */
const ANSWER_WAIT_MS = 35_000

type Caller = { user: UserRow; lang: Locale }
type SpyEvent = Extract<WorkerEvent, { ev: 'spy_started' | 'spy_failed' | 'spy_ended' }>

export class MonitorDesk {
  private readonly sessions = new Map<string, Live>()
  private readonly db: Db
  private readonly brain: MediaBrain
  constructor(db: Db, brain: MediaBrain) {
    this.db = db
    this.brain = brain
    brain.onSpy = (event) => void this.onEvent(event).catch(() => {})
  }

  /** Sessions going on (tests). */
  live(): MonitorSession[] {
    return [...this.sessions.values()].map((s) => this.view(s))
  }

  async start(caller: Caller, userId: number, mode: MonitorMode): Promise<MonitorSession> {
    const siteId = caller.user.siteId
    const agent = await findUser(this.db, siteId, userId)
    if (!agent) throw detailError(404, 'notFound', caller.lang)
    const [step] = await this.db
      .select({ callId: callRecords.callId, callerUserId: callRecords.callerUserId })
      .from(callRecords)
      // The agent took it (userId) or placed it (callerUserId: a call out through a trunk has no answering user).
      .where(
        and(
          eq(callRecords.siteId, siteId),
          or(eq(callRecords.userId, agent.id), eq(callRecords.callerUserId, agent.id)),
          isNotNull(callRecords.answeredAt),
          isNull(callRecords.endedAt),
        ),
      )
      .orderBy(desc(callRecords.id))
      .limit(1)
    if (!step) throw detailError(409, 'agentNotInCall', caller.lang)
    if (caller.user.deviceId === null) throw detailError(409, 'supervisorWithoutDevice', caller.lang)
    if (!this.brain.connected) throw detailError(503, 'telephonyUnavailable', caller.lang)
    const [site] = await this.db.select({ domain: sites.domain }).from(sites).where(eq(sites.id, siteId))
    // An agent whose extension is a browser webphone (the device's `webrtc`) can take a second leg for whisper and barge
    // on a call they took directly; a desk phone stays listen only there (README.md "Monitoring").
    const [device] =
      agent.deviceId === null ? [] : await this.db.select({ webrtc: pabxDevices.webrtc }).from(pabxDevices).where(eq(pabxDevices.id, agent.deviceId))
    const supervisorName = (caller.user.firstName || caller.user.username).replace(/[^\p{L}\p{N} ._-]/gu, '')
    const live: Live = {
      id: randomBytes(8).toString('hex'),
      siteId,
      supervisorId: caller.user.id,
      agentId: agent.id,
      callId: step.callId,
      mode,
      startedAt: new Date(),
      started: false,
      listenOnly: false,
      waiter: null,
    }
    await auditSupervisorAction(this.db, {
      siteId,
      supervisorId: caller.user.id,
      agentId: agent.id,
      command: 'monitor_start',
      detail: { mode, call_id: step.callId, monitor: live.id },
    })
    this.sessions.set(live.id, live)
    const outcome = await new Promise<{ ok: true } | { ok: false; code: number; reason: string }>((resolve) => {
      const timer = setTimeout(() => resolve({ ok: false, code: 408, reason: 'No Answer' }), ANSWER_WAIT_MS)
      timer.unref()
      live.waiter = (result) => {
        clearTimeout(timer)
        resolve(result)
      }
      const name = (agent.firstName || agent.username).replace(/[^\p{L}\p{N} ._-]/gu, '')
      try {
        this.brain.command({
          cmd: 'spy_start',
          id: live.id,
          call: step.callId,
          target: `sip:spy.${caller.user.id}@${site!.domain}`,
          headers: [`X-Atende-Monitor: ${mode}`, `X-Atende-Monitor-Agent: ${name}`],
          mode,
          ...(device?.webrtc
            ? {
                coach: {
                  target: `sip:whisper.${agent.id}@${site!.domain}`,
                  headers: [`X-Atende-Monitor-Supervisor: ${supervisorName}`],
                  side: step.callerUserId === agent.id ? ('caller' as const) : ('callee' as const),
                },
              }
            : {}),
        })
      } catch {
        live.waiter({ ok: false, code: 503, reason: 'Media App Unavailable' })
      }
    })
    live.waiter = null
    if (!outcome.ok) {
      if (this.sessions.delete(live.id)) await this.audit(live, 'monitor_end', { by: 'failed', code: outcome.code, reason: outcome.reason, seconds: 0 })
      // 409: whisper or barge on a call the agent took directly (only listening is possible), or no such call in the
      // media path; other codes: the supervisor.
      if (outcome.code === 409 && outcome.reason === LISTEN_ONLY) throw detailError(409, 'monitorListenOnly', caller.lang)
      if (outcome.code === 409) throw detailError(409, 'monitorUnavailable', caller.lang)
      if (outcome.code === 503) throw detailError(503, 'telephonyUnavailable', caller.lang)
      throw detailError(409, 'agentNotInCall', caller.lang)
    }
    return this.view(live)
  }

  async changeMode(caller: Caller, id: string, mode: MonitorMode): Promise<MonitorSession> {
    const live = this.mine(caller, id)
    if (live.mode === mode) return this.view(live)
    if (live.listenOnly) throw detailError(409, 'monitorListenOnly', caller.lang)
    this.brain.command({ cmd: 'spy_mode', id, mode })
    live.mode = mode
    await this.audit(live, 'monitor_mode', { mode })
    return this.view(live)
  }

  async stop(caller: Caller, id: string): Promise<MonitorSession> {
    const live = this.mine(caller, id)
    try {
      this.brain.command({ cmd: 'spy_stop', id })
    } catch {
      // the app is gone: so is the session
      this.sessions.delete(id)
      await this.audit(live, 'monitor_end', { by: 'app', seconds: this.seconds(live) })
    }
    return this.view(live)
  }

  private mine(caller: Caller, id: string): Live {
    const live = this.sessions.get(id)
    if (!live || live.siteId !== caller.user.siteId || live.supervisorId !== caller.user.id) throw detailError(404, 'notFound', caller.lang)
    return live
  }

  private async onEvent(event: SpyEvent): Promise<void> {
    const live = this.sessions.get(event.id)
    if (!live) return
    if (event.ev === 'spy_started') {
      live.started = true
      live.listenOnly = event.listenOnly === true
      live.startedAt = new Date()
      live.waiter?.({ ok: true })
      return
    }
    if (event.ev === 'spy_failed') {
      if (live.waiter) return live.waiter({ ok: false, code: event.code, reason: event.reason })
      return
    }
    if (live.waiter) return live.waiter({ ok: false, code: 480, reason: 'Ended Before Answer' })
    this.sessions.delete(live.id)
    await this.audit(live, 'monitor_end', { by: event.by, seconds: this.seconds(live) })
  }

  private seconds(live: Live): number {
    return Math.round((Date.now() - live.startedAt.getTime()) / 1000)
  }

  private audit(live: Live, command: string, detail: Record<string, unknown>): Promise<void> {
    return auditSupervisorAction(this.db, {
      siteId: live.siteId,
      supervisorId: live.supervisorId,
      agentId: live.agentId,
      command,
      detail: { mode: live.mode, call_id: live.callId, monitor: live.id, ...detail },
    })
  }

  private view(live: Live): MonitorSession {
    return {
      id: live.id,
      user_id: live.agentId,
      call_id: live.callId,
      mode: live.mode,
      started_at: live.startedAt.toISOString(),
      listen_only: live.listenOnly,
    }
  }
}

const desks = new WeakMap<MediaBrain, MonitorDesk>()

/** The monitor desk of a server's media brain (one per brain). */
export function monitorDeskOf(db: Db, brain: MediaBrain): MonitorDesk {
  let desk = desks.get(brain)
  if (!desk) desks.set(brain, (desk = new MonitorDesk(db, brain)))
  return desk
}
