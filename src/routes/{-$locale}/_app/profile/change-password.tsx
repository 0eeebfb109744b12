import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { ChangePasswordForm } from '../../../../features/profile/ChangePasswordForm.tsx'

export const Route = createFileRoute('/{-$locale}/_app/profile/change-password')({
  staticData: { permission: PERMISSIONS.myProfile, passwordExpiryExempt: true },
  component: ChangePasswordForm,
})
