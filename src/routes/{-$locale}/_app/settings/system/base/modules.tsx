import { createFileRoute } from '@tanstack/react-router'
import { ModulesPage } from '../../../../../../features/settings/modules/ModulesPage.tsx'
import { MODULES_VIEW_PERMISSION } from '../../../../../../features/settings/modules/modulesPermission.ts'

export const Route = createFileRoute('/{-$locale}/_app/settings/system/base/modules')({
  staticData: { permission: MODULES_VIEW_PERMISSION },
  component: ModulesPage,
})
