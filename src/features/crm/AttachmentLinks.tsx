import { IconButton, Link, List, ListItem, Typography } from '@mui/joy'
import { useLingui } from '@lingui/react/macro'
import type { InteractionAttachment } from '../../../contract/api/crm.ts'
import { DeleteIcon } from '../../components/icons/icons.tsx'

// An interaction's files as download links (its edit page's aside and the client's timeline), each with its size.

const KB = 1024

export function fileSize(bytes: number): string {
  if (bytes < KB) return `${bytes} B`
  if (bytes < KB * KB) return `${Math.round(bytes / KB)} KB`
  return `${(bytes / KB / KB).toFixed(1)} MB`
}

/** The files as links (the timeline's interaction events and the aside). */
export function AttachmentLinks({ files, onRemove }: { files: readonly InteractionAttachment[]; onRemove?: (file: InteractionAttachment) => void }) {
  const { t } = useLingui()
  if (files.length === 0) return null
  return (
    <List size="sm" sx={{ '--ListItem-paddingX': 0, '--ListItem-minHeight': '1.75rem' }} aria-label={t`Anexos`}>
      {files.map((file) => (
        <ListItem key={file.id} sx={{ gap: 1, alignItems: 'center' }}>
          <Link level="body-xs" href={file.url} download={file.name} data-testid="interaction-attachment" sx={{ wordBreak: 'break-all', minWidth: 0 }}>
            📎 {file.name}
          </Link>
          <Typography level="body-xs" sx={{ flexShrink: 0, flex: 1 }} color="neutral">
            {fileSize(file.size)}
          </Typography>
          {onRemove ? (
            <IconButton size="sm" variant="plain" color="danger" aria-label={t`Remover ${file.name}`} onClick={() => onRemove(file)} sx={{ flexShrink: 0 }}>
              <DeleteIcon />
            </IconButton>
          ) : null}
        </ListItem>
      ))}
    </List>
  )
}
