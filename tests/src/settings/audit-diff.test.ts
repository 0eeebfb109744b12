import { describe, expect, it } from 'vitest'
import { auditChanges } from '../../../src/features/settings/audit/auditDiff.ts'

// The audit log names fields by their labels: a reference's `<field>_description` is its title, never a field.
describe('audit changes of references', () => {
  it('lists a changed reference once, under its own field, by its titles', () => {
    const before = { description: 'Suporte', teams: [1], teams_description: ['Equipe A'], team: 2, team_description: 'Vendas' }
    const after = { description: 'Suporte', teams: [1, 3], teams_description: ['Equipe A', 'Equipe B'], team: 2, team_description: 'Vendas' }
    expect(auditChanges(before, after)).toEqual([{ field: 'teams', before: ['Equipe A'], after: ['Equipe A', 'Equipe B'] }])
  })

  it('ignores a title that changed only because the row it names was renamed', () => {
    expect(auditChanges({ team: 2, team_description: 'Vendas' }, { team: 2, team_description: 'Vendas SP' })).toEqual([])
  })

  it('shows every reference of a created record by its title, and an id when the title is missing', () => {
    expect(auditChanges(null, { overflow: { app: 'queue', appdata: 3 }, overflow_description: 'Fila: Suporte', device: 4, device_description: null })).toEqual([
      { field: 'overflow', before: undefined, after: 'Fila: Suporte' },
      { field: 'device', before: undefined, after: 4 },
    ])
  })
})
