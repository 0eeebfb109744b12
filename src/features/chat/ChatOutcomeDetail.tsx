import Box from '@mui/joy/Box'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import type { ChatNpsResult, ChatRoomDetail } from '../../../contract/api/chat-calls.ts'

// A chat's outcome in the room viewer (spec 001 §2 "plus tabs from the server form"; issue 15 item 4): the form's
// answers by label, read-only, and the NPS survey's result.

type Detail = Partial<Pick<ChatRoomDetail, 'form' | 'nps' | 'schedule_date' | 'activity'>>

function answerText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (Array.isArray(value)) return value.map(answerText).join(', ')
  if (typeof value === 'boolean') return value ? '✓' : '✗'
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

export function ChatFormAnswers({ form }: { form: NonNullable<ChatRoomDetail['form']> }) {
  const fields = form.tabs.flatMap((tab) => tab.fields)
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }} data-testid="viewer-form-answers">
      {fields.map((field) => (
        <Box key={String(field.name)}>
          <Typography level="body-xs" textColor="text.tertiary">
            {String(field.label || field.name)}
          </Typography>
          <Typography level="body-sm">{answerText(form.data[String(field.name)])}</Typography>
        </Box>
      ))}
    </Box>
  )
}

export function ChatNpsLine({ detail }: { detail: Detail }) {
  const { t } = useLingui()
  const nps: ChatNpsResult | null | undefined = detail.nps
  if (!nps) return null
  const states: Record<ChatNpsResult['state'], string> = {
    pending: t`Aguardando resposta`,
    comment: t`Aguardando comentário`,
    answered: t`Respondida`,
    failed: t`Sem resposta válida`,
    expired: t`Expirada`,
    unsent: t`Não enviada (fora da janela de 24 horas, sem template)`,
  }
  return (
    <Box data-testid="viewer-nps">
      <Typography level="body-xs" textColor="text.tertiary">
        {t`Pesquisa NPS`}
      </Typography>
      <Typography level="body-sm">
        {nps.score !== null ? `${nps.score} (${nps.scale}) · ` : ''}
        {states[nps.state]}
        {nps.comment ? ` · “${nps.comment}”` : ''}
      </Typography>
    </Box>
  )
}
