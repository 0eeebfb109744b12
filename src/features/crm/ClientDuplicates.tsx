import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { Alert, Button, List, ListItem, Stack, Typography } from '@mui/joy'
import { crmApi } from './crmApi.ts'

/** Clients sharing a phone or a document with this one; a merge brings every record of the other here. */
export function ClientDuplicates({ clientId }: { clientId: number }) {
  const { t } = useLingui()
  const client = useQueryClient()
  const query = useQuery({ queryKey: ['crm', 'duplicates', clientId], queryFn: () => crmApi.duplicates(clientId) })
  const merge = useMutation({
    mutationFn: (mergeId: number) => crmApi.merge(clientId, mergeId),
    onSuccess: () => client.invalidateQueries({ queryKey: ['crm'] }),
  })
  const duplicates = query.data?.results ?? []
  if (duplicates.length === 0) return null
  return (
    <Alert color="warning" variant="soft" sx={{ display: 'block' }} data-testid="client-duplicates">
      <Typography level="title-sm">{t`Possíveis duplicados`}</Typography>
      <List size="sm">
        {duplicates.map((duplicate) => (
          <ListItem key={duplicate.id}>
            <Stack direction="row" spacing={1} alignItems="center" sx={{ width: '100%' }}>
              <Typography level="body-sm" sx={{ flex: 1 }}>
                #{duplicate.id} {duplicate.name} — {duplicate.shared.map((s) => s.value).join(', ')}
              </Typography>
              <Button
                size="sm"
                variant="outlined"
                loading={merge.isPending && merge.variables === duplicate.id}
                onClick={() => {
                  if (window.confirm(t`Mesclar ${duplicate.name} neste cliente? Todos os registros dos dois serão mantidos.`)) merge.mutate(duplicate.id)
                }}
              >
                {t`Mesclar aqui`}
              </Button>
            </Stack>
          </ListItem>
        ))}
      </List>
    </Alert>
  )
}
