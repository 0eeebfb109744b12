import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { entityByKey } from '../../../contract/entities/index.ts'
import type { Values } from '../../../contract/entities/index.ts'
import { EntityForm } from '../../../src/entities/form/EntityForm.tsx'
import { initialValuesFor } from '../../../src/entities/form/initialValues.ts'
import '../../../src/features/crm/crmExtensions.tsx'
import { renderUi, serve, setupDom } from '../settings/harness.tsx'

// An interaction's custom fields (/interactions/:form, issue 17): its type's form-builder form, drawn by the dynamic
// renderer in place of the hidden form_data field, its answers saved as one object.

const interactions = entityByKey('crm.client-interactions')
const TYPE = {
  id: 5,
  description: 'Reclamação',
  slug: 'reclamacao',
  color: '',
  icon: '',
  form: 9,
  form_definition: {
    id: 9,
    description: 'Dados da reclamação',
    fields: [
      { name: 'pedido', label: 'Número do pedido', type: 'text', required: true, cols: 6 },
      { name: 'canal', label: 'Canal de compra', type: 'text', value: 'loja', cols: 6 },
    ],
  },
}

beforeAll(setupDom)
afterEach(cleanup)

async function draw(values: Values) {
  let saved: Values | undefined
  const save = vi.fn(async (v: Values) => {
    saved = v
  })
  serve(['crm.view_clientinteraction', 'crm.add_clientinteraction'], (call) => (call.path === '/api/v1/crm/interaction-types/5/' ? { body: TYPE } : undefined))
  await renderUi(<EntityForm entity={interactions} mode="create" initialValues={{ ...initialValuesFor(interactions), ...values }} save={save} />)
  return () => saved
}

describe('an interaction of a type with a form', () => {
  it('draws the type form under the record fields, starts from its defaults and saves the answers in form_data', async () => {
    const saved = await draw({ interaction: 5, interaction_description: 'Reclamação', subject: 'Caixa amassada' })
    const pedido = (await screen.findByRole('textbox', { name: 'Número do pedido' })) as HTMLInputElement
    expect(screen.getByText('Dados da reclamação')).toBeTruthy()
    await vi.waitFor(() => expect((screen.getByRole('textbox', { name: 'Canal de compra' }) as HTMLInputElement).value).toBe('loja'))
    await act(async () => void fireEvent.change(pedido, { target: { value: 'PED-1' } }))
    await act(async () => void fireEvent.click(screen.getByTestId('form-save')))
    await vi.waitFor(() => expect(saved()?.form_data).toEqual({ pedido: 'PED-1', canal: 'loja' }))
  })

  it('asks for the type before drawing any custom field', async () => {
    await draw({ interaction: null })
    expect(await screen.findByTestId('interaction-custom-fields-empty')).toBeTruthy()
    expect(screen.queryByRole('textbox', { name: 'Número do pedido' })).toBeNull()
  })
})
