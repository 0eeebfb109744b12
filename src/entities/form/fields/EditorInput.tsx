import { useRef } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Textarea from '@mui/joy/Textarea'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asText } from './shared.ts'

/** Wraps the selection in Markdown marks (or prefixes its lines), returning the new text and selection. */
export function applyMarkdown(text: string, start: number, end: number, mark: 'bold' | 'italic' | 'list'): { text: string; start: number; end: number } {
  const selected = text.slice(start, end)
  if (mark === 'list') {
    const lineStart = text.lastIndexOf('\n', start - 1) + 1
    const block = text.slice(lineStart, end)
    const listed = block
      .split('\n')
      .map((line) => (line.startsWith('- ') ? line : `- ${line}`))
      .join('\n')
    return { text: text.slice(0, lineStart) + listed + text.slice(end), start: lineStart, end: lineStart + listed.length }
  }
  const wrap = mark === 'bold' ? '**' : '_'
  return { text: text.slice(0, start) + wrap + selected + wrap + text.slice(end), start: start + wrap.length, end: end + wrap.length }
}

function EditorInput(props: FieldInputProps<string>) {
  const { t } = useLingui()
  const { field, value, onChange, onBlur } = props
  const ref = useRef<HTMLTextAreaElement>(null)
  const text = asText(value)
  const format = (mark: 'bold' | 'italic' | 'list') => {
    const area = ref.current
    const next = applyMarkdown(text, area?.selectionStart ?? text.length, area?.selectionEnd ?? text.length, mark)
    onChange(next.text)
    requestAnimationFrame(() => area?.setSelectionRange(next.start, next.end))
  }
  return (
    <FieldShell props={props} helper={field.hint ? undefined : t`Aceita Markdown: **negrito**, _itálico_, listas com "- ".`}>
      <Textarea
        name={field.name}
        minRows={5}
        maxRows={16}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        slotProps={{ textarea: { ref, 'aria-invalid': Boolean(props.error) } }}
        startDecorator={
          <Box sx={{ display: 'flex', gap: 0.5, borderBottom: '1px solid', borderColor: 'divider', flex: 'auto', pb: 0.5 }}>
            <Button size="sm" variant="plain" color="neutral" onClick={() => format('bold')} aria-label={t`Negrito`} sx={{ fontWeight: 800 }}>
              B
            </Button>
            <Button size="sm" variant="plain" color="neutral" onClick={() => format('italic')} aria-label={t`Itálico`} sx={{ fontStyle: 'italic' }}>
              I
            </Button>
            <Button size="sm" variant="plain" color="neutral" onClick={() => format('list')} aria-label={t`Lista`}>
              •≡
            </Button>
          </Box>
        }
        endDecorator={
          <Typography level="body-xs" textColor="text.tertiary" sx={{ ml: 'auto' }}>
            {field.max !== undefined ? `${text.length} / ${field.max}` : text.length}
          </Typography>
        }
      />
    </FieldShell>
  )
}

/** editor: a Markdown text area with bold, italic and list buttons (stored as Markdown text). */
export const editorField: FieldComponents = {
  Input: EditorInput,
  ReadOnly: ({ value }) => <ReadOnlyText text={asText(value)} />,
}
