import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Chip from '@mui/joy/Chip'
import Sheet from '@mui/joy/Sheet'
import Typography from '@mui/joy/Typography'
import { useSelector } from '@xstate/react'
import { useLingui } from '@lingui/react/macro'
import type { SnapshotFrom } from 'xstate'
import type { previewDialerMachine } from '../../../machines/previewDialer.machine.ts'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { BoxLink } from '../../components/links.tsx'
import { ChevronRightIcon, PhoneIcon } from '../../components/icons/icons.tsx'

// A preview campaign's lead, offered to the agent in the top bar's row (issue 18 item 2; beside the queued chats, so it
// never covers the page): the campaign, the lead's name, number and attempts, the client's record one click away,
// 'Ligar' (or the countdown that dials by itself) and 'Pular'. The previewDialer actor owns it all; this only draws.

type Snapshot = SnapshotFrom<typeof previewDialerMachine>

// The bar is full on a laptop: the buttons speak through their icons below 1536 px (labels stay for screen readers).
const LABEL_FROM_XL = { display: { xs: 'none', xl: 'inline' } } as const
type PreviewActor = Parameters<typeof useSelector>[0]

export function PreviewLeadCard() {
  const system = useAgentSystem()
  if (!system) return null
  return <Card actor={system.get('previewDialer') as unknown as PreviewActor} />
}

function Card({ actor }: { actor: PreviewActor }) {
  const { t } = useLingui()
  const view = useSelector(actor, (snapshot) => {
    const s = snapshot as Snapshot
    const shown = s.matches('offered') || s.matches('claiming') || s.matches('dialling')
    return shown ? { lead: s.context.lead, remaining: s.context.remaining, busy: !s.matches('offered') } : null
  })
  if (!view?.lead) return null
  const { lead, remaining, busy } = view
  const send = (type: 'CALL' | 'SKIP') => (actor as unknown as { send: (event: { type: string }) => void }).send({ type })
  return (
    <Sheet
      variant="outlined"
      role="region"
      aria-label={t`Próximo lead`}
      data-testid="preview-lead"
      data-lead={lead.mailing_client}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        pl: 1,
        pr: 0.5,
        py: 0.5,
        borderRadius: 'xl',
        boxShadow: 'sm',
        borderColor: 'primary.outlinedBorder',
        flexShrink: 0,
      }}
    >
      <Box sx={{ width: { sm: 110, lg: 150, xl: 220 }, minWidth: 0, display: { xs: 'none', sm: 'block' } }}>
        <Typography level="title-sm" noWrap>
          {lead.client !== null ? (
            <BoxLink to="/{-$locale}/clients/$" params={{ _splat: `${lead.client}/edit` }} data-testid="preview-lead-client">
              {lead.name || lead.phone}
            </BoxLink>
          ) : (
            lead.name || lead.phone
          )}
        </Typography>
        <Typography level="body-xs" noWrap textColor="text.secondary" data-testid="preview-lead-detail">
          {lead.phone} · {t`Tentativas: ${lead.attempts}`} · {lead.campaign_name}
        </Typography>
      </Box>
      {remaining !== null && !busy && (
        <Chip size="sm" variant="soft" color="primary" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="preview-lead-countdown">
          {t`Discando em ${remaining}s`}
        </Chip>
      )}
      <Button
        size="sm"
        color="success"
        startDecorator={<PhoneIcon />}
        loading={busy}
        onClick={() => send('CALL')}
        aria-label={t`Ligar`}
        sx={{ '& .MuiButton-startDecorator': { mr: { xs: 0, xl: 0.5 } } }}
        data-testid="preview-lead-call"
      >
        <Box component="span" sx={LABEL_FROM_XL}>
          {t`Ligar`}
        </Box>
      </Button>
      <Button
        size="sm"
        variant="plain"
        color="neutral"
        startDecorator={<ChevronRightIcon />}
        disabled={busy}
        onClick={() => send('SKIP')}
        aria-label={t`Pular`}
        sx={{ '& .MuiButton-startDecorator': { mr: { xs: 0, xl: 0.5 } } }}
        data-testid="preview-lead-skip"
      >
        <Box component="span" sx={LABEL_FROM_XL}>
          {t`Pular`}
        </Box>
      </Button>
    </Sheet>
  )
}
