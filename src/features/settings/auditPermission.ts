import { PERMISSIONS } from '../../../contract/permissions.ts'

/**
 * The audit log (GET /api/v1/system/audit-log/), listed in the system section besides its entities. Its own module:
 * the route file reads it, and route files ship in the first chunk.
 */
export const AUDIT_LOG_PERMISSION = PERMISSIONS.viewAuditLog
