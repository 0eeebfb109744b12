import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cleanup, screen, waitFor } from '@testing-library/react'
import type { WallboardAgent } from '../../contract/realtime/wallboard.ts'
import { AgentCard } from '../../src/features/dashboards/AgentCard.tsx'
import { renderUi, setupDom } from './settings/harness.tsx'

// One agent's card on the wallboard: the detail line (pause reason, after-service left, chats) in each language. The
// detail's messages once went untranslated and blank (a macro `t` passed into a helper outside the component).

const NOW = Date.parse('2025-03-03T13:00:00.000Z')
const AGENT: WallboardAgent = {
  id: 4,
  name: 'Ana Agente',
  username: 'agent1',
  team: 1,
  team_name: 'Equipe Demo',
  status: 'not_inuse',
  status_since: '2025-03-03T12:59:00.000Z',
  chat_status: null,
  chat_status_since: null,
  login_telephony: true,
  login_chat: true,
  pause: null,
  call: null,
  chats: 0,
  after_service: null,
  queues: [],
}

const detail = () => screen.getByTestId('wallboard-agent-detail').textContent

beforeEach(setupDom)
afterEach(cleanup)

describe('the agent card', () => {
  it('after-service: the time left', async () => {
    const agent = { ...AGENT, after_service: { started_at: '2025-03-03T12:59:58.000Z', ends_at: '2025-03-03T13:00:06.000Z' } }
    await renderUi(<AgentCard agent={agent} now={NOW} onAction={() => {}} />)
    await waitFor(() => expect(detail()).toBe('termina em 0:06'))
    expect(screen.getByTestId('wallboard-agent-state').textContent).toBe('Pós-atendimento')
    cleanup()
    await renderUi(<AgentCard agent={agent} now={NOW} onAction={() => {}} />, 'en-US')
    await waitFor(() => expect(detail()).toBe('ends in 0:06'))
    cleanup()
    await renderUi(<AgentCard agent={agent} now={NOW} onAction={() => {}} />, 'es-ES')
    await waitFor(() => expect(detail()).toBe('termina en 0:06'))
  })

  it('a pending pause and chats; the team when there is nothing else', async () => {
    const pending = { description: 'Café', started_at: null, maximum_duration: 0, pending: true, started_by: 9 }
    await renderUi(<AgentCard agent={{ ...AGENT, pause: pending, chats: 2 }} now={NOW} onAction={() => {}} />)
    await waitFor(() => expect(detail()).toBe('Pausa pendente: Café · 2 chats'))
    cleanup()
    await renderUi(<AgentCard agent={{ ...AGENT, pause: pending, chats: 1 }} now={NOW} onAction={() => {}} />, 'en-US')
    await waitFor(() => expect(detail()).toBe('Pending pause: Café · 1 chat'))
    cleanup()
    await renderUi(<AgentCard agent={AGENT} now={NOW} onAction={() => {}} />)
    await waitFor(() => expect(detail()).toBe('Equipe Demo'))
  })

  it('the time in the state: counted from status_since; "—" with an explanation when the server has none', async () => {
    const time = () => screen.getByTestId('wallboard-agent-time')
    await renderUi(<AgentCard agent={AGENT} now={NOW} onAction={() => {}} />)
    await waitFor(() => expect(time().textContent).toBe('1:00'))
    expect(time().getAttribute('title')).toBeNull()
    cleanup()
    // An agent whose status the server never saw change (status_since null), e.g. offline since before it counted.
    const unknown = { ...AGENT, status: null, status_since: null, login_telephony: false }
    await renderUi(<AgentCard agent={unknown} now={NOW} onAction={() => {}} />)
    await waitFor(() => expect(time().textContent).toBe('—'))
    expect(time().getAttribute('title')).toBe('Sem mudança de estado registrada')
    cleanup()
    await renderUi(<AgentCard agent={unknown} now={NOW} onAction={() => {}} />, 'en-US')
    await waitFor(() => expect(time().getAttribute('title')).toBe('No status change recorded'))
    expect(time().textContent).toBe('—')
    cleanup()
    await renderUi(<AgentCard agent={unknown} now={NOW} onAction={() => {}} />, 'es-ES')
    await waitFor(() => expect(time().getAttribute('title')).toBe('Sin cambio de estado registrado'))
  })
})
