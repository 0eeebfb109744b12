import { useEffect, useState } from 'react'
import Button from '@mui/joy/Button'
import Card from '@mui/joy/Card'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import Stack from '@mui/joy/Stack'
import Switch from '@mui/joy/Switch'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { MODULES, MODULES_PATH } from '../../../../contract/modules.ts'
import type { ModuleKey, Modules } from '../../../../contract/modules.ts'
import { has } from '../../../../contract/permissions.ts'
import { api } from '../../../api/client.ts'
import { profileQuery } from '../../../api/session.ts'
import { PageHeader } from '../../../components/layout/PageHeader.tsx'
import { toast } from '../../../components/toast/toastStore.ts'
import { useErrorToast } from '../../../components/toast/useErrorToast.ts'
import { useRoles } from '../../../entities/permissions.ts'
import { MODULES_CHANGE_PERMISSION } from './modulesPermission.ts'

const LABELS: Record<ModuleKey, { label: MessageDescriptor; hint: MessageDescriptor }> = {
  telephony: { label: msg`Telefonia`, hint: msg`Chamadas, webphone, PABX, filas e NPS de telefonia.` },
  chat: { label: msg`Chat`, hint: msg`Chats, canais, bots, filas e NPS de chat.` },
  dialer: { label: msg`Discador`, hint: msg`Leads, mailings, campanhas e layouts de disparo.` },
  crm: { label: msg`CRM`, hint: msg`Clientes, interações, organizações, produtos, status e tags.` },
  reports: { label: msg`Relatórios`, hint: msg`Páginas de relatórios e fila de processamento.` },
}

const modulesQuery = { queryKey: ['system-modules'], queryFn: () => api.get<Modules>(MODULES_PATH) }

/** /settings/system/base/modules — which areas the site uses; an area off leaves every user's menu. */
export function ModulesPage() {
  const { t, i18n } = useLingui()
  const queryClient = useQueryClient()
  const canChange = has(useRoles(), MODULES_CHANGE_PERMISSION)
  const query = useQuery(modulesQuery)
  useErrorToast(query.error)
  const [draft, setDraft] = useState<Modules>()
  useEffect(() => {
    if (query.data) setDraft(query.data)
  }, [query.data])
  const save = useMutation({
    mutationFn: (modules: Modules) => api.put<Modules>(MODULES_PATH, modules),
    onSuccess: async (modules) => {
      queryClient.setQueryData(modulesQuery.queryKey, modules)
      // The menu and the route guard read the modules from the profile.
      await queryClient.invalidateQueries({ queryKey: profileQuery.queryKey })
      toast.success(t`Módulos salvos.`)
    },
    onError: (error) => {
      const detail = error.message
      toast.error(t`Erro: ${detail}`)
    },
  })
  return (
    <>
      <PageHeader title={<Trans>Módulos</Trans>} subtitle={<Trans>As áreas que este site usa. Uma área desligada some do menu de todos.</Trans>} />
      <Card variant="outlined" sx={{ maxWidth: 640 }}>
        <Stack gap={2}>
          {MODULES.map((key) => (
            <FormControl key={key} orientation="horizontal" sx={{ justifyContent: 'space-between', gap: 2 }}>
              <div>
                <FormLabel htmlFor={`module-${key}`}>{i18n._(LABELS[key].label)}</FormLabel>
                <FormHelperText>{i18n._(LABELS[key].hint)}</FormHelperText>
              </div>
              <Switch
                slotProps={{ input: { id: `module-${key}` } }}
                data-testid={`module-${key}`}
                checked={draft?.[key] ?? false}
                disabled={!draft || !canChange}
                onChange={(event) => setDraft((current) => current && { ...current, [key]: event.target.checked })}
              />
            </FormControl>
          ))}
          {canChange && (
            <Button sx={{ alignSelf: 'flex-start' }} loading={save.isPending} disabled={!draft} onClick={() => draft && save.mutate(draft)}>
              <Trans>Salvar</Trans>
            </Button>
          )}
        </Stack>
      </Card>
    </>
  )
}
