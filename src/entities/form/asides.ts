import type { ComponentType } from 'react'
import type { EntityKey, Values } from '../../../contract/entities/index.ts'

// Panels drawn beside an entity's form (the form builder's preview beside service/forms). The renderer names no
// entity: the area that owns a panel registers it (features/settings/formExtensions.tsx), before its pages render.

export type FormAside = ComponentType<{ values: Values }>

const ASIDES = new Map<EntityKey, FormAside>()

export function registerFormAside(key: EntityKey, aside: FormAside): void {
  ASIDES.set(key, aside)
}

export function formAsideOf(key: EntityKey): FormAside | undefined {
  return ASIDES.get(key)
}
