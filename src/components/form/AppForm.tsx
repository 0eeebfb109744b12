import type { ReactNode } from 'react'
import Stack from '@mui/joy/Stack'
import { FormErrors } from './FormErrors.tsx'

/** A form that submits through TanStack Form (no browser validation) and shows the above-the-form errors first. */
export function AppForm({ onSubmit, errors, children, spacing = 2 }: { onSubmit: () => unknown; errors: string[]; children: ReactNode; spacing?: number }) {
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void onSubmit()
      }}
    >
      <Stack spacing={spacing}>
        <FormErrors errors={errors} />
        {children}
      </Stack>
    </form>
  )
}
