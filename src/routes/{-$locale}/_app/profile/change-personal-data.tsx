import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { PersonalDataForm } from '../../../../features/profile/PersonalDataForm.tsx'

export const Route = createFileRoute('/{-$locale}/_app/profile/change-personal-data')({
  staticData: { permission: PERMISSIONS.myProfile },
  component: PersonalDataForm,
})
