import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { ProcessingQueuePage } from '../../../../features/reports/ProcessingQueuePage.tsx'

/** The processing queue (spec 000 §2 /reports/processing-queue): large exports as jobs with progress and download. */
export const Route = createFileRoute('/{-$locale}/_app/reports/processing-queue')({
  staticData: { permission: PERMISSIONS.viewReports },
  component: ProcessingQueuePage,
})
