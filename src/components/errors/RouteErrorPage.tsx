import { Component } from 'react'
import type { ErrorInfo, ReactNode } from 'react'
import type { ErrorComponentProps } from '@tanstack/react-router'
import { reloadForChunkError } from '../../app/chunkReload.ts'
import { LazyServerErrorPage } from './lazyPages.tsx'

/**
 * Last resort when the error page itself fails (spec 000 §8): plain markup, no theme, no router, a link home.
 * The sentence is the spec's fixed English text.
 */
export function FrameworkErrorPage() {
  return (
    <div style={{ fontFamily: 'system-ui, sans-serif', padding: 48, textAlign: 'center' }}>
      <p style={{ fontSize: 20 }}>An error occurred while showing the error page</p>
      <a href="/">Home</a>
    </div>
  )
}

class ErrorPageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack)
  }
  render() {
    return this.state.failed ? <FrameworkErrorPage /> : this.props.children
  }
}

/** The router's error boundary: a failed page chunk reloads (once a minute at most); anything else shows 500. */
export function RouteErrorPage({ error }: ErrorComponentProps) {
  if (reloadForChunkError(error)) return null
  console.error(error)
  return (
    <ErrorPageBoundary>
      <LazyServerErrorPage />
    </ErrorPageBoundary>
  )
}
