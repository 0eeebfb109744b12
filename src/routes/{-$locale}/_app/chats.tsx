import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../contract/permissions.ts'
import { ChatsPage } from '../../../features/chat/ChatsPage.tsx'

/** The chat workspace (spec 001 §2 "Chat workspace"): the agent's rooms, the open room and its side tabs. */
export const Route = createFileRoute('/{-$locale}/_app/chats')({
  staticData: { permission: PERMISSIONS.viewChat },
  validateSearch: (search: Record<string, unknown>): { room?: number } => {
    const room = Number(search.room)
    return Number.isInteger(room) && room > 0 ? { room } : {}
  },
  component: ChatsRoute,
})

function ChatsRoute() {
  const { room } = Route.useSearch()
  const navigate = Route.useNavigate()
  return <ChatsPage selected={room ?? null} onSelect={(id) => void navigate({ search: id ? { room: id } : {}, replace: true })} />
}
