import { useState } from 'react'
import type { KeyboardEvent } from 'react'
import Button from '@mui/joy/Button'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import IconButton from '@mui/joy/IconButton'
import Input from '@mui/joy/Input'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Stack from '@mui/joy/Stack'
import { Trans, useLingui } from '@lingui/react/macro'
import { useOutboundRoutes } from '../../api/webphone.ts'
import { PhoneIcon } from '../../components/icons/icons.tsx'
import { BackspaceIcon } from './panelIcons.tsx'
import type { Webphone } from './useWebphone.ts'

// The dialpad (spec 000 §2, §5): the number box, keys 1-9 * 0 #, backspace and the call button; the route selector only
// when the team has more than one outbound route, and then dialling needs one. During an accepted call the keys, and
// the tones typed in the box, are sent as DTMF.

export const DIALPAD_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const
const TONE = /^[0-9*#]$/
/** What the number box keeps: digits, the tones and a leading plus. */
const clean = (value: string) => value.replace(/[^0-9*#+]/g, '')

export function Dialpad({ webphone }: { webphone: Webphone }) {
  const { t } = useLingui()
  const { view, current, send } = webphone
  const [number, setNumber] = useState('')
  const [routeMissing, setRouteMissing] = useState(false)
  const routes = useOutboundRoutes().data ?? []
  const chooseRoute = routes.length > 1
  const toneCall = current?.accepted && current.status !== 'ended' ? current : null

  const press = (key: string) => {
    setNumber((typed) => typed + key)
    if (toneCall) send({ type: 'DTMF', callId: toneCall.id, tone: key })
  }
  const dial = () => {
    const target = number.trim()
    if (!target) return
    if (chooseRoute && view.routeId == null) {
      setRouteMissing(true)
      return
    }
    const routeId = chooseRoute ? view.routeId : routes[0]?.id
    send(routeId == null ? { type: 'DIAL', number: target } : { type: 'DIAL', number: target, routeId })
    setNumber('')
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') dial()
    else if (toneCall && TONE.test(event.key)) send({ type: 'DTMF', callId: toneCall.id, tone: event.key })
  }

  return (
    <Stack spacing={1.5} data-testid="webphone-dialpad">
      {chooseRoute && (
        <FormControl error={routeMissing} size="sm">
          <Select
            placeholder={t`Rota de saída`}
            value={view.routeId}
            onChange={(_, routeId) => {
              setRouteMissing(false)
              send({ type: 'SET_ROUTE', routeId })
            }}
            slotProps={{ listbox: { disablePortal: true, sx: { zIndex: 1 } } }}
            aria-label={t`Rota de saída`}
            data-testid="webphone-route"
          >
            {routes.map((route) => (
              <Option key={route.id} value={route.id}>
                {route.description}
              </Option>
            ))}
          </Select>
          {routeMissing && (
            <FormHelperText data-testid="webphone-route-error">
              <Trans>Selecione uma rota de saída</Trans>
            </FormHelperText>
          )}
        </FormControl>
      )}
      <Input
        value={number}
        onChange={(event) => setNumber(clean(event.target.value))}
        onKeyDown={onKeyDown}
        placeholder={t`Número`}
        autoFocus
        autoComplete="off"
        slotProps={{ input: { inputMode: 'tel', 'aria-label': t`Número` } }}
        endDecorator={
          <IconButton
            variant="plain"
            aria-label={t`Apagar`}
            disabled={!number}
            onClick={() => setNumber((typed) => typed.slice(0, -1))}
            data-testid="webphone-backspace"
          >
            <BackspaceIcon />
          </IconButton>
        }
        sx={{ fontSize: 'lg', fontVariantNumeric: 'tabular-nums' }}
      />
      <Stack direction="row" useFlexGap flexWrap="wrap" spacing={1} sx={{ '& > *': { flex: '1 0 calc(33.33% - 8px)' } }}>
        {DIALPAD_KEYS.map((key) => (
          <Button key={key} variant="outlined" color="neutral" onClick={() => press(key)} data-testid={`webphone-key-${key}`} sx={{ fontSize: 'lg' }}>
            {key}
          </Button>
        ))}
      </Stack>
      <Button color="success" startDecorator={<PhoneIcon />} disabled={!number.trim()} onClick={dial} data-testid="webphone-dial">
        <Trans>Ligar</Trans>
      </Button>
    </Stack>
  )
}
