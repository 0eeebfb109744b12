import { createFileRoute } from '@tanstack/react-router'
import { AuditLogPage } from '../../../../../features/settings/audit/AuditLogPage.tsx'
import { AUDIT_LOG_PERMISSION } from '../../../../../features/settings/auditPermission.ts'

export const Route = createFileRoute('/{-$locale}/_app/settings/system/audit-log')({
  staticData: { permission: AUDIT_LOG_PERMISSION },
  component: AuditLogPage,
})
