import { useEffect } from 'react'
import { useLingui } from '@lingui/react/macro'
import { toast } from './toastStore.ts'

/** A failed list request as the toast 'Erro: {detail}' (spec 001 §2), once for each new error. */
export function useErrorToast(error: Error | null): void {
  const { t } = useLingui()
  useEffect(() => {
    if (!error) return
    const detail = error.message
    toast.error(t`Erro: ${detail}`)
  }, [error, t])
}
