import { createFileRoute } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import type { Profile } from '../../../../contract/api/profile.ts'
import { SignedInLayout } from '../../../shell/SignedInLayout.tsx'

export const Route = createFileRoute('/{-$locale}/_app')({
  staticData: { permission: 'layout' },
  // Loaded with the first signed-in page, side by side: the guards (and the dates they read) and TanStack Query stay
  // off the sign-in page. Every page below gets the client as `context.queryClient`.
  beforeLoad: async (opts): Promise<{ profile: Profile; queryClient: QueryClient }> => {
    const [{ signedInGuard }, queryClient] = await Promise.all([import('../../../app/guards.ts'), opts.context.queries.load()])
    return { ...(await signedInGuard({ ...opts, queryClient })), queryClient }
  },
  component: SignedInLayout,
})
