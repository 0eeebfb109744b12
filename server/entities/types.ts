// Names the entity layer shares, re-exported from the contract so modules import them from one place.
export type { Entity, EntityKey, Field } from '../../contract/entities/index.ts'
export type { FieldErrors } from '../../contract/api/errors.ts'
