import { fromPromise, sendTo } from 'xstate'
import type { SnapshotFrom } from 'xstate'
import type { Pause } from '../../../contract/api/agent.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import type { agentStatusMachine } from '../../../machines/agentStatus.machine.ts'
import { pauseFlags, pauseMachine } from '../../../machines/pause.machine.ts'
import type { StartPauseRequest, StopPauseRequest } from '../../../machines/pause.machine.ts'
import type { AgentStatus } from '../../../machines/types.ts'
import type { webphoneMachine } from '../../../machines/webphone.machine.ts'
import { defineSlice, follow, followAll, sameJson, serviceSocketRef, socketEvent } from '../slice.ts'

// The agent's break (spec 000 §3, §4, §8): start, swap, stop and the exceeded justification over REST, the server's
// pause on the socket, and what a pause means to the siblings (statuses, webphone, screen lock).

/**
 * What the pause waits for (spec 000 §4: a pending pause starts when the webphone status is not_inuse,
 * do_not_disturb or paused). Without a webphone nothing can keep the agent busy, and its 'unavailable' only says
 * that no phone is registered, so the pause sees 'not_inuse' instead (machines/README.md, wiring).
 */
export function statusForPause(status: AgentStatus | null, webphone: boolean): AgentStatus {
  if (!status) return 'unavailable'
  return !webphone && status === 'unavailable' ? 'not_inuse' : status
}

export const pauseSlice = defineSlice('pause', ({ options, effects, actor, logFailure }) => {
  // The pause check needs the break permission; others have no pause to re-sync.
  const canPause = has(options.roles, PERMISSIONS.viewTakeBreak)
  function checkPause() {
    if (!canPause) return
    effects
      .checkPause()
      .then((pause) => {
        effects.rememberPause(pause)
        actor('pause').send({ type: 'REMOTE_SYNC', pause })
      })
      .catch((error: unknown) => logFailure('pause check failed', error))
  }

  return {
    logic: pauseMachine.provide({
      actors: {
        startPause: fromPromise(async ({ input }: { input: StartPauseRequest }) => {
          const answer = await effects.startPause(input)
          if (answer.success) effects.rememberPause((answer.pause ?? null) as Pause | null)
          return answer
        }),
        stopPause: fromPromise(async ({ input }: { input: StopPauseRequest }) => {
          const answer = await effects.stopPause(input)
          if (answer.success) effects.rememberPause(null)
          return answer
        }),
      },
      actions: {
        sendSocket: sendTo(serviceSocketRef, socketEvent),
        // The webphone owns do-not-disturb; its snapshot feeds agentStatus.
        setDnd: sendTo(
          ({ system }) => system.get('webphone'),
          (_, { on }: { on: boolean }) => ({ type: 'SET_DND', dnd: on }),
        ),
        lockScreen: sendTo(
          ({ system }) => system.get('screenLock'),
          (_, { pauseStartedAt }: { pauseStartedAt: number | null }) => ({ type: 'LOCK', by: 'pause', pauseStartedAt }),
        ),
        notify: (_, notice) => effects.notify(notice),
      },
    }),
    input: (options) => ({ userId: options.userId, agentStatus: statusForPause('unavailable', options.webphone) }),
    socket: {
      // A break the server started (not pending) is the server's word that no after-service holds the agent: the
      // webphone ends one it still counts down (else the status went back to after_service when the break stopped).
      // A sync naming the break already known (a reconnect) says nothing new: a call taken during a break that allows
      // calls keeps its after-service.
      pause: ({ pause }) => {
        const current = (pause ?? null) as Pause | null
        const known = (actor('pause').getSnapshot() as SnapshotFrom<typeof pauseMachine>).context.current
        const started = current !== null && !current.pending && String(current.id) !== String(known?.id)
        return [
          () => effects.rememberPause(current),
          { to: 'pause', event: { type: 'REMOTE_SYNC', pause: current } },
          ...(started ? [{ to: 'webphone' as const, event: { type: 'SERVER_PAUSE_STARTED' as const } }] : []),
        ]
      },
      startPause: ({ pause }) => [
        () => effects.rememberPause(pause as Pause),
        { to: 'pause', event: { type: 'REMOTE_START', pause } },
        ...(pause.pending ? [] : [{ to: 'webphone' as const, event: { type: 'SERVER_PAUSE_STARTED' as const } }]),
      ],
      stopPause: () => [() => effects.rememberPause(null), { to: 'pause', event: { type: 'REMOTE_STOP' } }],
    },
    links: [
      // A webphone that is off (not logged in, another tab) cannot keep the agent busy: the pause then sees the
      // status as it would without a webphone.
      followAll(
        ['webphone', 'agentStatus'],
        (get) => {
          const phone = get('webphone').getSnapshot() as SnapshotFrom<typeof webphoneMachine>
          const status = get('agentStatus').getSnapshot() as SnapshotFrom<typeof agentStatusMachine>
          const phoneOn = phone.matches('starting') || phone.matches('ready')
          return statusForPause(status.context.status, options.webphone && phoneOn)
        },
        (status) => actor('pause').send({ type: 'AGENT_STATUS', status }),
      ),
      follow(
        'pause',
        (snapshot: SnapshotFrom<typeof pauseMachine>) => {
          const flags = pauseFlags(snapshot)
          const current = snapshot.context.current
          return {
            webphonePaused: flags.webphonePaused,
            pauseSwap: flags.swapActive,
            webchatPause: flags.webchatPaused,
            active: current !== null,
            id: current?.id ?? null,
            startedAt: current?.startedAt ?? null,
          }
        },
        ({ webphonePaused, pauseSwap, webchatPause, active, startedAt }) => {
          actor('agentStatus').send({ type: 'PAUSE_CHANGED', webphonePause: webphonePaused, pauseSwap })
          // A pause that enables the webphone takes the agent off calls both ways (the spec has no per-direction flags).
          actor('webphone').send({
            type: 'PAUSE_CHANGED',
            allowIncoming: !webphonePaused,
            allowOutgoing: !webphonePaused,
            webphonePause: webphonePaused,
            pauseSwap,
          })
          actor('webchatStatus').send({ type: 'PAUSE_CHANGED', webchatPause })
          actor('screenLock').send({ type: 'PAUSE_CHANGED', active, startedAt })
        },
        sameJson,
      ),
    ],
    // Every tab learns the running pause at once (only the serving tab asks the socket for it, spec 001 §4).
    start: checkPause,
    resync: checkPause,
  }
})
