import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { ProfileView } from '../../../../features/profile/ProfileView.tsx'

export const Route = createFileRoute('/{-$locale}/_app/profile/')({
  staticData: { permission: PERMISSIONS.myProfile, passwordExpiryExempt: true },
  component: ProfileView,
})
