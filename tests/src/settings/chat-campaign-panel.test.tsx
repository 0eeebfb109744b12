import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { calls, openApp, serve, setupDom } from './harness.tsx'

// The WhatsApp campaign's form (/settings/service/chats/campaign/{id}/edit) shows its run beside the fields: the
// progress the server answers, and Start / Pause posting the commands (server/chat/campaigns.ts).

beforeAll(setupDom)
afterEach(cleanup)

const campaign = {
  id: 4,
  description: 'Oferta de junho',
  is_active: true,
  mailings: [1],
  channel: 2,
  template: 3,
  params: [{ name: '1', lead_field: 'name', value: '' }],
  queue: 5,
  reply_wait_hours: 72,
}
const progress = (status: string, sent: number) => ({
  campaign: 4,
  status,
  leads_total: 10,
  leads_sent: sent,
  leads_skipped: 1,
  leads_replied: 2,
  leads_remaining: 10 - sent - 1,
})

describe('the WhatsApp campaign panel', () => {
  it('shows the progress and starts and pauses the campaign', async () => {
    let status = 'idle'
    serve([PERMISSIONS.viewSettings, 'service.view_chatcampaign', 'service.change_chatcampaign'], (c) => {
      if (c.path === '/api/v1/service/chats-campaigns/4/' && c.method === 'GET') return { body: campaign }
      if (c.path === '/api/v1/service/chats-campaigns/4/progress/') return { body: progress(status, status === 'idle' ? 0 : 6) }
      if (c.path === '/api/v1/service/chats-campaigns/4/start/' && c.method === 'POST') {
        status = 'running'
        return { body: progress('running', 6) }
      }
      if (c.path === '/api/v1/service/chats-campaigns/4/pause/' && c.method === 'POST') {
        status = 'paused'
        return { body: progress('paused', 6) }
      }
      return undefined
    })
    await openApp('/settings/service/chats/campaign/4/edit')
    const panel = await screen.findByTestId('chat-campaign-panel')
    expect((await within(panel).findByTestId('chat-campaign-status')).textContent).toBe('Não iniciada')
    await within(panel).findByText('Templates enviados')
    await act(async () => void fireEvent.click(within(panel).getByRole('button', { name: 'Iniciar' })))
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/v1/service/chats-campaigns/4/start/')).toBe(true)
    await within(panel).findByText('Em execução')
    const sentRow = within(panel).getByText('Templates enviados').closest('tr')!
    expect(sentRow.textContent).toBe('Templates enviados6')
    await act(async () => void fireEvent.click(within(panel).getByRole('button', { name: 'Pausar' })))
    await within(panel).findByText('Pausada')
  })
})
