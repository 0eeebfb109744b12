import type { FieldComponents } from '../types.ts'
import { asText } from './shared.ts'

/** hidden: kept in the values (a sub-route's parent id), never drawn. */
export const hiddenField: FieldComponents = {
  Input: ({ field, value }) => <input type="hidden" name={field.name} value={asText(value)} />,
  ReadOnly: () => null,
  ownLabel: true,
}
