import { describe, expect, it } from 'vitest'
import { entityByKey } from '../../../contract/entities/index.ts'
import { parseEntityPath } from '../../../src/entities/paths.ts'

// Spec 000 §2: /interactions with optional :interaction_id and :slug, plus create, :id/edit, :id/delete.
const interactions = entityByKey('crm.client-interactions')

describe('interaction paths', () => {
  it('lists every interaction, or those of one type by its id with an optional slug', () => {
    expect(parseEntityPath('interactions', '')).toEqual({ entity: interactions, kind: 'list' })
    expect(parseEntityPath('interactions', '4')).toEqual({ entity: interactions, kind: 'list', filter: { interaction: 4 } })
    expect(parseEntityPath('interactions', '4/reclamacao')).toEqual({ entity: interactions, kind: 'list', filter: { interaction: 4 } })
  })

  it('keeps create, edit and delete, and refuses anything else', () => {
    expect(parseEntityPath('interactions', 'create')).toEqual({ entity: interactions, kind: 'create' })
    expect(parseEntityPath('interactions', '7/edit')).toEqual({ entity: interactions, kind: 'edit', itemId: 7 })
    expect(parseEntityPath('interactions', '7/delete')).toEqual({ entity: interactions, kind: 'delete', itemId: 7 })
    expect(parseEntityPath('interactions', '7/Bad Slug')).toBeUndefined()
    expect(parseEntityPath('interactions', 'x/y')).toBeUndefined()
    // Other homes take no such filter.
    expect(parseEntityPath('clients', '4')).toBeUndefined()
  })

  it('reads /interactions/:form as a new interaction of the type with that slug', () => {
    expect(parseEntityPath('interactions', 'reclamacao')).toEqual({
      entity: interactions,
      kind: 'create',
      preset: { field: 'interaction', slug: 'reclamacao' },
    })
    expect(parseEntityPath('interactions', 'visita-2')).toEqual({ entity: interactions, kind: 'create', preset: { field: 'interaction', slug: 'visita-2' } })
    // A number is a type's id (the list), never a slug; a slug names no sub-page.
    expect(parseEntityPath('interactions', '12')?.kind).toBe('list')
    expect(parseEntityPath('interactions', 'Reclamação')).toBeUndefined()
    expect(parseEntityPath('interactions', 'reclamacao/edit')).toBeUndefined()
    expect(parseEntityPath('clients', 'reclamacao')).toBeUndefined()
  })
})
