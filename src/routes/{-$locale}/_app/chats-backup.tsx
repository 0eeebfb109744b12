import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../contract/permissions.ts'
import { BackupPage } from '../../../features/reports/BackupPage.tsx'

/** Backup of the chats (spec 000 §2 /chats-backup): a period's conversations and messages in one archive. */
export const Route = createFileRoute('/{-$locale}/_app/chats-backup')({
  staticData: { permission: PERMISSIONS.downloadChatConversation },
  component: function ChatsBackupRoute() {
    return <BackupPage kind="chats" />
  },
})
