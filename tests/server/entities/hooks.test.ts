import { describe, expect, it } from 'vitest'
import type { EntityContext } from '../../../server/entities/context.ts'
import { HOOKS, registerEntityHooks } from '../../../server/entities/hooks.ts'
import '../../../server/entity-hooks.ts'

// The areas register their own rules; the write path reads the combined hooks of each entity.
const ctx = { lang: 'pt-BR', userId: 1, site: { id: 1 } } as unknown as EntityContext

describe('entity hooks registered by each area', () => {
  it('holds the rules of accounts, sites, telephony and chat channels once their registrations are loaded', () => {
    expect(Object.keys(HOOKS).sort()).toEqual([
      'business.departments',
      'business.groups',
      'business.sites',
      'business.users',
      'chat.channels',
      'crm.client-interactions',
      'crm.clients',
      'crm.leads',
      'pabx.devices',
      'pabx.trunks',
      'service.teams',
    ])
    // business.users: the password policy from auth, the webphone account from telephony.
    expect(HOOKS['business.users']?.validate).toBeTypeOf('function')
    expect(HOOKS['business.users']?.afterWrite).toBeTypeOf('function')
    expect(HOOKS['business.users']?.refuseDelete?.(ctx, 1)).toBe('Não é possível excluir ou desativar o próprio usuário nem o site em uso.')
    expect(HOOKS['business.sites']?.afterCommit).toBeTypeOf('function')
  })

  it('runs two areas hooks for one entity in registration order and merges their errors', async () => {
    const calls: string[] = []
    registerEntityHooks('crm.tags', {
      normalise: (values) => void calls.push(`a:${String(values.x)}`),
      validate: () => ({ a: ['first'] }),
      refuseDelete: () => undefined,
      afterWrite: async () => void calls.push('a:write'),
    })
    registerEntityHooks('crm.tags', {
      normalise: (values) => void calls.push(`b:${String(values.x)}`),
      validate: () => ({ b: ['second'] }),
      refuseDelete: () => 'no',
      afterWrite: async () => void calls.push('b:write'),
    })
    const hooks = HOOKS['crm.tags']!
    hooks.normalise!({ x: 1 })
    await hooks.afterWrite!(ctx, 5)
    expect(calls).toEqual(['a:1', 'b:1', 'a:write', 'b:write'])
    expect(await hooks.validate!(ctx, {}, null)).toEqual({ a: ['first'], b: ['second'] })
    expect(hooks.refuseDelete!(ctx, 5)).toBe('no')
    delete HOOKS['crm.tags']
  })
})
