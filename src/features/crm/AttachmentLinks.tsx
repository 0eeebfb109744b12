import { IconButton, Link, List, ListItem, Typography } from '@mui/joy'
import { useLingui } from '@lingui/react/macro'
import type { InteractionAttachment } from '../../../contract/api/crm.ts'

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
        <ListItem
          key={file.id}
          endAction={
            onRemove ? (
              <IconButton size="sm" variant="plain" color="danger" aria-label={t`Remover ${file.name}`} onClick={() => onRemove(file)}>
                ×
              </IconButton>
            ) : undefined
          }
        >
          <Link level="body-xs" href={file.url} download={file.name} data-testid="interaction-attachment" sx={{ wordBreak: 'break-all' }}>
            📎 {file.name}
          </Link>
          <Typography level="body-xs" sx={{ ml: 1, flexShrink: 0 }} color="neutral">
            {fileSize(file.size)}
          </Typography>
        </ListItem>
      ))}
    </List>
  )
}

