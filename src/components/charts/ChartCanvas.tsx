import { useEffect, useRef } from 'react'
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  Tooltip,
} from 'chart.js'
import type { ChartConfiguration, ChartData, ChartOptions } from 'chart.js'
import { useTheme } from '@mui/joy/styles'

// The one chart library of the app (Chart.js, canvas): only the controllers the app draws are registered, and this
// module is loaded lazily (Chart.tsx), so a page without a chart never downloads it.
Chart.register(BarController, BarElement, LineController, LineElement, PointElement, DoughnutController, PieController, ArcElement, CategoryScale, LinearScale, Tooltip, Legend)

export type ChartKind = 'bar' | 'line' | 'doughnut' | 'pie'

export type ChartCanvasProps = {
  type: ChartKind
  data: ChartData<ChartKind>
  options?: ChartOptions<ChartKind>
  /** What the chart shows, for screen readers (a canvas has no text of its own). */
  label: string
  height?: number
}

export default function ChartCanvas({ type, data, options, label, height = 220 }: ChartCanvasProps) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const chart = useRef<Chart | null>(null)
  const theme = useTheme()
  // Concrete colours: a canvas cannot resolve the CSS variables Joy's text and divider tokens are made of.
  const text = theme.palette.neutral[600]
  const grid = theme.palette.neutral[200]
  const font = theme.fontFamily.body

  useEffect(() => {
    if (!canvas.current) return
    Chart.defaults.color = text
    Chart.defaults.borderColor = grid
    Chart.defaults.font.family = font
    chart.current = new Chart(canvas.current, {
      type,
      data,
      options: { responsive: true, maintainAspectRatio: false, animation: { duration: 200 }, ...options },
    } as ChartConfiguration)
    return () => {
      chart.current?.destroy()
      chart.current = null
    }
    // The chart is rebuilt only when its kind or look changes; new data updates it in place (below).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [type, text, grid, font])

  useEffect(() => {
    const current = chart.current
    if (!current) return
    current.data = data
    if (options) current.options = { responsive: true, maintainAspectRatio: false, animation: { duration: 200 }, ...options } as ChartOptions<ChartKind>
    current.update()
  }, [data, options])

  return (
    <div style={{ position: 'relative', height }}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  )
}
