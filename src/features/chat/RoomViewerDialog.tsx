import { useMemo, useRef, useState } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import IconButton from '@mui/joy/IconButton'
import LinearProgress from '@mui/joy/LinearProgress'
import Modal from '@mui/joy/Modal'
import ModalClose from '@mui/joy/ModalClose'
import ModalDialog from '@mui/joy/ModalDialog'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Tab from '@mui/joy/Tab'
import TabList from '@mui/joy/TabList'
import TabPanel from '@mui/joy/TabPanel'
import Tabs from '@mui/joy/Tabs'
import Tooltip from '@mui/joy/Tooltip'
import Typography from '@mui/joy/Typography'
import { useMachine } from '@xstate/react'
import { fromPromise } from 'xstate'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { chatViewerMachine } from '../../../machines/chatViewer.machine.ts'
import type { ViewerLoad } from '../../../machines/chatViewer.machine.ts'
import { useProfile } from '../../api/useProfile.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { FullscreenExitIcon, FullscreenIcon } from '../../components/icons/icons.tsx'
import { lookupQuery } from '../../entities/api.ts'
import { messagesOf, roomDetailQuery, roomMessagesQuery, transferChat } from './chatApi.ts'
import { api } from '../../api/client.ts'
import { COWORKER_PATHS } from '../../../contract/api/coworkers.ts'
import type { CoworkerListResponse } from '../../../contract/api/coworkers.ts'
import type { RoomDetail } from './chatApi.ts'
import { canPlayOgg } from './chatText.ts'
import { captureScreen, exportPdf } from './exportChat.ts'
import { CameraIcon, PdfIcon, RefreshIcon, SwapIcon } from './icons.tsx'
import { MessageList } from './MessageList.tsx'
import type { ChatRoomDetail } from '../../../contract/api/chat-calls.ts'
import { ChatFormAnswers, ChatNpsLine } from './ChatOutcomeDetail.tsx'

/** Whether the detail says the chat ended (the viewer then stops polling). */
export function detailEnded(detail: RoomDetail | undefined): boolean {
  if (!detail) return false
  return !!detail.end || !!detail.finished_at || detail.status === 'ended' || detail.archived === true
}

const DETAIL_FIELDS: [string, MessageDescriptor][] = [
  ['id', msg`ID`],
  ['started', msg`Início`],
  ['name', msg`Nome`],
  ['document', msg`Documento`],
  ['phone', msg`Telefone`],
  ['total_duration', msg`Duração total`],
  ['total_answer_duration', msg`Duração do atendimento`],
  ['queue', msg`Fila`],
  ['classification', msg`Classificação`],
  ['sub_classification', msg`Subclassificação`],
  ['comment', msg`Comentário`],
  ['queue_started_datetime', msg`Entrada na fila`],
  ['queue_answered_datetime', msg`Atendimento na fila`],
  ['channel', msg`Canal`],
]

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (typeof value === 'object')
    return String((value as { description?: unknown; name?: unknown }).description ?? (value as { name?: unknown }).name ?? JSON.stringify(value))
  return String(value)
}

/**
 * The chat room viewer (spec 001 §2): an 800 px dialog with a full-screen toggle, tabs Messages and General
 * information, and the supervisor's toolbar (transfer on rooms not ended nor archived, PDF and capture behind
 * download_chat_conversation, refresh). The chatViewer actor polls every 5 s until the chat ends.
 */
export function RoomViewerDialog({ stepId, onClose }: { stepId: number; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const queryClient = useQueryClient()
  const { roles } = useProfile()
  const [full, setFull] = useState(false)
  const [transfer, setTransfer] = useState(false)
  const [busy, setBusy] = useState<'pdf' | 'capture' | null>(null)
  const content = useRef<HTMLDivElement>(null)
  const logic = useMemo(
    () =>
      chatViewerMachine.provide({
        actors: {
          load: fromPromise<ViewerLoad, { stepId: number }>(async ({ input }) => {
            const [detail] = await Promise.all([
              queryClient.fetchQuery({ ...roomDetailQuery(input.stepId), staleTime: 0 }),
              queryClient.fetchQuery({ ...roomMessagesQuery(input.stepId), staleTime: 0 }),
            ])
            return { ended: detailEnded(detail) }
          }),
        },
      }),
    [queryClient],
  )
  const [viewer, sendViewer] = useMachine(logic, { input: { stepId } })
  const detail = useQuery({ ...roomDetailQuery(stepId), enabled: false })
  const outcome = (detail.data ?? {}) as Partial<ChatRoomDetail>
  const messages = useQuery({ ...roomMessagesQuery(stepId), enabled: false })
  const rows = messagesOf(messages.data)
  const ended = viewer.matches('ended')
  const canDownload = has(roles, PERMISSIONS.downloadChatConversation)
  const mp3 = useMemo(() => !canPlayOgg(), [])

  const run = (kind: 'pdf' | 'capture') => {
    const element = content.current?.querySelector<HTMLElement>('[data-testid="message-list"]')
    if (!element) return
    setBusy(kind)
    ;(kind === 'pdf' ? exportPdf(element, stepId) : captureScreen(content.current!, stepId))
      .catch((error: Error) => toast(error.message, 'danger'))
      .finally(() => setBusy(null))
  }

  return (
    <Modal open onClose={onClose}>
      <ModalDialog layout={full ? 'fullscreen' : 'center'} sx={full ? undefined : { width: 'min(800px, 96vw)', maxHeight: '94vh' }} data-testid="room-viewer">
        <ModalClose aria-label={t`Fechar`} />
        <DialogTitle sx={{ pr: 6, alignItems: 'center', flexWrap: 'wrap' }}>
          {t`Chat ${stepId}`}
          <Box sx={{ display: 'flex', gap: 0.5, ml: 'auto' }}>
            {!ended && (
              <Tooltip title={t`Transferir`}>
                <IconButton size="sm" variant="soft" onClick={() => setTransfer(true)} aria-label={t`Transferir`} data-testid="viewer-transfer">
                  <SwapIcon />
                </IconButton>
              </Tooltip>
            )}
            {canDownload && (
              <>
                <Tooltip title={t`Gerar PDF`}>
                  <IconButton size="sm" variant="soft" loading={busy === 'pdf'} onClick={() => run('pdf')} aria-label={t`Gerar PDF`} data-testid="viewer-pdf">
                    <PdfIcon />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t`Capturar tela`}>
                  <IconButton
                    size="sm"
                    variant="soft"
                    loading={busy === 'capture'}
                    onClick={() => run('capture')}
                    aria-label={t`Capturar tela`}
                    data-testid="viewer-capture"
                  >
                    <CameraIcon />
                  </IconButton>
                </Tooltip>
              </>
            )}
            <Tooltip title={t`Atualizar`}>
              <IconButton size="sm" variant="soft" onClick={() => sendViewer({ type: 'REFRESH' })} aria-label={t`Atualizar`} data-testid="viewer-refresh">
                <RefreshIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title={full ? t`Sair da tela cheia` : t`Tela cheia`}>
              <IconButton size="sm" variant="soft" onClick={() => setFull(!full)} aria-label={full ? t`Sair da tela cheia` : t`Tela cheia`}>
                {full ? <FullscreenExitIcon /> : <FullscreenIcon />}
              </IconButton>
            </Tooltip>
          </Box>
        </DialogTitle>
        {viewer.matches('loading') && <LinearProgress size="sm" />}
        <DialogContent ref={content}>
          <Tabs defaultValue="messages">
            <TabList>
              <Tab value="messages">{t`Mensagens`}</Tab>
              <Tab value="general">{t`Informações gerais`}</Tab>
              {outcome.form && <Tab value="form">{outcome.form.description || t`Formulário`}</Tab>}
            </TabList>
            <TabPanel value="messages" sx={{ p: 0, pt: 1 }}>
              <Box sx={{ height: full ? 'calc(100vh - 180px)' : 500, display: 'flex' }}>
                <MessageList messages={rows} showStatus mp3={mp3} plain />
              </Box>
            </TabPanel>
            <TabPanel value="general">
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}>
                {DETAIL_FIELDS.map(([key, label]) => (
                  <Box key={key}>
                    <Typography level="body-xs" textColor="text.tertiary">
                      {i18n._(label)}
                    </Typography>
                    <Typography level="body-sm">{show(detail.data?.[key])}</Typography>
                  </Box>
                ))}
                <ChatNpsLine detail={outcome} />
              </Box>
            </TabPanel>
            {outcome.form && (
              <TabPanel value="form">
                <ChatFormAnswers form={outcome.form} />
              </TabPanel>
            )}
          </Tabs>
        </DialogContent>
        {transfer && <TransferDialog stepId={stepId} onClose={() => setTransfer(false)} />}
      </ModalDialog>
    </Modal>
  )
}

function TransferDialog({ stepId, onClose }: { stepId: number; onClose: () => void }) {
  const { t } = useLingui()
  const [target, setTarget] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // Only agents signed in to chat can take a room (the server refuses the others): their chat status is known.
  const agents = useQuery({ queryKey: ['coworkers', 'chat-transfer'], queryFn: () => api.get<CoworkerListResponse>(COWORKER_PATHS.list) })
  const chatAgents = (agents.data?.results ?? []).filter((row) => row.chat_status !== 'unavailable')
  const queues = useQuery(lookupQuery('/v1/chat/queues/'))
  const submit = () => {
    if (!target) return
    const [kind, id] = target.split(':')
    setBusy(true)
    transferChat(stepId, kind === 'user' ? { user_id: Number(id) } : { queue_id: Number(id) })
      .then((answer) => {
        if (answer && answer.success === false) throw new Error(answer.detail || t`Não foi possível fazer a transferência`)
        toast(t`Chat transferido`, 'success')
        onClose()
      })
      .catch((error: Error) => toast(error.message || t`Não foi possível fazer a transferência`, 'danger'))
      .finally(() => setBusy(false))
  }
  return (
    <Modal open onClose={onClose}>
      <ModalDialog sx={{ width: 'min(500px, 96vw)' }} data-testid="transfer-dialog">
        <DialogTitle>{t`Transferir`}</DialogTitle>
        <DialogContent>
          <Select
            value={target}
            onChange={(_, value) => setTarget(value)}
            placeholder={t`Agente ou fila`}
            slotProps={{ button: { 'aria-label': t`Agente ou fila` } }}
          >
            {chatAgents.map((row) => (
              <Option key={`user:${String(row.user)}`} value={`user:${String(row.user)}`}>
                {t`Agente`}: {row.name}
              </Option>
            ))}
            {(queues.data ?? []).map((row) => (
              <Option key={`queue:${String(row.id)}`} value={`queue:${String(row.id)}`}>
                {t`Fila`}: {String(row.description ?? row.id)}
              </Option>
            ))}
          </Select>
        </DialogContent>
        <DialogActions>
          <Button onClick={submit} loading={busy} disabled={!target}>
            {t`Transferir`}
          </Button>
          <Button variant="plain" color="neutral" onClick={onClose}>
            {t`Cancelar`}
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
