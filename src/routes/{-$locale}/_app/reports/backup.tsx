import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { BackupPage } from '../../../../features/reports/BackupPage.tsx'

/** Backup of the reports (spec 000 §2 /reports/backup): every report of a period as CSV in one archive. */
export const Route = createFileRoute('/{-$locale}/_app/reports/backup')({
  staticData: { permission: PERMISSIONS.viewReports },
  component: function ReportsBackupRoute() {
    return <BackupPage kind="reports" />
  },
})
