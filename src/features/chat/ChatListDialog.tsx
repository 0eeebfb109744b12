import { useState } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import Input from '@mui/joy/Input'
import Modal from '@mui/joy/Modal'
import ModalClose from '@mui/joy/ModalClose'
import ModalDialog from '@mui/joy/ModalDialog'
import { useMachine } from '@xstate/react'
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { chatSearchMachine } from '../../../machines/chatSearch.machine.ts'
import { formatDateTime } from '../../app/dates.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { useErrorToast } from '../../components/toast/useErrorToast.ts'
import { SearchIcon } from '../../entities/icons.tsx'
import { DataTable } from '../../entities/list/DataTable.tsx'
import type { Column } from '../../entities/list/DataTable.tsx'
import { Pagination } from '../../entities/list/Pagination.tsx'
import { CHAT_KEY, chatListQuery, unarchiveChat } from './chatApi.ts'
import type { ChatListKind, ChatListRow } from './chatApi.ts'
import { cutLastMessage } from './chatText.ts'

type Props = { kind: ChatListKind; onOpenRoom: (row: ChatListRow) => void; onClose: () => void }

const TEST_IDS: Record<ChatListKind, string> = { historic: 'history-dialog', archives: 'archived-dialog', live: 'live-dialog' }

/**
 * History and Archived (spec 001 §2): paginated tables with ID, datetime, name, last message (cut at 100), phone and
 * the action; archived rows unarchive; an empty table says 'Sem resultados'. Live (ours): the same table of the rooms
 * not ended, with their state, where a supervisor opens a conversation to watch it and transfer it (spec 001 §6).
 */
export function ChatListDialog({ kind, onOpenRoom, onClose }: Props) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [page, setPage] = useState(0)
  const [pageSize, setPageSize] = useState(10)
  const [search, sendSearch] = useMachine(chatSearchMachine, { input: {} })
  const size = pageSize > 0 ? pageSize : 99999
  // The rows stay while a new search or page loads: the table never blinks empty, and a row's button being clicked is
  // not swapped for a new one under the pointer (a click that would otherwise do nothing).
  const query = useQuery({ ...chatListQuery(kind, page, size, search.context.committed), placeholderData: keepPreviousData })
  useErrorToast(query.error)
  const columns: Column<ChatListRow>[] = [
    { key: 'id', header: 'ID', width: 70, cell: (row) => row.id },
    { key: 'datetime', header: t`Data/hora`, width: 160, cell: (row) => formatDateTime(row.datetime) },
    { key: 'title', header: t`Nome`, cell: (row) => row.title },
    { key: 'last', header: t`Última mensagem`, cell: (row) => cutLastMessage(row.last_message ?? '') },
    { key: 'phone', header: t`Telefone`, width: 150, cell: (row) => row.phone },
    ...(kind === 'live'
      ? [{ key: 'status', header: t`Situação`, width: 130, cell: (row: ChatListRow) => (row.status === 'active' ? t`Em atendimento` : t`Na fila`) }]
      : []),
    {
      key: 'action',
      header: t`Ação`,
      width: kind === 'archives' ? 200 : 100,
      cell: (row) => (
        <Box sx={{ display: 'flex', gap: 0.5 }}>
          <Button size="sm" variant="soft" onClick={() => onOpenRoom(row)} data-testid="open-room">
            {t`Abrir`}
          </Button>
          {kind === 'archives' && (
            <Button
              size="sm"
              variant="plain"
              data-testid="unarchive"
              onClick={() =>
                void unarchiveChat(row.id)
                  .then(() => {
                    toast(t`Chat desarquivado`, 'success')
                    return queryClient.invalidateQueries({ queryKey: CHAT_KEY })
                  })
                  .catch((error: Error) => toast(error.message, 'danger'))
              }
            >
              {t`Desarquivar`}
            </Button>
          )}
        </Box>
      ),
    },
  ]
  return (
    <Modal open onClose={onClose}>
      <ModalDialog sx={{ width: 'min(960px, 96vw)', maxHeight: '92vh', overflow: 'auto' }} data-testid={TEST_IDS[kind]}>
        <ModalClose aria-label={t`Fechar`} />
        <DialogTitle>{kind === 'historic' ? t`Histórico` : kind === 'archives' ? t`Arquivados` : t`Em andamento`}</DialogTitle>
        <DialogContent sx={{ gap: 1 }}>
          <Input
            size="sm"
            startDecorator={<SearchIcon />}
            placeholder={t`Buscar`}
            value={search.context.typed}
            onChange={(event) => {
              setPage(0)
              sendSearch({ type: 'TYPE', value: event.target.value })
            }}
            sx={{ maxWidth: 320 }}
          />
          <DataTable
            columns={columns}
            rows={query.data?.results ?? []}
            rowKey={(row) => row.id}
            loading={query.isFetching}
            pending={query.isPending}
            minWidth={720}
          />
          <Pagination
            count={query.data?.count ?? 0}
            page={page}
            pageSize={pageSize}
            onPage={setPage}
            onPageSize={(next) => {
              setPageSize(next)
              setPage(0)
            }}
            allowAll={false}
          />
        </DialogContent>
      </ModalDialog>
    </Modal>
  )
}
