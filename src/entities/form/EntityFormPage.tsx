import { Suspense } from 'react'
import Card from '@mui/joy/Card'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { Values } from '../../../contract/entities/index.ts'
import { payloadFor } from '../../../contract/entities/index.ts'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { PageSpinner } from '../../components/layout/PageSpinner.tsx'
import { toast } from '../../components/toast/toastStore.ts'
import { detailQuery, duplicateQuery, entityQueryKey, saveRecord } from '../api.ts'
import { useEntityNavigate } from '../links.tsx'
import { entityPath } from '../paths.ts'
import type { SettingsPage } from '../paths.ts'
import { useText } from '../text.ts'
import { formAsideOf } from './asides.ts'
import { EntityForm } from './EntityForm.tsx'
import { initialValuesFor } from './initialValues.ts'

/** create (optionally ?duplicate_id=) and {id}/edit of any settings entity. */
export function EntityFormPage({ page, duplicateId, phone, preset }: { page: SettingsPage; duplicateId?: number; phone?: string; preset?: Values }) {
  const { t } = useLingui()
  const text = useText()
  const queryClient = useQueryClient()
  const { entity, parentId } = page
  const navigate = useEntityNavigate(entity.home)
  const editing = page.kind === 'edit' ? page.itemId : undefined
  const sourceId = editing ?? duplicateId
  // A copy starts from the record with its unique names made free ('Equipe A' → 'Equipe A 2'), so it can be saved.
  const copying = editing === undefined && duplicateId !== undefined
  const detail = useQuery({ ...detailQuery(entity, editing ?? 0), enabled: editing !== undefined })
  const copy = useQuery({ ...duplicateQuery(entity, duplicateId ?? 0), enabled: copying })
  const record = copying ? copy : detail
  const listPath = entityPath(entity, 'list', { parentId })
  if (sourceId !== undefined && record.isPending) return <PageSpinner />
  if (sourceId !== undefined && record.error) {
    const detail = record.error.message
    return <PageHeader title={text(entity.label.singular)} subtitle={t`Erro: ${detail}`} />
  }
  const data = (record.data ?? null) as Values | null
  const created = initialValuesFor(entity, { record: data, duplicate: duplicateId !== undefined && editing === undefined, parentId })
  // A new record with a phones field starts with the number it was created for (?phone=, the caller card).
  const withPhone = editing === undefined && phone && entity.fields.some((f) => f.name === 'phones') ? { ...created, phones: [phone] } : created
  // A create page whose address named a row by slug (/interactions/:form) starts with it chosen.
  const initialValues = editing === undefined && preset ? { ...withPhone, ...preset } : withPhone
  const singular = text(entity.label.singular)
  const title =
    editing !== undefined ? t`Editar ${singular} #${editing}` : duplicateId !== undefined ? t`Duplicar ${singular} #${duplicateId}` : t`Novo: ${singular}`
  const hasEmbeds = entity.fields.some((f) => f.kind === 'crud-index')
  // A panel an area registered beside this entity's form (the form builder's preview beside service/forms).
  const Aside = formAsideOf(entity.key)
  const save = async (values: Values) => {
    const saved = await saveRecord(entity, payloadFor(entity, values, editing !== undefined ? data : null), editing)
    toast.success(t`Registro salvo.`)
    await queryClient.invalidateQueries({ queryKey: entityQueryKey(entity) })
    // A new record with embedded lists opens for editing, where its children can be added.
    if (editing === undefined && hasEmbeds && saved?.id) await navigate(entityPath(entity, 'edit', { parentId, itemId: saved.id }))
    else await navigate(listPath)
  }
  return (
    <>
      <PageHeader title={title} subtitle={text(entity.label.plural)} />
      <Card variant="outlined" sx={{ boxShadow: 'xs', p: { xs: 2, sm: 3 } }}>
        <EntityForm
          entity={entity}
          mode={editing !== undefined ? 'update' : 'create'}
          initialValues={initialValues}
          original={editing !== undefined ? data : null}
          recordId={editing}
          save={save}
          onCancel={() => void navigate(listPath)}
          aside={
            Aside
              ? (values) => (
                  <Suspense fallback={<PageSpinner />}>
                    <Aside values={values} />
                  </Suspense>
                )
              : undefined
          }
        />
      </Card>
    </>
  )
}
