// `use-sync-external-store/shim` for React 19 (aliased in vite.config.ts): the hook is built into React.
export { useSyncExternalStore } from 'react'
