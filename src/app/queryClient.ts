import { QueryClient } from '@tanstack/react-query'
import { isApiError } from '../api/errors.ts'

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Client errors will not get better by asking again.
        retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 2,
      },
    },
  })
}
