import { useQuery } from '@tanstack/react-query'
import type { Entity } from '../../contract/entities/index.ts'
import { has } from '../../contract/permissions.ts'
import { profileQuery } from '../api/session.ts'

export type EntityPermissions = { view: boolean; add: boolean; change: boolean; delete: boolean }

/** The signed-in user's roles (empty before the profile loads). */
export function useRoles(): readonly string[] {
  return useQuery(profileQuery).data?.roles ?? []
}

/** Spec 001 §6 permView/permAdd/permEdit/permDelete of an entity, for the list, its buttons and embedded lists. */
export function entityPermissions(entity: Entity, roles: readonly string[]): EntityPermissions {
  return {
    view: has(roles, entity.permissions.view),
    add: has(roles, entity.permissions.add),
    change: has(roles, entity.permissions.change),
    delete: has(roles, entity.permissions.delete),
  }
}

export function useEntityPermissions(entity: Entity): EntityPermissions {
  return entityPermissions(entity, useRoles())
}
