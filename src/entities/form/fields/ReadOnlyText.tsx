import Typography from '@mui/joy/Typography'
import { TEXT_CUT } from '../../../../contract/constants.ts'
import { cut } from '../../text.ts'

/** The plain read-only twin: the text, cut for tables with the whole text as a tooltip; '—' when empty. */
export function ReadOnlyText({ text, max = TEXT_CUT.lastMessage }: { text: string; max?: number }) {
  if (!text)
    return (
      <Typography level="body-sm" textColor="text.tertiary">
        —
      </Typography>
    )
  return (
    <Typography level="body-sm" title={text.length > max ? text : undefined} sx={{ wordBreak: 'break-word' }}>
      {cut(text, max)}
    </Typography>
  )
}
