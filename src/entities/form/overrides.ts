import type { ComponentType } from 'react'
import type { EntityKey, Values } from '../../../contract/entities/index.ts'
import type { FieldComponents } from './types.ts'

// What an area draws instead of the renderer's own, for one entity: a field whose input is the area's (an
// interaction's custom fields are its type's form, drawn from the form builder), and the values a create page
// starts from when its address names a row by slug (/interactions/:form). The renderer names no entity: the area
// registers these (features/crm/crmExtensions.tsx) before its pages render.

const INPUTS = new Map<string, FieldComponents>()

/** The input (and read-only twin) of one field of one entity, in place of its kind's. */
export function registerFieldComponents(key: EntityKey, field: string, components: FieldComponents): void {
  INPUTS.set(`${key}:${field}`, components)
}

export function fieldComponentsOf(key: EntityKey | undefined, field: string): FieldComponents | undefined {
  return key ? INPUTS.get(`${key}:${field}`) : undefined
}

/** The values a create page starts from for a slug (null: no such row, the page says so). */
export type PresetResolver = (slug: string) => Promise<Values | null>

const PRESETS = new Map<EntityKey, PresetResolver>()

export function registerCreatePreset(key: EntityKey, resolve: PresetResolver): void {
  PRESETS.set(key, resolve)
}

export function createPresetOf(key: EntityKey): PresetResolver | undefined {
  return PRESETS.get(key)
}

/** Buttons an area adds to an entity's list toolbar (the interactions of one type: that type, and a new one of it). */
export type ListTools = ComponentType<{ filter?: Readonly<Record<string, number>> }>

const TOOLS = new Map<EntityKey, ListTools>()

export function registerListTools(key: EntityKey, tools: ListTools): void {
  TOOLS.set(key, tools)
}

export function listToolsOf(key: EntityKey): ListTools | undefined {
  return TOOLS.get(key)
}
