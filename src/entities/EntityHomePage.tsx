import { lazy, Suspense } from 'react'
import { useParams, useSearch } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { Trans } from '@lingui/react/macro'
import { ErrorContent } from '../components/errors/ErrorContent.tsx'
import { SearchOffIcon } from '../components/icons/icons.tsx'
import { PageSpinner } from '../components/layout/PageSpinner.tsx'
import { createPresetOf } from './form/overrides.ts'
import { EntityListPage } from './list/EntityListPage.tsx'
import { parseEntityPath } from './paths.ts'
import type { SettingsPage } from './paths.ts'

// The form renderer (every field kind, TanStack Form) loads with the first create or edit page.
const EntityFormPage = lazy(() => import('./form/EntityFormPage.tsx').then((m) => ({ default: m.EntityFormPage })))

/** A create page starting from the row its address names by slug, as the entity's area resolves it. */
function PresetFormPage({ page, slug }: { page: SettingsPage; slug: string }) {
  const resolve = createPresetOf(page.entity.key)
  const preset = useQuery({ queryKey: ['entity-preset', page.entity.key, slug], queryFn: () => resolve!(slug), enabled: !!resolve })
  // No row has that slug on this site: the 404 page's words, inside the layout.
  if (!resolve || preset.data === null || preset.isError) {
    return (
      <ErrorContent
        code="404"
        icon={<SearchOffIcon />}
        title={<Trans>Esta página não foi encontrada</Trans>}
        text={<Trans>O endereço pode ter sido digitado errado ou a página foi removida.</Trans>}
      />
    )
  }
  if (preset.isPending) return <PageSpinner />
  return <EntityFormPage page={page} preset={preset.data} />
}

/** `/<home>/$`: the entity page the path below the home names (the route's guard has already answered 404 or 403). */
export function EntityHomePage({ home }: { home: string }) {
  const { _splat } = useParams({ strict: false })
  const search = useSearch({ strict: false }) as { duplicate_id?: number; phone?: string }
  const page = parseEntityPath(home, _splat ?? '')
  if (!page) return null
  if (page.kind === 'list' || page.kind === 'delete') return <EntityListPage key={page.entity.key + page.parentId + JSON.stringify(page.filter ?? {})} page={page} />
  if (page.preset) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <PresetFormPage key={_splat} page={page} slug={page.preset.slug} />
      </Suspense>
    )
  }
  return (
    <Suspense fallback={<PageSpinner />}>
      <EntityFormPage key={`${_splat}?${search.duplicate_id ?? ''}`} page={page} duplicateId={search.duplicate_id} phone={search.phone} />
    </Suspense>
  )
}
