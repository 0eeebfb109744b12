import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../contract/permissions.ts'
import { CoworkersPage } from '../../../features/coworkers/CoworkersPage.tsx'

/** The coworkers directory (spec 000 §2 /coworkers): any signed-in user (the spec names no codename for it). */
export const Route = createFileRoute('/{-$locale}/_app/coworkers')({
  staticData: { permission: PERMISSIONS.myProfile },
  component: CoworkersPage,
})
