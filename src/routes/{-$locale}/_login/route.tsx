import { createFileRoute } from '@tanstack/react-router'
import { LoginLayout } from '../../../shell/LoginLayout.tsx'

export const Route = createFileRoute('/{-$locale}/_login')({ staticData: { permission: 'layout' }, component: LoginLayout })
