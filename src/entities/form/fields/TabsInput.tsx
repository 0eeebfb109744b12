import type { FieldComponents, FieldInputProps } from '../types.ts'
import { FormTabs } from '../FormTabs.tsx'

/**
 * tabs: a layout field whose sub-fields are its tabs, each tab's `fields` its content. Nested values stay in the
 * same form (the tab fields hold no value of their own).
 */
function TabsInput({ field, values, setValue, onBlur, context, disabled, formErrors }: FieldInputProps) {
  const tabs = (field.fields ?? []).map((tab) => ({ key: tab.name, label: tab.label, fields: (tab.fields ?? []).map((f) => f.name) }))
  const fields = (field.fields ?? []).flatMap((tab) => tab.fields ?? [])
  return (
    <FormTabs
      fields={fields}
      tabs={tabs}
      values={values}
      errors={formErrors}
      onChange={setValue}
      onBlur={() => onBlur()}
      context={context}
      disabled={disabled}
    />
  )
}

export const tabsField: FieldComponents = { Input: TabsInput, ReadOnly: () => null, ownLabel: true }
