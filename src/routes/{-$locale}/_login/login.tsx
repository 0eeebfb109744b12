import { createFileRoute } from '@tanstack/react-router'
import { LoginForm } from '../../../features/session/LoginForm.tsx'

export const Route = createFileRoute('/{-$locale}/_login/login')({
  staticData: { permission: 'public' },
  // A plain check, not valibot: the sign-in page loads its validation only when the form is first used.
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => (typeof search.redirect === 'string' ? { redirect: search.redirect } : {}),
  component: LoginForm,
})
