import { lazy, Suspense, useState } from 'react'
import Button from '@mui/joy/Button'
import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { entityByKey } from '../../../contract/entities/index.ts'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { detailQuery } from '../api.ts'
import { ArrowBackIcon, ImportIcon } from '../icons.tsx'
import { EntityButton, useEntityNavigate } from '../links.tsx'
import { entityPath } from '../paths.ts'
import type { SettingsPage } from '../paths.ts'
import { entityPermissions, useEntityPermissions, useRoles } from '../permissions.ts'
import { useText } from '../text.ts'
import { listToolsOf } from '../form/overrides.ts'
import { DeleteDialog } from './DeleteDialog.tsx'
import { EntityList } from './EntityList.tsx'
import { fieldOf, plainValue } from './cells.tsx'

// Leads come in by the thousands from a saved layout, as a job with a progress bar (issue 17), not the generic import.
const LeadImportDialog = lazy(() => import('../../features/crm/LeadImportDialog.tsx').then((m) => ({ default: m.LeadImportDialog })))
const ImportDialog = lazy(() => import('../import/ImportDialog.tsx').then((m) => ({ default: m.ImportDialog })))

/** A settings list page; on `{id}/delete` the same list with the delete confirmation over it. */
export function EntityListPage({ page }: { page: SettingsPage }) {
  const { t } = useLingui()
  const text = useText()
  const { entity, parentId } = page
  const roles = useRoles()
  const permissions = useEntityPermissions(entity)
  const navigate = useEntityNavigate(entity.home)
  const AreaTools = listToolsOf(entity.key)
  const [importing, setImporting] = useState(false)
  const parent = entity.parent ? entityByKey(entity.parent.entity) : undefined
  const parentRecord = useQuery({ ...detailQuery(parent ?? entity, parentId ?? 0), enabled: !!parent && parentId !== undefined })
  const parentTitle = parent && parentRecord.data ? plainValue(fieldOf(parent, parent.titleField), parentRecord.data, parent.titleField, text) : ''
  const listPath = entityPath(entity, 'list', { parentId })
  // Back to the parent's form (where this list is embedded) when it may be edited, else to the parent's list.
  const backPath = parent && (entityPermissions(parent, roles).change ? entityPath(parent, 'edit', { itemId: parentId }) : entityPath(parent, 'list'))
  return (
    <>
      <PageHeader
        title={text(entity.label.plural)}
        subtitle={parent ? `${text(parent.label.singular)}: ${Array.isArray(parentTitle) ? parentTitle.join(', ') : parentTitle || `#${parentId}`}` : undefined}
      />
      <EntityList
        entity={entity}
        parentId={parentId}
        filter={page.filter}
        tools={
          <>
            {backPath && (
              <EntityButton
                home={entity.home}
                path={backPath}
                size="sm"
                variant="outlined"
                color="neutral"
                startDecorator={<ArrowBackIcon />}
                testId="list-back"
              >
                {t`Voltar`}
              </EntityButton>
            )}
            {AreaTools && <AreaTools filter={page.filter} />}
            {entity.importable && permissions.add && (
              <Button size="sm" variant="outlined" color="neutral" startDecorator={<ImportIcon />} onClick={() => setImporting(true)} data-testid="list-import">
                {t`Importar`}
              </Button>
            )}
            {entity.key === 'crm.leads' && permissions.add && (
              <Button size="sm" variant="outlined" color="neutral" startDecorator={<ImportIcon />} onClick={() => setImporting(true)} data-testid="list-import">
                {t`Importar CSV`}
              </Button>
            )}
          </>
        }
      />
      {page.kind === 'delete' && page.itemId !== undefined && <DeleteDialog entity={entity} id={page.itemId} onClose={() => void navigate(listPath)} />}
      {importing && (
        <Suspense fallback={null}>
          {entity.key === 'crm.leads' ? <LeadImportDialog onClose={() => setImporting(false)} /> : <ImportDialog entity={entity} onClose={() => setImporting(false)} />}
        </Suspense>
      )}
    </>
  )
}
