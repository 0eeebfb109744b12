import { lazy, Suspense } from 'react'
import Skeleton from '@mui/joy/Skeleton'
import type { ChartCanvasProps } from './ChartCanvas.tsx'

// Charts load Chart.js on first use (its own chunk): the sign-in page and chart-less pages never pay for it.
const ChartCanvas = lazy(() => import('./ChartCanvas.tsx'))

export type { ChartCanvasProps as ChartProps }

export function Chart(props: ChartCanvasProps) {
  return (
    <Suspense fallback={<Skeleton variant="rectangular" height={props.height ?? 220} sx={{ borderRadius: 'sm' }} />}>
      <ChartCanvas {...props} />
    </Suspense>
  )
}
