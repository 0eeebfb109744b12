import { useState } from 'react'
import Button from '@mui/joy/Button'
import Checkbox from '@mui/joy/Checkbox'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { Trans } from '@lingui/react/macro'
import { ConferenceIcon } from './panelIcons.tsx'
import { liveCalls } from './useWebphone.ts'
import type { Webphone } from './useWebphone.ts'

// Conference (spec 000 §4): several calls chosen with a multi-select, joined with 'Iniciar conferência' (two at least).

export function ConferenceStage({ webphone }: { webphone: Webphone }) {
  const calls = liveCalls(webphone.calls)
  const [chosen, setChosen] = useState<string[]>(() => calls.map((call) => call.id))
  const picked = chosen.filter((id) => calls.some((call) => call.id === id))
  const toggle = (id: string, on: boolean) => setChosen((was) => (on ? [...was.filter((x) => x !== id), id] : was.filter((x) => x !== id)))
  return (
    <Stack spacing={1.5} data-testid="webphone-conference-stage">
      <Typography level="title-sm" startDecorator={<ConferenceIcon />}>
        <Trans>Escolha as chamadas da conferência</Trans>
      </Typography>
      <Stack spacing={1} role="group">
        {calls.map((call) => (
          <Checkbox
            key={call.id}
            checked={picked.includes(call.id)}
            onChange={(event) => toggle(call.id, event.target.checked)}
            label={[call.phone, call.name].filter(Boolean).join(' · ')}
            data-testid="webphone-conference-call"
          />
        ))}
      </Stack>
      <Stack direction="row" spacing={1}>
        <Button
          sx={{ flex: 1 }}
          disabled={picked.length < 2}
          onClick={() => webphone.send({ type: 'CONFERENCE', callIds: picked })}
          data-testid="webphone-conference-start"
        >
          <Trans>Iniciar conferência</Trans>
        </Button>
        {/* The start button takes the room: 'Iniciar conferência' wrapped to two lines in half the panel. */}
        <Button variant="plain" color="neutral" onClick={() => webphone.send({ type: 'SET_STAGE', stage: 'dialpad' })}>
          <Trans>Cancelar</Trans>
        </Button>
      </Stack>
    </Stack>
  )
}
