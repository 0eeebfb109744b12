import { createFileRoute, Outlet } from '@tanstack/react-router'

// Error and guard pages draw their own empty layout (the root 404 needs it too, outside this route).
export const Route = createFileRoute('/{-$locale}/_empty')({ staticData: { permission: 'layout' }, component: Outlet })
