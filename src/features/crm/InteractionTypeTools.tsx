import { Chip } from '@mui/joy'
import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { entityByKey } from '../../../contract/entities/index.ts'
import { EntityButton } from '../../entities/links.tsx'
import { useEntityPermissions } from '../../entities/permissions.ts'
import { interactionTypeQuery } from './InteractionCustomFields.tsx'

/**
 * On /interactions/:interaction_id[/:slug] (the interactions of one type): the type's name, and 'Nova' for a new
 * interaction of that type with its form (/interactions/:form, the type's slug).
 */
export function InteractionTypeTools({ filter }: { filter?: Readonly<Record<string, number>> }) {
  const { t } = useLingui()
  const typeId = filter?.interaction
  const permissions = useEntityPermissions(entityByKey('crm.client-interactions'))
  const type = useQuery({ ...interactionTypeQuery(typeId ?? 0), enabled: typeId !== undefined })
  if (typeId === undefined || !type.data) return null
  const name = type.data.description
  return (
    <>
      <Chip size="lg" variant="soft" color="primary" data-testid="interaction-type-filter">
        {t`Tipo: ${name}`}
      </Chip>
      {permissions.add && type.data.slug ? (
        <EntityButton home="interactions" path={type.data.slug} size="sm" testId="interaction-type-create">
          {t`Nova: ${name}`}
        </EntityButton>
      ) : null}
    </>
  )
}
