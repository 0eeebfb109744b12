import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import { entityByKey } from '../../../contract/entities/index.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { toasts } from '../../../src/components/toast/toastStore.ts'
import { columnMapping, toPreview } from '../../../src/entities/import/importApi.ts'
import { ImportDialog } from '../../../src/entities/import/ImportDialog.tsx'
import { auditChanges } from '../../../src/features/settings/audit/auditDiff.ts'
import { builderField, builderForm, builderKind } from '../../../src/features/settings/formBuilder/builderFields.ts'
import { calls, openApp, renderUi, serve, setupDom } from './harness.tsx'

const click = (el: Element) => act(async () => void fireEvent.click(el))
const BLOCKLISTS = '/api/v1/service/blacklists/'

beforeAll(setupDom)
beforeEach(() => toasts.set([]))
afterEach(cleanup)

describe('CSV import dialog', () => {
  const preview = {
    columns: ['Nome', 'Telefones', 'Sentido'],
    rows: [['Golpes', '5511999998888', 'both']],
    count: 2,
    mapping: { Nome: 'description', Telefones: 'phones' },
  }

  it('turns the suggested column → field mapping around and back', () => {
    const read = toPreview(preview)
    expect(read.suggestion).toEqual({ description: 'Nome', phones: 'Telefones' })
    expect(columnMapping(read.suggestion)).toEqual(preview.mapping)
  })

  it('previews, prefills the mapping, and lists every failing row when nothing was imported', async () => {
    serve([], (c) => {
      if (c.path === `${BLOCKLISTS}import/preview/`) return { body: preview }
      if (c.path === `${BLOCKLISTS}import/`)
        return {
          status: 400,
          body: {
            errors: [
              { row: 2, field: 'phones', messages: ['Telefone incompleto: 11999998888'] },
              { row: 3, field: 'description', messages: ['Este campo é obrigatório'] },
            ],
          },
        }
      return undefined
    })
    await renderUi(<ImportDialog entity={entityByKey('service.blacklists')} onClose={() => {}} />)
    const file = new File(['Nome,Telefones\nGolpes,5511999998888\n'], 'bloqueios.csv', { type: 'text/csv' })
    await act(async () => void fireEvent.change(screen.getByTestId('import-file'), { target: { files: [file] } }))
    expect(await screen.findByText('Golpes')).toBeTruthy()
    expect(screen.getByRole('combobox', { name: 'Descrição' }).textContent).toBe('Nome')
    expect(screen.getByRole('combobox', { name: 'Telefones' }).textContent).toBe('Telefones')
    expect(screen.getByRole('combobox', { name: 'Bloquear chamadas' }).textContent).toBe('Não importar')
    await click(screen.getByRole('combobox', { name: 'Bloquear chamadas' }))
    await click(screen.getByRole('option', { name: 'Sentido' }))
    await click(screen.getByTestId('import-start'))
    const table = await screen.findByTestId('import-errors')
    expect(within(table).getByText(/Nada foi importado/)).toBeTruthy()
    const rows = within(table)
      .getAllByTestId('import-error-row')
      .map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))
    expect(rows).toEqual([
      ['2', 'Telefones', 'Telefone incompleto: 11999998888'],
      ['3', 'Descrição', 'Este campo é obrigatório'],
    ])
    const sent = calls.find((c) => c.path === `${BLOCKLISTS}import/`)!.body as FormData
    expect(JSON.parse(String(sent.get('mapping')))).toEqual({ Nome: 'description', Telefones: 'phones', Sentido: 'direction' })
    expect((sent.get('file') as File).name).toBe('bloqueios.csv')
  })

  it('offers Import on importable lists only, to users who may add', async () => {
    serve([PERMISSIONS.viewSettings, 'service.view_blacklist', 'service.add_blacklist', 'pabx.view_queue', 'pabx.add_queue'])
    await openApp('/settings/service/blacklists')
    await click(await screen.findByTestId('list-import'))
    expect(await screen.findByTestId('import-dialog')).toBeTruthy()
    cleanup()
    await openApp('/settings/service/queues/telephony')
    await screen.findByTestId('list-new')
    expect(screen.queryByTestId('list-import')).toBeNull()
  })
})

describe('audit log', () => {
  it('shows only what changed', () => {
    expect(auditChanges({ a: 1, b: [1, 2], updated_at: 'x' }, { a: 1, b: [2], updated_at: 'y' })).toEqual([{ field: 'b', before: [1, 2], after: [2] }])
    expect(auditChanges(null, { a: 1 })).toEqual([{ field: 'a', before: undefined, after: 1 }])
  })

  it('filters by entity, action and dates, and expands a row into before and after', async () => {
    const entry = {
      id: 4,
      at: '2026-01-02T10:00:00Z',
      user: 1,
      user_description: 'admin',
      entity: 'pabx.queues',
      object_id: 3,
      action: 'update',
      before: { description: 'Suporte', weight: 0 },
      after: { description: 'Suporte N1', weight: 0 },
    }
    serve([PERMISSIONS.viewSettings, 'system.view_auditlog'], (c) =>
      c.path === '/api/v1/system/audit-log/' ? { body: { count: 1, results: [entry] } } : undefined,
    )
    await openApp('/settings/system/audit-log')
    const row = await screen.findByTestId('audit-row')
    expect(within(row).getByText('admin')).toBeTruthy()
    expect(within(row).getByText('Alteração')).toBeTruthy()
    expect(within(row).getByText('Fila de telefonia')).toBeTruthy()
    await click(within(row).getByRole('button', { name: 'Ver alterações' }))
    const change = screen.getByTestId('audit-change')
    expect([...change.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['Descrição', 'Suporte', 'Suporte N1'])
    await click(screen.getByRole('combobox', { name: 'Ação' }))
    await click(screen.getByRole('option', { name: 'Exclusão' }))
    await act(async () => void fireEvent.change(screen.getByLabelText('De'), { target: { value: '2026-01-01' } }))
    await expect
      .poll(() => Object.fromEntries(calls.filter((c) => c.path === '/api/v1/system/audit-log/').at(-1)!.url.searchParams))
      .toMatchObject({ action: 'delete', ordering: '-at,-id', offset: '0' })
    expect(
      calls
        .filter((c) => c.path === '/api/v1/system/audit-log/')
        .at(-1)!
        .url.searchParams.get('at__gte'),
    ).toMatch(/^2026-01-0[12]T/)
  })

  it('marks a row the database removed in cascade with the delete it followed from', async () => {
    const own = {
      id: 8,
      at: '2026-01-02T10:00:00Z',
      user: 1,
      user_description: 'admin',
      entity: 'pabx.devices',
      object_id: 5,
      action: 'delete',
      before: { username: '10090' },
      after: null,
      cascade_of: null,
    }
    const cascaded = {
      ...own,
      id: 9,
      entity: 'pabx.detours',
      object_id: 2,
      before: { description: 'Desvio' },
      cascade_of: { entity: 'pabx.devices', object_id: 5 },
    }
    serve([PERMISSIONS.viewSettings, 'system.view_auditlog'], (c) =>
      c.path === '/api/v1/system/audit-log/' ? { body: { count: 2, results: [cascaded, own] } } : undefined,
    )
    await openApp('/settings/system/audit-log')
    const rows = await screen.findAllByTestId('audit-row')
    expect(within(rows[0]!).getByTestId('audit-cascade').textContent).toBe('em cascata de Ramal #5')
    expect(within(rows[1]!).queryByTestId('audit-cascade')).toBeNull()
  })

  it('needs system.view_auditlog', async () => {
    serve([PERMISSIONS.viewSettings])
    const router = await openApp('/settings/system/audit-log')
    expect(router.state.location.pathname).toBe('/403')
  })
})

describe('form builder', () => {
  it('maps the builder types to renderer kinds in one place', () => {
    expect(
      [
        'text',
        'textarea',
        'number',
        'switch',
        'select',
        'combobox',
        'autocomplete',
        'api',
        'cpf',
        'cnpj',
        'file',
        'datetimepicker',
        'hidden',
        'popup',
        'other',
      ].map(builderKind),
    ).toEqual([
      'text',
      'textarea',
      'number',
      'switch',
      'select',
      'combobox',
      'autocomplete',
      'api',
      'mask',
      'mask',
      'file',
      'datetimepicker',
      'hidden',
      'text',
      'text',
    ])
    expect(builderField({ name: 'doc', label: 'CPF', type: 'cpf', cols: 6, required: true })).toMatchObject({
      kind: 'mask',
      mask: 'cpf',
      validation: 'cpf',
      cols: 6,
      required: true,
    })
    expect(builderField({ name: 'uf', label: 'UF', type: 'select', options: ['SP=São Paulo', 'RJ'] })?.options).toEqual([
      { value: 'SP', text: { 'pt-BR': 'São Paulo', 'en-US': 'São Paulo', 'es-ES': 'São Paulo' } },
      { value: 'RJ', text: { 'pt-BR': 'RJ', 'en-US': 'RJ', 'es-ES': 'RJ' } },
    ])
    expect(builderField({ label: 'sem nome' })).toBeUndefined()
    const { tabs } = builderForm([
      { name: 'a', tab: 'Cliente' },
      { name: 'b', tab: 'Venda' },
      { name: 'a', tab: 'Venda' },
      { name: 'c', tab: 'Cliente' },
    ])
    expect(tabs.map((t) => [t.key, t.fields])).toEqual([
      ['Cliente', ['a', 'c']],
      ['Venda', ['b']],
    ])
  })

  it('previews the definitions live through the same renderer, with their validation', async () => {
    serve([PERMISSIONS.viewSettings, 'service.view_form', 'service.change_form'], (c) =>
      c.path === '/api/v1/service/forms/2/'
        ? {
            body: {
              id: 2,
              description: 'Pós-venda',
              is_active: true,
              fields: [
                { name: 'doc', label: 'CPF do cliente', type: 'cpf', cols: 6, required: true },
                { name: 'nota', label: 'Nota', type: 'select', options: 'A;B' },
              ],
            },
          }
        : undefined,
    )
    await openApp('/settings/service/forms/2/edit')
    const preview = await screen.findByTestId('form-preview')
    const doc = within(preview).getByLabelText(/^CPF do cliente/) as HTMLInputElement
    await act(async () => void fireEvent.change(doc, { target: { value: '52998224725' } }))
    expect(doc.value).toBe('529.982.247-25')
    expect(within(preview).getByRole('combobox', { name: 'Nota' })).toBeTruthy()
    await act(async () => void fireEvent.change(doc, { target: { value: '' } }))
    await click(within(preview).getByTestId('preview-validate'))
    expect(within(preview).getByText('Este campo é obrigatório')).toBeTruthy()
  })
})
