import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { WallboardAgent } from '../../../contract/realtime/wallboard.ts'

// How the wallboard reads an agent: one state among a handful a supervisor scans for (the raw endpoint statuses are
// many), with its colour, its label, and since when it holds. A running pause outranks the reported status (the
// agent is paused whatever the phone says), then a call, then after-service.

export type AgentState = 'available' | 'ringing' | 'onCall' | 'afterService' | 'paused' | 'exceeded' | 'pendingPause' | 'dnd' | 'offline'

export const STATE_ORDER: readonly AgentState[] = ['available', 'ringing', 'onCall', 'afterService', 'pendingPause', 'paused', 'exceeded', 'dnd', 'offline']

export const STATE_LABELS: Record<AgentState, MessageDescriptor> = {
  available: msg`Disponível`,
  ringing: msg`Chamando`,
  onCall: msg`Em ligação`,
  afterService: msg`Pós-atendimento`,
  pendingPause: msg`Pausa pendente`,
  paused: msg`Em pausa`,
  exceeded: msg`Pausa excedida`,
  dnd: msg`Não perturbe`,
  offline: msg`Indisponível`,
}

/** Bar and label colours, each label readable on its tone (WCAG AA contrast with white or dark text). */
export const STATE_TONES: Record<AgentState, { bg: string; fg: string }> = {
  available: { bg: '#1b7f3b', fg: '#ffffff' },
  ringing: { bg: '#f2c94c', fg: '#3d2e00' },
  onCall: { bg: '#1f5fbf', fg: '#ffffff' },
  afterService: { bg: '#6c3fb5', fg: '#ffffff' },
  pendingPause: { bg: '#ffe0b2', fg: '#5c3100' },
  paused: { bg: '#d46b08', fg: '#ffffff' },
  exceeded: { bg: '#b3261e', fg: '#ffffff' },
  dnd: { bg: '#7a1f5c', fg: '#ffffff' },
  offline: { bg: '#9aa0a6', fg: '#1f2328' },
}

const ON_CALL = new Set(['inuse', 'busy', 'onhold', 'onmute', 'inconference', 'ringinuse', 'click_to_call', 'in_activity'])

/** The agent's state now (`now` decides an exceeded pause) and the time it started. */
export function agentState(agent: WallboardAgent, now: number): { state: AgentState; since: string | null } {
  const pause = agent.pause
  if (pause && !pause.pending) {
    const started = pause.started_at ? Date.parse(pause.started_at) : now
    const exceeded = pause.maximum_duration > 0 && now - started > pause.maximum_duration * 1000
    return { state: exceeded ? 'exceeded' : 'paused', since: pause.started_at }
  }
  if (agent.call) return { state: agent.call.state === 'ringing' ? 'ringing' : 'onCall', since: agent.call.since }
  if (agent.after_service) return { state: 'afterService', since: agent.after_service.started_at }
  if (pause?.pending) return { state: 'pendingPause', since: agent.status_since }
  const status = agent.status
  if (status === 'not_inuse') return { state: 'available', since: agent.status_since }
  if (status === 'ringing') return { state: 'ringing', since: agent.status_since }
  if (status === 'after_service') return { state: 'afterService', since: agent.status_since }
  if (status === 'paused') return { state: 'paused', since: agent.status_since }
  if (status === 'do_not_disturb') return { state: 'dnd', since: agent.status_since }
  if (status && ON_CALL.has(status)) return { state: 'onCall', since: agent.status_since }
  return { state: 'offline', since: agent.status_since }
}

/** Seconds as M:SS under an hour, H:MM:SS above: short enough for a dense grid. */
export function shortDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = String(total % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

export const secondsSince = (iso: string | null, now: number) => (iso ? Math.max(0, (now - Date.parse(iso)) / 1000) : 0)
