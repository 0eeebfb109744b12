import type { FieldKind } from '../../../contract/entities/index.ts'
import { apiField } from './fields/ApiSelectInput.tsx'
import { appField } from './fields/AppInput.tsx'
import { autocompleteField } from './fields/AutocompleteInput.tsx'
import { btngroupField, radioField } from './fields/ChoiceInputs.tsx'
import { classificationField, classificationWithCacheField } from './fields/ClassificationInput.tsx'
import { comboboxField } from './fields/ComboboxInput.tsx'
import { datatableApiField } from './fields/DatatableApiInput.tsx'
import { datatableField } from './fields/DatatableInput.tsx'
import { datetimeBrowserField } from './fields/DateTimeBrowserInput.tsx'
import { datetimeField, hourField } from './fields/DateTimeInput.tsx'
import { editorField } from './fields/EditorInput.tsx'
import { fileField } from './fields/FileInput.tsx'
import { hiddenField } from './fields/HiddenField.tsx'
import { chatMessagesField, crudIndexField, dividerField } from './fields/LayoutKinds.tsx'
import { maskField } from './fields/MaskInput.tsx'
import { numberField } from './fields/NumberInput.tsx'
import { selectField } from './fields/SelectInput.tsx'
import { tabsField } from './fields/TabsInput.tsx'
import { textareaField } from './fields/TextareaInput.tsx'
import { textField } from './fields/TextInput.tsx'
import { checkboxField, sliderField, switchField } from './fields/ToggleInputs.tsx'
import type { FieldComponents } from './types.ts'

/**
 * Every field kind of the renderer (spec 001 §3) → its input and read-only twin. Typed as a Record over the
 * contract's FieldKind union, so a kind added to the contract without a component here does not compile (and
 * tests/src/form-kinds.test.tsx checks the same at run time).
 */
export const FIELD_COMPONENTS: Readonly<Record<FieldKind, FieldComponents>> = {
  hidden: hiddenField,
  text: textField,
  number: numberField,
  textarea: textareaField,
  editor: editorField,
  file: fileField,
  select: selectField,
  combobox: comboboxField,
  autocomplete: autocompleteField,
  mask: maskField,
  api: apiField,
  'api-join': apiField,
  'api-join-3': apiField,
  app: appField,
  classification: classificationField,
  classificationWithCache: classificationWithCacheField,
  datetimepicker: datetimeField,
  hourpicker: hourField,
  datetimebrowser: datetimeBrowserField,
  btngroup: btngroupField,
  radio: radioField,
  checkbox: checkboxField,
  switch: switchField,
  slider: sliderField,
  datatable: datatableField,
  'datatable-api': datatableApiField,
  tabs: tabsField,
  'crud-index': crudIndexField,
  'chat-messages': chatMessagesField,
  divider: dividerField,
}
