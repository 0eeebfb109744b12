import type { ComponentType } from 'react'
import type { Entity, Field, SchemaMode, Values } from '../../../contract/entities/index.ts'

/** What the form knows beyond one field: the entity, the record being edited, the mode. */
export type FormContext = {
  readonly entity?: Entity
  /** The saved record's id (edit): embedded lists (crud-index) need it. */
  readonly recordId?: number
  readonly mode: SchemaMode
}

/** The props of every field input: one value in, one value out, its message, and the whole form for dependencies. */
export type FieldInputProps<V = unknown> = {
  readonly field: Field
  /** The DOM id of the control (FormControl gives it to the input and points the label at it). */
  readonly id: string
  readonly label: string
  readonly value: V
  readonly onChange: (value: V) => void
  readonly onBlur: () => void
  /** The field's own message, once it should be shown. */
  readonly error?: string
  /** Messages below this field by relative path ('1.digit' for a datatable's second row), once shown. */
  readonly nested: Readonly<Record<string, string>>
  /** Every shown message of the form (layout kinds whose fields live at the top level). */
  readonly formErrors: Readonly<Record<string, string>>
  readonly required: boolean
  readonly disabled: boolean
  /** Every value of the form (or of the datatable row): dependent lookups read their parents here. */
  readonly values: Values
  /** Sets another value of the same form (a lookup's `<name>_description`). */
  readonly setValue: (name: string, value: unknown) => void
  readonly context: FormContext
}

/** The read-only twin: the same value, shown (list cells of a datatable, detail views). */
export type FieldReadOnlyProps<V = unknown> = {
  readonly field: Field
  readonly value: V
  readonly values: Values
}

export type FieldComponents = {
  readonly Input: ComponentType<FieldInputProps<any>>
  readonly ReadOnly: ComponentType<FieldReadOnlyProps<any>>
  /** Draws its own label (checkbox, switch, layout kinds): the renderer adds no FormControl around it. */
  readonly ownLabel?: boolean
  /** Needs a whole row whatever the field's cols (a destination's two selects, the classification chain). */
  readonly wide?: boolean
}
