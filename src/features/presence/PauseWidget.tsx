import { lazy, Suspense, useState } from 'react'
import type { KeyboardEvent, ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Dropdown from '@mui/joy/Dropdown'
import Menu from '@mui/joy/Menu'
import MenuButton from '@mui/joy/MenuButton'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { Trans, useLingui } from '@lingui/react/macro'
import { formatDuration } from '../../../contract/format/duration.ts'
import { useAgentActor, useAgentSelector, useAgentSystem } from '../../app/agentSystemContext.tsx'
import { BreakIcon, HourglassIcon, PauseCircleIcon, PlayIcon, ResumeIcon, SupervisorIcon, SwapIcon } from './icons.tsx'
import { isOverMaximum, pauseName, pauseView, samePauseView } from './pauseView.ts'
import type { PauseView } from './pauseView.ts'
import { useDescribedPause } from './presenceApi.ts'
import type { PauseSelectProps } from './PauseSelect.tsx'
import { usePauseTypes } from './usePauseTypes.ts'

// The pause widget of the top bar (spec 000 §2 "Pause widget", §3, §4): a menu with a select of the pause types and
// 'Entrar' (start), 'Encerrar pausa' (the spec's 'Sair': stop; not the sign-out's word and icon, which sit one
// click away in the menu), 'Trocar' (pick another type) and 'Confirmar' (start the swap). The button shows
// the running pause with its per-second clock (HH:MM:SS), a pending pause, and who started it. The pause actor
// decides everything; this only sends it events.

export function PauseWidget() {
  return useAgentSystem() ? <PauseMenu /> : null
}

function PauseMenu() {
  const { t } = useLingui()
  const actor = useAgentActor('pause')
  const view = useAgentSelector('pause', pauseView, samePauseView)
  const types = usePauseTypes()
  const described = useDescribedPause(view.current !== null)
  const [open, setOpen] = useState(false)
  const [choice, setChoice] = useState<number | null>(null)
  const [choosingSwap, setChoosingSwap] = useState(false)
  const currentName = pauseName(view.current?.pauseId ?? null, types, described) ?? t`Pausa`
  const requestedName = pauseName(view.requestedPauseId, types)

  const close = () => {
    setOpen(false)
    setChoosingSwap(false)
    setChoice(null)
  }
  const start = () => {
    if (choice == null) return
    actor.send({ type: 'START', pauseId: choice })
    close()
  }
  const swap = () => {
    if (choice == null) return
    actor.send({ type: 'SWAP', pauseId: choice })
    close()
  }
  const stop = () => {
    actor.send({ type: 'STOP' })
    close()
  }

  const busy = view.phase === 'starting' || view.phase === 'stopping' || view.phase === 'swapping'
  return (
    <Dropdown open={open} onOpenChange={(_, isOpen) => (isOpen ? setOpen(true) : close())}>
      <MenuButton
        {...buttonLook(view)}
        size="sm"
        loading={busy}
        loadingPosition="start"
        startDecorator={buttonIcon(view)}
        data-testid="pause-button"
        data-phase={view.phase}
        onPointerEnter={() => void loadPauseSelect()}
        onFocus={() => void loadPauseSelect()}
        aria-label={t`Pausa`}
      >
        <PauseButtonLabel view={view} name={currentName} />
      </MenuButton>
      <Menu placement="bottom-end" sx={{ width: 340, maxWidth: '92vw', p: 2, zIndex: 'var(--joy-zIndex-popup)' }} data-testid="pause-menu">
        {/* The menu's own keyboard navigation would steal the select's arrow keys. */}
        <Stack spacing={1.5} onKeyDown={(e: KeyboardEvent) => e.key !== 'Escape' && e.stopPropagation()}>
          <Typography level="title-md" startDecorator={<BreakIcon />}>
            <Trans>Pausa</Trans>
          </Typography>
          {view.current && <RunningPause view={view} name={currentName} />}
          {view.phase === 'pending' && (
            <Notice icon={<HourglassIcon />} testId="pause-pending">
              {requestedName ? (
                <Trans>A pausa {requestedName} começa quando você ficar disponível.</Trans>
              ) : (
                <Trans>A pausa começa quando você ficar disponível.</Trans>
              )}
            </Notice>
          )}

          {view.phase === 'notPaused' && (
            <>
              <PauseSelect types={types} value={choice} onChange={setChoice} />
              <Button onClick={start} disabled={choice == null} startDecorator={<PlayIcon />} data-testid="pause-start">
                <Trans>Entrar</Trans>
              </Button>
            </>
          )}
          {view.phase === 'pending' && (
            <Button variant="outlined" color="neutral" onClick={() => actor.send({ type: 'CANCEL' })} data-testid="pause-cancel">
              <Trans>Cancelar</Trans>
            </Button>
          )}
          {view.phase === 'paused' && !choosingSwap && (
            <Stack direction="row" spacing={1}>
              <Button sx={{ flex: '1 1 auto' }} color="danger" variant="soft" onClick={stop} startDecorator={<ResumeIcon />} data-testid="pause-stop">
                <Trans>Encerrar pausa</Trans>
              </Button>
              <Button sx={{ flex: '1 1 auto' }} variant="outlined" onClick={() => setChoosingSwap(true)} startDecorator={<SwapIcon />} data-testid="pause-swap">
                <Trans>Trocar</Trans>
              </Button>
            </Stack>
          )}
          {view.phase === 'paused' && choosingSwap && (
            <>
              <PauseSelect types={types.filter((type) => String(type.id) !== String(view.current?.pauseId))} value={choice} onChange={setChoice} />
              <Stack direction="row" spacing={1}>
                <Button sx={{ flex: 1 }} onClick={swap} disabled={choice == null} data-testid="pause-confirm">
                  <Trans>Confirmar</Trans>
                </Button>
                <Button sx={{ flex: 1 }} variant="plain" color="neutral" onClick={() => setChoosingSwap(false)}>
                  <Trans>Cancelar</Trans>
                </Button>
              </Stack>
            </>
          )}
          {busy && (
            <Typography level="body-sm" textColor="text.tertiary">
              <Trans>Aguarde…</Trans>
            </Typography>
          )}
        </Stack>
      </Menu>
    </Dropdown>
  )
}

function buttonLook(view: PauseView): { variant: 'plain' | 'soft' | 'solid'; color: 'neutral' | 'warning' | 'danger' } {
  if (view.current) return { variant: 'soft', color: isOverMaximum(view) || view.phase === 'exceeded' ? 'danger' : 'warning' }
  if (view.phase === 'pending') return { variant: 'soft', color: 'neutral' }
  return { variant: 'plain', color: 'neutral' }
}

function buttonIcon(view: PauseView): ReactNode {
  if (view.pausedBySupervisor) return <SupervisorIcon />
  if (view.current) return <PauseCircleIcon />
  if (view.phase === 'pending') return <HourglassIcon />
  return <BreakIcon />
}

function PauseButtonLabel({ view, name }: { view: PauseView; name: string }) {
  if (view.current) {
    return (
      <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'baseline' }}>
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' }, maxWidth: 140, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {name}
        </Box>
        <Box component="span" data-testid="pause-timer" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 'lg' }}>
          {formatDuration(view.seconds)}
        </Box>
      </Box>
    )
  }
  if (view.phase === 'pending') return <Trans>Pausa pendente</Trans>
  return (
    <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
      <Trans>Pausa</Trans>
    </Box>
  )
}

function RunningPause({ view, name }: { view: PauseView; name: string }) {
  const maximum = view.current?.maximumDuration ?? 0
  const limit = formatDuration(maximum)
  return (
    <Stack spacing={1}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 1 }}>
        <Typography level="body-md" fontWeight="lg" noWrap data-testid="pause-name">
          {name}
        </Typography>
        <Typography level="title-lg" color={isOverMaximum(view) ? 'danger' : 'warning'} sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatDuration(view.seconds)}
        </Typography>
      </Box>
      {maximum > 0 && (
        <Typography level="body-xs" textColor="text.tertiary">
          <Trans>Duração máxima {limit}</Trans>
        </Typography>
      )}
      {view.pausedBySupervisor && (
        <Notice icon={<SupervisorIcon />} testId="paused-by-supervisor">
          <Trans>Você foi pausado por um supervisor</Trans>
        </Notice>
      )}
    </Stack>
  )
}

/** Joy's Select, loaded with the first opening of the menu (or sooner, once the pointer or the focus is on the button). */
const loadPauseSelect = () => import('./PauseSelect.tsx')
const LazyPauseSelect = lazy(() => loadPauseSelect().then((m) => ({ default: m.PauseSelect })))

function PauseSelect(props: PauseSelectProps) {
  // The fallback holds the select's place (Joy's sm..md input height), so the buttons below do not jump.
  return (
    <Suspense fallback={<Box sx={{ minHeight: 'var(--Select-minHeight, 2.25rem)' }} data-testid="pause-select-loading" />}>
      <LazyPauseSelect {...props} />
    </Suspense>
  )
}

function Notice({ icon, children, testId }: { icon: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Typography
      level="body-sm"
      color="primary"
      variant="soft"
      startDecorator={icon}
      sx={{ p: 1, borderRadius: 'sm', alignItems: 'flex-start' }}
      data-testid={testId}
    >
      {children}
    </Typography>
  )
}
