import { Stack } from '@mui/joy'
import { useParams } from '@tanstack/react-router'
import { ClientDuplicates } from './ClientDuplicates.tsx'
import { ClientTimeline } from './ClientTimeline.tsx'

/** Beside a saved client's form (/clients/{id}/edit): possible duplicates, then the client's timeline. */
export function ClientAside() {
  const { _splat } = useParams({ strict: false })
  const id = Number(/^(\d+)\/edit$/.exec(_splat ?? '')?.[1])
  if (!id) return null
  return (
    <Stack spacing={2} sx={{ minWidth: 320 }}>
      <ClientDuplicates clientId={id} />
      <ClientTimeline clientId={id} />
    </Stack>
  )
}
