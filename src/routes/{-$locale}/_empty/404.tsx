import { createFileRoute } from '@tanstack/react-router'
import { NotFoundPage } from '../../../components/errors/NotFoundPage.tsx'

export const Route = createFileRoute('/{-$locale}/_empty/404')({ staticData: { permission: 'public' }, component: NotFoundPage })
