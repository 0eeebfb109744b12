import { useId } from 'react'
import Box from '@mui/joy/Box'
import type { Field, Values } from '../../../contract/entities/index.ts'
import { conditionHolds, isRequired } from '../../../contract/entities/index.ts'
import { useText } from '../text.ts'
import { ContactButtons } from './ContactButtons.tsx'
import { FIELD_COMPONENTS } from './fieldKinds.ts'
import { fieldComponentsOf } from './overrides.ts'
import type { FormContext } from './types.ts'
import { nestedOf } from './validate.ts'

export type FieldsProps = {
  readonly fields: readonly Field[]
  readonly values: Values
  /** Messages to show, by path. */
  readonly errors: Readonly<Record<string, string>>
  readonly onChange: (name: string, value: unknown) => void
  readonly onBlur: (name: string) => void
  readonly context: FormContext
  readonly disabled?: boolean
}

/** A field's input: the one its entity's area registered for it, else its kind's. */
function componentsOf(field: Field, context: FormContext) {
  return fieldComponentsOf(context.entity?.key, field.name) ?? FIELD_COMPONENTS[field.kind]
}

/** One field through the kind → component map (Twenty's FieldInput idea: a map, not a chain of conditions). */
export function FieldRenderer({ field, ...props }: Omit<FieldsProps, 'fields'> & { field: Field }) {
  const text = useText()
  const id = `${useId()}-${field.name}`
  const { Input } = componentsOf(field, props.context)
  const input = (
    <Input
      field={field}
      id={id}
      label={text(field.label)}
      value={props.values[field.name]}
      onChange={(value: unknown) => props.onChange(field.name, value)}
      onBlur={() => props.onBlur(field.name)}
      error={props.errors[field.name]}
      nested={nestedOf(props.errors, field.name)}
      formErrors={props.errors}
      required={isRequired(field, props.values, props.context.mode)}
      // A platform field (a site's domain) is the platform operator's to change, never a form's.
      disabled={Boolean(props.disabled || field.readonly || field.platform)}
      values={props.values}
      setValue={props.onChange}
      context={props.context}
    />
  )
  // A phone field's call and chat buttons (spec 001 §3 btn_phone, btn_chat), in every form the renderer draws.
  if (!field.btnPhone && !field.btnChat) return input
  return (
    <>
      {input}
      <ContactButtons field={field} value={props.values[field.name]} context={props.context} />
    </>
  )
}

/** The fields that show for these values (visibleWhen), laid out on a 12-column grid by their cols (6 or 12). */
export function FormFields(props: FieldsProps) {
  const visible = props.fields.filter((f) => conditionHolds(f.visibleWhen, props.values))
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(12, minmax(0, 1fr))', columnGap: 2, rowGap: 2, alignItems: 'start' }}>
      {visible.map((field) => (
        <Box
          key={field.name}
          sx={{
            gridColumn: { xs: 'span 12', sm: `span ${componentsOf(field, props.context).wide ? 12 : field.cols}` },
            display: field.kind === 'hidden' && !fieldComponentsOf(props.context.entity?.key, field.name) ? 'none' : undefined,
            minWidth: 0,
          }}
          data-cols={field.cols}
        >
          <FieldRenderer field={field} {...props} />
        </Box>
      ))}
    </Box>
  )
}
