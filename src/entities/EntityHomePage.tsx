import { lazy, Suspense } from 'react'
import { useParams, useSearch } from '@tanstack/react-router'
import { PageSpinner } from '../components/layout/PageSpinner.tsx'
import { EntityListPage } from './list/EntityListPage.tsx'
import { parseEntityPath } from './paths.ts'

// The form renderer (every field kind, TanStack Form) loads with the first create or edit page.
const EntityFormPage = lazy(() => import('./form/EntityFormPage.tsx').then((m) => ({ default: m.EntityFormPage })))

/** `/<home>/$`: the entity page the path below the home names (the route's guard has already answered 404 or 403). */
export function EntityHomePage({ home }: { home: string }) {
  const { _splat } = useParams({ strict: false })
  const search = useSearch({ strict: false }) as { duplicate_id?: number; phone?: string }
  const page = parseEntityPath(home, _splat ?? '')
  if (!page) return null
  if (page.kind === 'list' || page.kind === 'delete') return <EntityListPage key={page.entity.key + page.parentId + JSON.stringify(page.filter ?? {})} page={page} />
  return (
    <Suspense fallback={<PageSpinner />}>
      <EntityFormPage key={`${_splat}?${search.duplicate_id ?? ''}`} page={page} duplicateId={search.duplicate_id} phone={search.phone} />
    </Suspense>
  )
}
