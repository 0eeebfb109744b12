import { createFileRoute } from '@tanstack/react-router'
import type { Profile } from '../../../../contract/api/profile.ts'
import { DefaultLayout } from '../../../components/layout/DefaultLayout.tsx'

export const Route = createFileRoute('/{-$locale}/_app')({
  staticData: { permission: 'layout' },
  // Loaded with the first signed-in page: the guards (and the dates they read) stay off the sign-in page.
  beforeLoad: async (opts): Promise<{ profile: Profile }> => (await import('../../../app/guards.ts')).signedInGuard(opts),
  component: DefaultLayout,
})
