import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { calls, openApp, serve, setupDom } from './harness.tsx'

// A copy's form starts from the server's free values (GET {api}{id}/?duplicate=true), so a tag named 'Urgente' is
// offered as 'Urgente-2' and saves, instead of always answering 'already exists'.

beforeAll(setupDom)
afterEach(cleanup)

describe('duplicating a record with a unique name', () => {
  it('prefills the free name the server suggests and sends it', async () => {
    serve([PERMISSIONS.viewSettings, 'crm.view_tag', 'crm.add_tag'], (c) => {
      if (c.path === '/api/v1/crm/tags/4/')
        return { body: { id: 4, description: c.url.searchParams.get('duplicate') === 'true' ? 'Urgente-2' : 'Urgente', is_active: true, color: '' } }
      if (c.path === '/api/v1/crm/tags/' && c.method === 'POST') return { status: 201, body: { id: 9 } }
      return undefined
    })
    await openApp('/settings/crm/tags/create?duplicate_id=4')
    expect(((await screen.findByLabelText(/^Descrição/)) as HTMLInputElement).value).toBe('Urgente-2')
    await act(async () => void fireEvent.click(screen.getByTestId('form-save')))
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/v1/crm/tags/')?.body).toMatchObject({ description: 'Urgente-2' })
  })
})
