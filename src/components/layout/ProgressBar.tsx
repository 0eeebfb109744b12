import { useEffect, useRef, useState } from 'react'
import Box from '@mui/joy/Box'
import { useRouterState } from '@tanstack/react-router'
import { ProgressController } from './progress.ts'
import type { ProgressState } from './progress.ts'

/** The page-loading bar at the very top, driven by the router's pending state. */
export function ProgressBar() {
  const pending = useRouterState({ select: (s) => s.status === 'pending' || s.isLoading })
  const [state, setState] = useState<ProgressState>({ visible: false, value: 0 })
  const controller = useRef<ProgressController | null>(null)
  controller.current ??= new ProgressController(setState)

  useEffect(() => () => controller.current?.dispose(), [])
  useEffect(() => {
    if (pending) controller.current?.start()
    else controller.current?.finish()
  }, [pending])

  return (
    <Box
      aria-hidden
      sx={{
        position: 'fixed',
        top: 0,
        left: 0,
        height: 3,
        zIndex: 9999,
        pointerEvents: 'none',
        width: `${state.value}%`,
        opacity: state.visible ? 1 : 0,
        background: 'linear-gradient(90deg, var(--joy-palette-primary-400), var(--joy-palette-secondary-500))',
        transition: 'width 100ms linear, opacity 400ms ease',
      }}
    />
  )
}
