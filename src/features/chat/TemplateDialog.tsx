import { useEffect, useState } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import LinearProgress from '@mui/joy/LinearProgress'
import Modal from '@mui/joy/Modal'
import ModalClose from '@mui/joy/ModalClose'
import ModalDialog from '@mui/joy/ModalDialog'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Textarea from '@mui/joy/Textarea'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { useLocale } from '../../app/useLocale.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { lookupQuery } from '../../entities/api.ts'
import { chatPause } from '../../agent/slices/chatRooms.ts'
import { sendTemplate, templateQuery, templatesQuery } from './chatApi.ts'
import type { TemplateOption } from './chatApi.ts'

export type TemplateDialogProps = {
  phone: string
  stepId?: number | null
  clientId?: number | null
  /** Given: the channel is locked (spec 001 §2). */
  channelId?: number | null
  onClose: () => void
}

/**
 * The template dialog (spec 001 §2, §5): the channel reloads the templates, the template loads its content, media and
 * params; params are editable, the content read-only. Blocked with 'Usuário esta pausado' when the agent's pause
 * enables the webchat and forbids outgoing chats. Sent, the agent goes to /chats.
 */
export function TemplateDialog({ phone, stepId = null, clientId = null, channelId = null, onClose }: TemplateDialogProps) {
  const { t } = useLingui()
  const system = useAgentSystem()
  const navigate = useNavigate()
  const { params: localeParams } = useLocale()
  const pause = system ? chatPause(system.get('pause').getSnapshot()) : null
  const blocked = !!pause && !pause.allowOutgoing
  const [channel, setChannel] = useState<number | null>(channelId)
  const [templateId, setTemplateId] = useState<number | null>(null)
  const [values, setValues] = useState<Record<string, string>>({})
  const [sending, setSending] = useState(false)
  const channels = useQuery({ ...lookupQuery('/v1/chat/channels/'), enabled: !blocked })
  const templates = useQuery({ ...templatesQuery(channel), enabled: channel !== null && !blocked })
  const template = useQuery(templateQuery(templateId, { stepId, clientId }))
  const options: TemplateOption[] = Array.isArray(templates.data) ? templates.data : (templates.data?.results ?? [])

  useEffect(() => {
    if (!blocked) return
    toast(t`Usuário esta pausado`, 'warning')
    onClose()
  }, [blocked, onClose, t])

  useEffect(() => {
    setValues(Object.fromEntries((template.data?.params ?? []).map((param) => [param.name, param.value ?? ''])))
  }, [template.data])

  if (blocked) return null

  const submit = () => {
    if (channel === null || templateId === null || !phone) return
    setSending(true)
    sendTemplate({
      phone,
      step_id: stepId,
      client_id: clientId,
      channel_id: channel,
      template_id: templateId,
      params: Object.entries(values).map(([name, value]) => ({ name, value })),
    })
      .then(() => {
        onClose()
        void navigate({ to: '/{-$locale}/chats', params: localeParams })
      })
      .catch((error: Error) => toast(error.message, 'danger'))
      .finally(() => setSending(false))
  }

  const media = template.data?.media
  return (
    <Modal open onClose={onClose}>
      <ModalDialog sx={{ width: 'min(800px, 96vw)', maxHeight: '92vh', overflow: 'auto' }} data-testid="template-dialog">
        <ModalClose aria-label={t`Fechar`} />
        <DialogTitle>{t`Enviar template`}</DialogTitle>
        <DialogContent sx={{ gap: 1.5 }}>
          <FormControl>
            <FormLabel>{t`Telefone`}</FormLabel>
            <Input value={phone} readOnly />
          </FormControl>
          <FormControl>
            <FormLabel>{t`Canal`}</FormLabel>
            <Select
              value={channel}
              disabled={channelId !== null}
              onChange={(_, value) => {
                setChannel(value)
                setTemplateId(null)
              }}
              slotProps={{ button: { 'aria-label': t`Canal` } }}
            >
              {(channels.data ?? []).map((row) => (
                <Option key={String(row.id)} value={row.id as number}>
                  {String(row.description ?? row.id)}
                </Option>
              ))}
              {channelId !== null && !(channels.data ?? []).some((row) => row.id === channelId) && <Option value={channelId}>{String(channelId)}</Option>}
            </Select>
          </FormControl>
          <FormControl>
            <FormLabel>{t`Template`}</FormLabel>
            <Select
              value={templateId}
              onChange={(_, value) => setTemplateId(value)}
              disabled={channel === null}
              slotProps={{ button: { 'aria-label': t`Template` } }}
            >
              {options.map((option) => (
                <Option key={option.id} value={option.id}>
                  {option.description}
                </Option>
              ))}
            </Select>
          </FormControl>
          {(templates.isFetching || template.isFetching) && <LinearProgress size="sm" />}
          {template.data && (
            <>
              {media && template.data.template_type === 'IMAGE' && <img src={media} alt="" style={{ maxWidth: 240, borderRadius: 8 }} />}
              {media && template.data.template_type === 'VIDEO' && <video src={media} controls style={{ maxWidth: 320 }} />}
              <FormControl>
                <FormLabel>{t`Conteúdo`}</FormLabel>
                <Textarea value={template.data.content} readOnly minRows={3} />
              </FormControl>
              <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { sm: '1fr 1fr' } }}>
                {Object.entries(values).map(([name, value]) => (
                  <FormControl key={name}>
                    <FormLabel>{name}</FormLabel>
                    <Input value={value} onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))} />
                  </FormControl>
                ))}
              </Box>
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={submit} loading={sending} disabled={channel === null || templateId === null || !phone} data-testid="template-send">
            {t`Enviar template`}
          </Button>
          <Button variant="plain" color="neutral" onClick={onClose}>
            {t`Cancelar`}
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
