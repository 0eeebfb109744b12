import { lazy, Suspense } from 'react'
import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'

// The error box loads when a form is first submitted (its Joy Alert is not needed before), so it is ready by the time
// the server answers.
const loadFormErrors = () => import('./FormErrors.tsx')
const FormErrors = lazy(() => loadFormErrors().then((m) => ({ default: m.FormErrors })))

/** A form that submits through its form hook (TanStack Form or `useSchemaForm`; no browser validation) and shows the above-the-form errors first. */
export function AppForm({ onSubmit, errors, children, spacing = 2 }: { onSubmit: () => unknown; errors: string[]; children: ReactNode; spacing?: number }) {
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void loadFormErrors()
        void onSubmit()
      }}
    >
      {/* A flex column with gaps, not Joy's Stack: this form is on the sign-in page, which stays small. */}
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: spacing }}>
        {errors.length > 0 && (
          <Suspense fallback={null}>
            <FormErrors errors={errors} />
          </Suspense>
        )}
        {children}
      </Box>
    </form>
  )
}
