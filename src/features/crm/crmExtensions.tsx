import { lazy, Suspense } from 'react'
import { registerFormAside } from '../../entities/form/asides.ts'
import { registerCreatePreset, registerFieldComponents, registerListTools } from '../../entities/form/overrides.ts'
import type { FieldInputProps } from '../../entities/form/types.ts'
import { crmApi } from './crmApi.ts'

// What the CRM draws beside and inside its entity pages, loaded with the first client or interaction page: a
// client's duplicates and timeline; an interaction's custom fields (its type's form), its files, the type of a list of
// one type, and /interactions/:form (a new interaction of the type with that slug).
const ClientAside = lazy(() => import('./ClientAside.tsx').then((m) => ({ default: m.ClientAside })))
const InteractionFilesAside = lazy(() => import('./InteractionFiles.tsx').then((m) => ({ default: m.InteractionFilesAside })))
const InteractionTypeTools = lazy(() => import('./InteractionTypeTools.tsx').then((m) => ({ default: m.InteractionTypeTools })))
const CustomFields = lazy(() => import('./InteractionCustomFields.tsx').then((m) => ({ default: m.interactionCustomFields.Input })))
const CustomFieldsReadOnly = lazy(() => import('./InteractionCustomFields.tsx').then((m) => ({ default: m.interactionCustomFields.ReadOnly })))

registerFormAside('crm.clients', () => <ClientAside />)
registerFormAside('crm.client-interactions', () => <InteractionFilesAside />)

registerFieldComponents('crm.client-interactions', 'form_data', {
  Input: (props: FieldInputProps<unknown>) => (
    <Suspense fallback={null}>
      <CustomFields {...props} />
    </Suspense>
  ),
  ReadOnly: (props) => (
    <Suspense fallback={null}>
      <CustomFieldsReadOnly {...props} />
    </Suspense>
  ),
  ownLabel: true,
  wide: true,
})

registerListTools('crm.client-interactions', (props) => (
  <Suspense fallback={null}>
    <InteractionTypeTools {...props} />
  </Suspense>
))

registerCreatePreset('crm.client-interactions', async (slug) => {
  try {
    const type = await crmApi.interactionType(slug)
    return { interaction: type.id, interaction_description: type.description }
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null
    throw error
  }
})
