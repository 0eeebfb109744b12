import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import { ENTITIES, FIELD_KINDS, payloadFor } from '../../../contract/entities/index.ts'
import type { Entity, Field, FieldKind, Values } from '../../../contract/entities/index.ts'
import { defineEntity, opt, t } from '../../../contract/entities/define.ts'
import { field } from '../../../contract/entities/fields.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { EntityForm } from '../../../src/entities/form/EntityForm.tsx'
import { FIELD_COMPONENTS } from '../../../src/entities/form/fieldKinds.ts'
import { initialValuesFor } from '../../../src/entities/form/initialValues.ts'
import { calls, renderUi, serve, setupDom } from './harness.tsx'

// Every renderer kind through the one renderer: a tiny entity holding one field of that kind is drawn, filled in as
// a user would, validated in the active language and serialised with payloadFor.

const LABEL = t('Campo X', 'Field X', 'Campo X')
const AB = [opt('a', 'Alfa', 'Alpha', 'Alfa'), opt('b', 'Beta', 'Beta', 'Beta')]
const LOOKUP = { path: '/api/v1/crm/tags/', value: 'id', label: 'description' }

function tiny(...fields: Field[]): Entity {
  return defineEntity({ area: 'crm', name: 'tags', model: 'tag', route: 'crm/tags', label: { singular: LABEL, plural: LABEL }, fields })
}

let saved: Values | undefined
async function draw(entity: Entity, options: { values?: Values; mode?: 'create' | 'update'; locale?: 'pt-BR' | 'en-US' | 'es-ES'; recordId?: number } = {}) {
  saved = undefined
  const save = vi.fn(async (values: Values) => {
    saved = values
  })
  await renderUi(
    <EntityForm
      entity={entity}
      mode={options.mode ?? 'create'}
      recordId={options.recordId}
      initialValues={options.values ?? initialValuesFor(entity)}
      save={save}
    />,
    options.locale,
  )
  return save
}

const control = () => screen.getAllByLabelText(/^(Campo|Field) X/).find((el) => el.tagName !== 'DIV') as HTMLInputElement
const type = (el: Element, value: string) => act(async () => void fireEvent.change(el, { target: { value } }))
const click = (el: Element) => act(async () => void fireEvent.click(el))
async function submit() {
  await click(screen.getByTestId('form-save'))
}
async function choose(combobox: Element, option: string | RegExp) {
  await click(combobox)
  await click(await screen.findByRole('option', { name: option }))
}
async function pick(input: HTMLElement, typed: string, option: string) {
  await act(async () => {
    fireEvent.focus(input)
    fireEvent.change(input, { target: { value: typed } })
  })
  await click(await screen.findByRole('option', { name: option }))
}
const json = (entity: Entity): Values => {
  const payload = payloadFor(entity, saved!)
  if (!('json' in payload)) throw new Error('expected a JSON body')
  return payload.json
}

beforeAll(setupDom)
afterEach(cleanup)

describe('the kind → component map', () => {
  it('has an input and a read-only twin for every kind of the FieldKind union', () => {
    const missing = FIELD_KINDS.filter((kind) => !FIELD_COMPONENTS[kind]?.Input || !FIELD_COMPONENTS[kind]?.ReadOnly)
    expect(missing).toEqual([])
    expect(Object.keys(FIELD_COMPONENTS).sort()).toEqual([...FIELD_KINDS].sort())
  })
})

describe('each field kind renders, validates and serialises', () => {
  it('text: named by its label, required in the active language, trimmed', async () => {
    const entity = tiny(field('x', 'text', LABEL, { required: true, max: 5 }))
    const save = await draw(entity, { locale: 'en-US' })
    await submit()
    expect(save).not.toHaveBeenCalled()
    expect(screen.getByText('This field is required')).toBeTruthy()
    expect(control().getAttribute('aria-describedby')).toMatch(/helper-text/)
    await type(control(), 'abcdef')
    expect(screen.getByText(/longer than|5/)).toBeTruthy()
    await type(control(), ' abc ')
    await submit()
    expect(json(entity)).toEqual({ x: ' abc ' })
  })

  it('hidden: kept and sent, never drawn', async () => {
    const entity = tiny(field('x', 'hidden', LABEL, { default: 'abc' }))
    await draw(entity)
    expect(screen.queryByLabelText(/Campo X/)).toBeNull()
    await submit()
    expect(json(entity)).toEqual({ x: 'abc' })
  })

  it('number: text with a numeric keyboard, sent as a number; min 0 by default', async () => {
    const entity = tiny(field('x', 'number', LABEL, { min: 0 }))
    await draw(entity)
    await type(control(), '-3')
    await submit()
    expect(screen.getByText(/menor/)).toBeTruthy()
    await type(control(), '15')
    await submit()
    expect(json(entity)).toEqual({ x: 15 })
  })

  it('textarea: counts characters against the maximum', async () => {
    const entity = tiny(field('x', 'textarea', LABEL, { max: 10 }))
    await draw(entity)
    await type(control(), 'abc')
    expect(screen.getByTestId('counter').textContent).toBe('3 / 10')
    await submit()
    expect(json(entity)).toEqual({ x: 'abc' })
  })

  it('editor: a Markdown text area', async () => {
    const entity = tiny(field('x', 'editor', LABEL))
    await draw(entity)
    await type(control(), 'olá')
    await click(screen.getByRole('button', { name: 'Negrito' }))
    await submit()
    expect(String(json(entity).x)).toMatch(/\*\*/)
  })

  it('file: a new file goes as multipart; remove sends null for the current one', async () => {
    const entity = tiny(field('x', 'file', LABEL, { accept: 'image/png' }), field('d', 'text', t('Descrição', 'Description', 'Descripción')))
    await draw(entity)
    const file = new File(['png'], 'logo.png', { type: 'image/png' })
    await act(async () => void fireEvent.change(control(), { target: { files: [file] } }))
    await submit()
    const payload = payloadFor(entity, saved!)
    expect('multipart' in payload && payload.multipart.map(([name]) => name)).toEqual(['params', 'x'])
    cleanup()
    const original = { x: '/media/logo.png' }
    await draw(entity, { values: initialValuesFor(entity, { record: original }), mode: 'update' })
    expect(screen.getByTestId('current-file').textContent).toBe('logo.png')
    await click(screen.getByTestId('remove-file'))
    await submit()
    expect(payloadFor(entity, saved!, original)).toEqual({ json: { x: null } })
  })

  it('select: one of the options', async () => {
    const entity = tiny(field('x', 'select', LABEL, { options: AB, required: true }))
    await draw(entity)
    await choose(control(), 'Beta')
    await submit()
    expect(json(entity)).toEqual({ x: 'b' })
  })

  it('combobox: free items typed with the delimiter, sent joined on it', async () => {
    const entity = tiny(field('x', 'combobox', LABEL, { multiple: true, delimiters: [','] }))
    await draw(entity)
    await type(control(), '5511999998888,')
    await type(control(), '5521988887777')
    await act(async () => void fireEvent.blur(control()))
    await submit()
    expect(json(entity)).toEqual({ x: '5511999998888,5521988887777' })
  })

  it('autocomplete: searches the lookup (limit 999999) and sends the ids', async () => {
    serve([], (c) => (c.path === '/api/v1/crm/tags/' ? { body: { count: 1, results: [{ id: 3, description: 'Suporte' }] } } : undefined))
    const entity = tiny(field('x', 'autocomplete', LABEL, { multiple: true, lookup: LOOKUP }))
    await draw(entity)
    await pick(control(), 'Sup', 'Suporte')
    await submit()
    expect(json(entity)).toEqual({ x: [3] })
  })

  it('mask: lays the CPF out as typed and checks it', async () => {
    const entity = tiny(field('x', 'mask', LABEL, { mask: 'cpf', validation: 'cpf' }))
    await draw(entity)
    await type(control(), '11111111112')
    expect(control().value).toBe('111.111.111-12')
    await submit()
    expect(screen.getByText(/CPF/)).toBeTruthy()
    await type(control(), '52998224725')
    await submit()
    expect(json(entity)).toEqual({ x: '529.982.247-25' })
  })

  it('api and api-join: the second lookup follows the first value', async () => {
    serve([], (c) => {
      if (c.path !== '/api/v1/crm/tags/') return undefined
      const parent = c.url.searchParams.get('parent')
      return { body: { count: 1, results: parent ? [{ id: 40 + Number(parent), description: `Filho de ${parent}` }] : [{ id: 3, description: 'Pai' }] } }
    })
    const entity = tiny(
      field('p', 'api', t('Pai', 'Parent', 'Padre'), { lookup: LOOKUP, required: true }),
      field('x', 'api-join', LABEL, { lookup: { ...LOOKUP, path: '/api/v1/crm/tags/?parent={p}' }, required: true }),
    )
    await draw(entity)
    expect(control().disabled).toBe(true)
    await pick(screen.getByLabelText(/^Pai/), 'P', 'Pai')
    await vi.waitFor(() => expect(control().disabled).toBe(false))
    await pick(control(), 'F', 'Filho de 3')
    await submit()
    expect(json(entity)).toEqual({ p: 3, x: 43 })
  })

  it('api-join-3: waits for both parents', async () => {
    const entity = tiny(field('x', 'api-join-3', LABEL, { lookup: { ...LOOKUP, path: '/api/v1/crm/tags/?a={a}&b={b}' } }))
    await draw(entity)
    expect(control().disabled).toBe(true)
    expect(screen.getByText('Escolha antes o campo anterior.')).toBeTruthy()
  })

  it('app: an app and its appdata — a lookup row as an integer, or a number typed', async () => {
    serve([], (c) => (c.path === '/api/v1/service/apps/pabx/queues/' ? { body: { count: 1, results: [{ id: 7, description: 'Suporte' }] } } : undefined))
    const entity = tiny(field('x', 'app', LABEL, { family: 'pabx', apps: ['queue', 'number', 'hangup'], required: true }))
    await draw(entity)
    await submit()
    expect(screen.getByText('Este campo é obrigatório')).toBeTruthy()
    await choose(control(), 'Fila')
    await choose(await screen.findByRole('combobox', { name: /^Fila/ }), 'Suporte')
    await submit()
    expect(json(entity)).toEqual({ x: { app: 'queue', appdata: 7 } })
    await choose(control(), 'Número externo')
    await type(screen.getByLabelText(/^Número/), '5511999998888')
    await submit()
    expect(json(entity)).toEqual({ x: { app: 'number', appdata: '5511999998888' } })
  })

  it('classification: classification → sub-classification, with a schedule one hour ahead when it enables scheduling', async () => {
    serve([], (c) => {
      if (c.path === '/api/v1/service/classifications/') return { body: { count: 1, results: [{ id: 1, description: 'Venda' }] } }
      if (c.path === '/api/v1/service/unions/')
        return { body: { count: 1, results: [{ id: 9, sub_classification: 2, sub_classification_description: 'Retornar', enable_schedule: true }] } }
      return undefined
    })
    const entity = tiny(field('x', 'classification', LABEL, { required: true }))
    await draw(entity)
    await choose(control(), 'Venda')
    await choose(screen.getByRole('combobox', { name: /^Subclassificação/ }), 'Retornar')
    const schedule = screen.getByLabelText(/^Agendamento/) as HTMLInputElement
    expect(schedule.getAttribute('step')).toBe('1')
    const ahead = new Date(schedule.value).getTime() - Date.now()
    expect(ahead).toBeGreaterThan(58 * 60_000)
    expect(ahead).toBeLessThan(61 * 60_000)
    await submit()
    const [classification, sub, when] = json(entity).x as [number, number, string]
    expect([classification, sub]).toEqual([1, 2])
    expect(when).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/)
  })

  it('classificationWithCache: the same chain', async () => {
    serve([])
    await draw(tiny(field('x', 'classificationWithCache', LABEL)))
    expect(control().getAttribute('role')).toBe('combobox')
  })

  it("datetimepicker: step 1 s; empty says 'Data inválida ou não preenchida'", async () => {
    const entity = tiny(field('x', 'datetimepicker', LABEL, { required: true }))
    await draw(entity)
    expect(control().getAttribute('step')).toBe('1')
    await submit()
    expect(screen.getByText('Data inválida ou não preenchida')).toBeTruthy()
    await type(control(), '2025-03-04T10:20:30')
    await submit()
    expect(String(json(entity).x)).toMatch(/^2025-03-04T10:20:30[+-]\d\d:\d\d$/)
  })

  it('hourpicker: HH:mm', async () => {
    const entity = tiny(field('x', 'hourpicker', LABEL))
    await draw(entity)
    await type(control(), '08:30')
    await submit()
    expect(json(entity)).toEqual({ x: '08:30' })
  })

  it('datetimebrowser: typed dates in the accepted formats', async () => {
    const entity = tiny(field('x', 'datetimebrowser', LABEL))
    await draw(entity)
    await type(control(), '31/02/2025')
    await submit()
    expect(screen.getByText('Data inválida ou não preenchida')).toBeTruthy()
    await type(control(), '04/03/25 10:20')
    await submit()
    expect(String(json(entity).x)).toMatch(/^2025-03-04T10:20:00[+-]\d\d:\d\d$/)
  })

  it('btngroup and radio: the options in sight', async () => {
    const entity = tiny(field('x', 'btngroup', LABEL, { options: AB }), field('y', 'radio', t('Campo Y', 'Field Y', 'Campo Y'), { options: AB }))
    await draw(entity)
    await click(screen.getByRole('button', { name: 'Beta' }))
    await click(screen.getByRole('radio', { name: 'Alfa' }))
    await submit()
    expect(json(entity)).toEqual({ x: 'b', y: 'a' })
  })

  it('checkbox, switch and slider', async () => {
    const entity = tiny(
      field('x', 'checkbox', LABEL),
      field('y', 'switch', t('Campo Y', 'Field Y', 'Campo Y')),
      field('z', 'slider', t('Campo Z', 'Field Z', 'Campo Z'), { min: 0, max: 50 }),
    )
    await draw(entity)
    await click(control())
    await click(screen.getByLabelText('Campo Y'))
    await act(async () => void fireEvent.change(screen.getByLabelText(/^Campo Z/), { target: { value: 30 } }))
    await submit()
    expect(json(entity)).toEqual({ x: true, y: true, z: 30 })
  })

  it('datatable: rows through a sub-form whose save is refused while invalid; adding needs sites.add_site', async () => {
    serve([])
    const entity = tiny(
      field('x', 'datatable', LABEL, {
        fields: [field('name', 'text', t('Nome', 'Name', 'Nombre'), { required: true }), field('qty', 'number', t('Quantidade', 'Quantity', 'Cantidad'))],
      }),
    )
    await draw(entity)
    await screen.findByText('Sem resultados')
    await vi.waitFor(() => expect(calls.some((c) => c.path === '/api/v1/business/profile/')).toBe(true))
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)))
    expect(screen.queryByTestId('datatable-add')).toBeNull()
    cleanup()
    serve([PERMISSIONS.addSite])
    await draw(entity)
    await click(await screen.findByTestId('datatable-add'))
    const dialog = await screen.findByTestId('datatable-dialog')
    await click(within(dialog).getByTestId('row-save'))
    expect(within(dialog).getByTestId('row-invalid')).toBeTruthy()
    expect(within(dialog).getByText('Este campo é obrigatório')).toBeTruthy()
    await type(within(dialog).getByLabelText(/^Nome/), 'Ana')
    await type(within(dialog).getByLabelText(/^Quantidade/), '2')
    await click(within(dialog).getByTestId('row-save'))
    expect(screen.queryByTestId('datatable-dialog')).toBeNull()
    expect(screen.getAllByTestId('datatable-row')).toHaveLength(1)
    await submit()
    expect(json(entity)).toEqual({ x: [{ name: 'Ana', qty: 2 }] })
  })

  it('datatable: a reference chosen in a new row shows its title in the table, asked by id (no "#3")', async () => {
    serve([PERMISSIONS.addSite], (c) => {
      if (c.path !== '/api/v1/crm/tags/') return undefined
      const ids = c.url.searchParams.get('id__in')
      const all = [
        { id: 3, description: 'Suporte' },
        { id: 4, description: 'Vendas' },
      ]
      const results = ids ? all.filter((row) => ids.split(',').includes(String(row.id))) : all
      return { body: { count: results.length, results } }
    })
    const entity = tiny(field('x', 'datatable', LABEL, { fields: [field('tag', 'api', t('Etiqueta', 'Tag', 'Etiqueta'), { lookup: LOOKUP, required: true })] }))
    await draw(entity)
    await click(await screen.findByTestId('datatable-add'))
    const dialog = await screen.findByTestId('datatable-dialog')
    await pick(within(dialog).getByLabelText(/^Etiqueta/), 'Sup', 'Suporte')
    await click(within(dialog).getByTestId('row-save'))
    const row = screen.getByTestId('datatable-row')
    await vi.waitFor(() => expect(row.textContent).toContain('Suporte'))
    expect(row.textContent).not.toContain('#3')
    expect(calls.some((c) => c.path === '/api/v1/crm/tags/' && c.url.searchParams.get('id__in') === '3')).toBe(true)
    await submit()
    expect(json(entity)).toEqual({ x: [{ tag: 3 }] })
  })

  it('datatable: rows read with their titles ask nothing more', async () => {
    serve([PERMISSIONS.addSite])
    const entity = tiny(field('x', 'datatable', LABEL, { fields: [field('tag', 'api', t('Etiqueta', 'Tag', 'Etiqueta'), { lookup: LOOKUP })] }))
    await draw(entity, { values: { x: [{ tag: 4, tag_description: 'Vendas' }] } })
    expect(screen.getByTestId('datatable-row').textContent).toContain('Vendas')
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(calls.some((c) => c.path === '/api/v1/crm/tags/')).toBe(false)
  })

  it('datatable-api: rows read from the API', async () => {
    serve([], (c) => (c.path === '/api/v1/crm/tags/' ? { body: { count: 1, results: [{ id: 1, description: 'Linha da API' }] } } : undefined))
    await draw(
      tiny(field('x', 'datatable-api', LABEL, { lookup: LOOKUP, fields: [field('description', 'text', t('Descrição', 'Description', 'Descripción'))] })),
    )
    expect(await screen.findByText('Linha da API')).toBeTruthy()
  })

  it('tabs: the form layout tabs, with the count of messages per tab', async () => {
    const a = field('a', 'text', t('Campo A', 'Field A', 'Campo A'), { required: true })
    const b = field('b', 'text', t('Campo B', 'Field B', 'Campo B'))
    const entity = defineEntity({
      area: 'crm',
      name: 'tags',
      model: 'tag',
      route: 'crm/tags',
      label: { singular: LABEL, plural: LABEL },
      fields: [a, b],
      form: {
        tabs: [
          { key: 'one', label: t('Um', 'One', 'Uno'), fields: ['a'] },
          { key: 'two', label: t('Dois', 'Two', 'Dos'), fields: ['b'] },
        ],
      },
    })
    await draw(entity)
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Um', 'Dois'])
    await click(screen.getByRole('tab', { name: 'Dois' }))
    await submit()
    // A failed submit opens the first tab with a message, and the tab shows how many it holds.
    expect(screen.getByRole('tab', { name: /Um/ }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByRole('tab', { name: /Um/ }).textContent).toBe('Um1')
    const nested = tiny(
      field('x', 'tabs', LABEL, {
        fields: [
          field('t1', 'divider', t('Aba 1', 'Tab 1', 'Pestaña 1'), { fields: [a] }),
          field('t2', 'divider', t('Aba 2', 'Tab 2', 'Pestaña 2'), { fields: [b] }),
        ],
      }),
    )
    cleanup()
    await draw(nested)
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Aba 1', 'Aba 2'])
  })

  it('crud-index: asks to save first on a new record', async () => {
    await draw(tiny(field('x', 'crud-index', LABEL, { embeds: 'pabx.outbound-route-trunks' })))
    expect(screen.getByText('Salve o registro para adicionar itens aqui.')).toBeTruthy()
  })

  it('chat-messages and divider: read-only layout', async () => {
    const entity = tiny(field('d', 'divider', t('Seção', 'Section', 'Sección')), field('x', 'chat-messages', LABEL))
    await draw(entity, {
      values: {
        x: [
          { id: 1, text: 'Oi!', from_me: false },
          { id: 2, text: 'Olá, como posso ajudar?', from_me: true },
        ],
      },
    })
    expect(screen.getByRole('separator').textContent).toBe('Seção')
    expect(within(screen.getByRole('log')).getByText('Olá, como posso ajudar?')).toBeTruthy()
  })
})

// Every kind the registry's entities use is one of these.
it('covers the kinds the registry uses', () => {
  const used = new Set<FieldKind>()
  const walk = (fields: readonly Field[]) => fields.forEach((f) => (used.add(f.kind), walk(f.fields ?? [])))
  ENTITIES.forEach((e) => walk(e.fields))
  expect(used.size).toBeGreaterThan(10)
  for (const kind of used) expect(FIELD_COMPONENTS[kind]).toBeTruthy()
})
