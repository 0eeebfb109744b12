import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { SettingsIndex } from '../../../../features/settings/SettingsIndex.tsx'

export const Route = createFileRoute('/{-$locale}/_app/settings/')({
  staticData: { permission: PERMISSIONS.viewSettings },
  component: SettingsIndex,
})
