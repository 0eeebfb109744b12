import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { LoginForm } from '../../../features/session/LoginForm.tsx'

const LoginSearch = v.object({ redirect: v.optional(v.string()) })

export const Route = createFileRoute('/{-$locale}/_login/login')({
  staticData: { permission: 'public' },
  validateSearch: (search) => v.parse(LoginSearch, { redirect: typeof search.redirect === 'string' ? search.redirect : undefined }),
  component: LoginForm,
})
