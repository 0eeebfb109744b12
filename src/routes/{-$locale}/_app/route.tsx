import { createFileRoute } from '@tanstack/react-router'
import type { Profile } from '../../../../contract/api/profile.ts'
import { signedInGuard } from '../../../app/guards.ts'
import { DefaultLayout } from '../../../components/layout/DefaultLayout.tsx'

export const Route = createFileRoute('/{-$locale}/_app')({
  staticData: { permission: 'layout' },
  beforeLoad: (opts): Promise<{ profile: Profile }> => signedInGuard(opts),
  component: DefaultLayout,
})
