import { useState } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import { entityByKey, formValuesFor } from '../../../contract/entities/index.ts'
import type { Values } from '../../../contract/entities/index.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { EntityForm } from '../../../src/entities/form/EntityForm.tsx'
import { builderField } from '../../../src/features/settings/formBuilder/builderFields.ts'
import { FormBuilderPreview } from '../../../src/features/settings/formBuilder/FormBuilderPreview.tsx'
import { renderUi, serve, setupDom } from './harness.tsx'

// The form builder (service/forms): a definition's attributes reach the renderer's field through builderField, and
// the preview draws, validates and serialises it with the same renderer and payload rules as every form.

const UF_OPTIONS = 'SP=São Paulo;RJ=Rio de Janeiro'

const click = (el: Element) => act(async () => void fireEvent.click(el))
const type = (el: Element, value: string) => act(async () => void fireEvent.change(el, { target: { value } }))

let redefine: (definitions: Values[]) => void = () => {}

/** The preview of some definitions; `redefine` edits them as the builder's rows would. */
function Builder({ initial }: { initial: Values[] }) {
  const [definitions, setDefinitions] = useState(initial)
  redefine = setDefinitions
  return <FormBuilderPreview definitions={definitions} />
}

async function preview(definitions: Values[]) {
  serve([])
  await renderUi(<Builder initial={definitions} />)
  return { box: screen.getByTestId('form-preview') }
}

/** Presses 'Validar' and reads the body the preview shows (it shows one only when the form is valid). */
async function sent(box: HTMLElement): Promise<Values> {
  await click(within(box).getByTestId('preview-validate'))
  return JSON.parse(within(box).getByTestId('preview-body').textContent!) as Values
}

async function choose(box: HTMLElement, label: RegExp, ...options: string[]) {
  await click(within(box).getByRole('combobox', { name: label }))
  for (const option of options) await click(await screen.findByRole('option', { name: option }))
}

beforeAll(setupDom)
afterEach(cleanup)

describe('builderField: a definition as the renderer field', () => {
  it('makes a choice field return the chosen option only for select, autocomplete and api', () => {
    expect(builderField({ name: 'uf', type: 'select', options: UF_OPTIONS, return_object: true })).toMatchObject({ returnObject: true, storage: 'jsonb' })
    expect(builderField({ name: 'tag', type: 'api', api: '/api/v1/crm/tags/', return_object: true })).toMatchObject({
      returnObject: true,
      lookup: { path: '/api/v1/crm/tags/' },
    })
    expect(builderField({ name: 'x', type: 'text', return_object: true })).not.toHaveProperty('returnObject')
    expect(builderField({ name: 'uf', type: 'select', options: UF_OPTIONS, return_object: true, value: 'SP' })?.default).toEqual({
      value: 'SP',
      text: 'São Paulo',
    })
  })

  it("joins a multiple field into a string on its delimiter, ',' by default", () => {
    expect(builderField({ name: 'uf', type: 'select', options: UF_OPTIONS, multiple: true, return_to_string: true })).toMatchObject({
      returnToString: true,
      storage: 'text',
    })
    expect(builderField({ name: 'uf', type: 'select', options: UF_OPTIONS, multiple: true, return_to_string: true })).not.toHaveProperty('delimiters')
    expect(builderField({ name: 'uf', type: 'select', multiple: true, return_to_string: true, delimiters: ';' })?.delimiters).toEqual([';'])
    // Only a field holding several values is joined.
    expect(builderField({ name: 'uf', type: 'select', options: UF_OPTIONS, return_to_string: true })).not.toHaveProperty('returnToString')
  })

  it('joins a combobox on its delimiter when it has one, and sends it as a list otherwise', () => {
    expect(builderField({ name: 'tags', type: 'combobox', delimiters: ',' })).toMatchObject({ delimiters: [','], storage: 'text', multiple: true })
    const list = builderField({ name: 'tags', type: 'combobox' })
    expect(list).toMatchObject({ storage: 'jsonb', multiple: true })
    expect(list).not.toHaveProperty('delimiters')
  })

  it('gives a datetimepicker its date format, ISO 8601 without one', () => {
    expect(builderField({ name: 'd', type: 'datetimepicker', date_format: ' DD/MM/YYYY ' })).toMatchObject({ dateFormat: 'DD/MM/YYYY', storage: 'text' })
    expect(builderField({ name: 'd', type: 'datetimepicker', date_format: '' })).toMatchObject({ storage: 'timestamptz' })
    expect(builderField({ name: 'd', type: 'text', date_format: 'DD/MM/YYYY' })).not.toHaveProperty('dateFormat')
  })

  it('types a masked text through the mask input, and checks a field with a call or chat button as a phone', () => {
    expect(builderField({ name: 'cep', type: 'text', mask: '#####-###' })).toMatchObject({ kind: 'mask', mask: '#####-###' })
    expect(builderField({ name: 'tel', type: 'text', btn_phone: true })).toMatchObject({ kind: 'text', validation: 'phone' })
    expect(builderField({ name: 'tel', type: 'text', btn_chat: true, validation: 'email' })).toMatchObject({ validation: 'email' })
  })

  it('draws an autocomplete without an API from its options', () => {
    const field = builderField({ name: 'uf', type: 'autocomplete', options: UF_OPTIONS })
    expect(field).toMatchObject({ kind: 'autocomplete', storage: 'text' })
    expect(field).not.toHaveProperty('lookup')
  })

  it('makes a pop-up a read-only address that sends nothing', () => {
    const field = builderField({ name: 'crm', type: 'popup', value: 'https://crm.example/?cpf={doc}' })
    expect(field).toMatchObject({ kind: 'text', readonly: true, validation: 'url', default: 'https://crm.example/?cpf={doc}' })
    expect(formValuesFor({ ...entityByKey('service.forms'), fields: [field!] })).toEqual({})
  })
})

describe('the preview renders and serialises the definition', () => {
  it('sends the chosen option itself with return_object', async () => {
    const { box } = await preview([{ name: 'uf', label: 'Estado', type: 'select', options: UF_OPTIONS, return_object: true, required: true }])
    await choose(box, /^Estado/, 'São Paulo')
    expect(within(box).getByRole('combobox', { name: /^Estado/ }).textContent).toContain('São Paulo')
    expect(await sent(box)).toEqual({ uf: { value: 'SP', text: 'São Paulo' } })
  })

  it('sends the chosen value without it', async () => {
    const { box } = await preview([{ name: 'uf', label: 'Estado', type: 'select', options: UF_OPTIONS }])
    await choose(box, /^Estado/, 'Rio de Janeiro')
    expect(await sent(box)).toEqual({ uf: 'RJ' })
  })

  it("joins a multiple select on ',' with return_to_string, on the chosen delimiter, or sends a list", async () => {
    const definitions = [
      { name: 'a', label: 'Comma', type: 'select', options: UF_OPTIONS, multiple: true, return_to_string: true },
      { name: 'b', label: 'Semicolon', type: 'select', options: UF_OPTIONS, multiple: true, return_to_string: true, delimiters: ';' },
      { name: 'c', label: 'List', type: 'select', options: UF_OPTIONS, multiple: true },
    ]
    const { box } = await preview(definitions)
    for (const label of [/^Comma/, /^Semicolon/, /^List/]) {
      await choose(box, label, 'São Paulo', 'Rio de Janeiro')
      await act(async () => void fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' }))
    }
    expect(await sent(box)).toEqual({ a: 'SP,RJ', b: 'SP;RJ', c: ['SP', 'RJ'] })
  })

  it('joins the values of chosen options when both are set, and shows them by their text', async () => {
    const { box } = await preview([
      { name: 'uf', label: 'Estado', type: 'autocomplete', options: UF_OPTIONS, multiple: true, return_object: true, return_to_string: true },
    ])
    const input = within(box).getByRole('combobox', { name: /^Estado/ })
    await act(async () => {
      fireEvent.focus(input)
      fireEvent.change(input, { target: { value: 'Rio' } })
    })
    // The options are filtered as typed: no API behind this autocomplete.
    expect(screen.queryByRole('option', { name: 'São Paulo' })).toBeNull()
    await click(await screen.findByRole('option', { name: 'Rio de Janeiro' }))
    expect(within(box).getByText('Rio de Janeiro')).toBeTruthy()
    expect(await sent(box)).toEqual({ uf: 'RJ' })
  })

  it('shows and sends a date in its format, with the picker the format asks for', async () => {
    const { box } = await preview([
      { name: 'day', label: 'Dia', type: 'datetimepicker', date_format: 'DD/MM/YYYY', required: true },
      { name: 'at', label: 'Quando', type: 'datetimepicker', date_format: 'DD/MM/YYYY HH:mm' },
      { name: 'iso', label: 'ISO', type: 'datetimepicker' },
    ])
    const day = within(box).getByLabelText(/^Dia/) as HTMLInputElement
    const at = within(box).getByLabelText(/^Quando/) as HTMLInputElement
    const iso = within(box).getByLabelText(/^ISO/) as HTMLInputElement
    expect([day.type, at.type, iso.type]).toEqual(['date', 'datetime-local', 'datetime-local'])
    expect([at.getAttribute('step'), iso.getAttribute('step')]).toEqual(['60', '1'])
    await type(day, '2026-12-25')
    await type(at, '2026-12-25T14:30')
    await type(iso, '2026-12-25T14:30:15')
    expect(day.value).toBe('2026-12-25')
    expect(within(box).getByText('25/12/2026')).toBeTruthy()
    expect(within(box).getByText('25/12/2026 14:30')).toBeTruthy()
    const body = await sent(box)
    expect(body).toMatchObject({ day: '25/12/2026', at: '25/12/2026 14:30' })
    expect(String(body.iso)).toMatch(/^2026-12-25T14:30:15[+-]\d\d:\d\d$/)
  })

  it("says 'Data inválida ou não preenchida' for a required formatted date left empty", async () => {
    const { box } = await preview([{ name: 'day', label: 'Dia', type: 'datetimepicker', date_format: 'DD/MM/YYYY', required: true }])
    await click(within(box).getByTestId('preview-validate'))
    expect(within(box).getByText('Data inválida ou não preenchida')).toBeTruthy()
    expect(within(box).queryByTestId('preview-body')).toBeNull()
  })

  it('opens a pop-up with the fields it names filled in, and sends nothing for it', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    const { box } = await preview([
      { name: 'doc', label: 'Documento', type: 'text' },
      { name: 'crm', label: 'Ficha no CRM', type: 'popup', value: 'https://crm.example/cliente?doc={doc}' },
    ])
    const button = within(box).getByRole('button', { name: 'Abrir em uma janela' }) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    await type(within(box).getByLabelText(/^Documento/), '123 45')
    expect((within(box).getByLabelText(/^Ficha no CRM/) as HTMLInputElement).value).toBe('https://crm.example/cliente?doc=123%2045')
    await click(button)
    expect(open).toHaveBeenCalledWith('https://crm.example/cliente?doc=123%2045', '_blank', expect.stringContaining('popup'))
    expect(await sent(box)).toEqual({ doc: '123 45' })
    open.mockRestore()
  })

  it('drops a typed value when its field changes shape, and keeps it when only the label changes', async () => {
    const select = { name: 'uf', label: 'Estado', type: 'select', options: UF_OPTIONS }
    const { box } = await preview([select])
    await choose(box, /^Estado/, 'São Paulo')
    await act(async () => redefine([{ ...select, label: 'UF' }]))
    expect(await sent(box)).toEqual({ uf: 'SP' })
    await act(async () => redefine([{ ...select, label: 'UF', return_object: true }]))
    expect(await sent(box)).toEqual({})
  })
})

describe('the builder rows', () => {
  it('offer the new attributes for the types they apply to, and store them', async () => {
    serve([PERMISSIONS.addSite])
    const forms = entityByKey('service.forms')
    const save = vi.fn(async (_values: Values) => {})
    await renderUi(<EntityForm entity={forms} mode="create" initialValues={formValuesFor(forms)} save={save} />)
    await click(screen.getByRole('tab', { name: 'Campos' }))
    await click(await screen.findByTestId('datatable-add'))
    const dialog = await screen.findByTestId('datatable-dialog')
    expect(within(dialog).queryByLabelText(/^Retornar objeto/)).toBeNull()
    expect(within(dialog).queryByLabelText(/^Formato da data/)).toBeNull()
    await type(within(dialog).getByLabelText(/^Nome/), 'quando')
    await type(within(dialog).getByLabelText(/^Rótulo/), 'Quando')
    await click(within(dialog).getByRole('combobox', { name: /^Tipo/ }))
    await click(await screen.findByRole('option', { name: 'Data' }))
    await type(within(dialog).getByLabelText(/^Formato da data/), 'DD/MMM')
    await click(within(dialog).getByTestId('row-save'))
    expect(within(dialog).getByText(/^Formato de data inválido/)).toBeTruthy()
    await type(within(dialog).getByLabelText(/^Formato da data/), 'DD/MM/YYYY')
    await click(within(dialog).getByTestId('row-save'))
    expect(screen.queryByTestId('datatable-dialog')).toBeNull()
    await click(screen.getAllByRole('button', { name: /Editar/ })[0]!)
    const again = await screen.findByTestId('datatable-dialog')
    await click(within(again).getByRole('combobox', { name: /^Tipo/ }))
    await click(await screen.findByRole('option', { name: 'Seleção' }))
    expect(within(again).getByLabelText(/^Retornar objeto/)).toBeTruthy()
    expect(within(again).getByLabelText(/^Retornar como texto/)).toBeTruthy()
    expect(within(again).queryByLabelText(/^Formato da data/)).toBeNull()
  })
})
