import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import type { Entity, Field, FieldKind } from '../../../contract/entities/index.ts'
import { defineEntity, t } from '../../../contract/entities/define.ts'
import { field } from '../../../contract/entities/fields.ts'
import { EntityForm } from '../../../src/entities/form/EntityForm.tsx'
import { initialValuesFor } from '../../../src/entities/form/initialValues.ts'
import { renderUi, serve, setupDom } from './harness.tsx'

// Text longer than a field allows is kept as typed or pasted, so the spec's message can say so: the browser's
// maxlength would cut it silently and 'Este campo é maior do que o permitido que é {n}' would never show.

const LABEL = t('Campo X', 'Field X', 'Campo X')
const tiny = (...fields: Field[]): Entity =>
  defineEntity({ area: 'crm', name: 'tags', model: 'tag', route: 'crm/tags', label: { singular: LABEL, plural: LABEL }, fields })
const control = () => screen.getAllByLabelText(/^Campo X/).find((el) => el.tagName !== 'DIV') as HTMLInputElement

beforeAll(setupDom)
afterEach(cleanup)

describe('over-long text', () => {
  for (const kind of ['text', 'textarea', 'editor'] as FieldKind[]) {
    it(`${kind}: keeps all 300 characters and answers that the maximum is 255`, async () => {
      serve([])
      const save = vi.fn(async () => {})
      const entity = tiny(field('x', kind, LABEL, { max: 255 }))
      await renderUi(<EntityForm entity={entity} mode="create" initialValues={initialValuesFor(entity)} save={save} />)
      expect(control().getAttribute('maxlength')).toBeNull()
      await act(async () => void fireEvent.change(control(), { target: { value: 'a'.repeat(300) } }))
      await act(async () => void fireEvent.blur(control()))
      expect(control().value).toHaveLength(300)
      expect(screen.getByText('Este campo é maior do que o permitido que é 255')).toBeTruthy()
      await act(async () => void fireEvent.click(screen.getByTestId('form-save')))
      expect(save).not.toHaveBeenCalled()
    })
  }
})
