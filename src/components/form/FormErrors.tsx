import Alert from '@mui/joy/Alert'
import { ErrorIcon } from '../icons/formIcons.tsx'

/** non_field_errors and detail, shown above the form. */
export function FormErrors({ errors }: { errors: string[] }) {
  if (!errors.length) return null
  return (
    <Alert color="danger" variant="soft" startDecorator={<ErrorIcon />} role="alert" data-testid="form-errors" sx={{ alignItems: 'flex-start' }}>
      <div>
        {errors.map((e, i) => (
          <div key={i}>{e}</div>
        ))}
      </div>
    </Alert>
  )
}
