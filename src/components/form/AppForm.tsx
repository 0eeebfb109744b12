import { lazy, Suspense } from 'react'
import type { ReactNode } from 'react'
import Stack from '@mui/joy/Stack'

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
      <Stack spacing={spacing}>
        {errors.length > 0 && (
          <Suspense fallback={null}>
            <FormErrors errors={errors} />
          </Suspense>
        )}
        {children}
      </Stack>
    </form>
  )
}
