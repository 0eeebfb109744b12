import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { ChangeAvatarForm } from '../../../../features/profile/ChangeAvatarForm.tsx'

export const Route = createFileRoute('/{-$locale}/_app/profile/change-avatar')({
  staticData: { permission: PERMISSIONS.myProfile },
  component: ChangeAvatarForm,
})
