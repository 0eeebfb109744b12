import { useEffect, useState } from 'react'
import Box from '@mui/joy/Box'
import Checkbox from '@mui/joy/Checkbox'
import IconButton from '@mui/joy/IconButton'
import Input from '@mui/joy/Input'
import LinearProgress from '@mui/joy/LinearProgress'
import List from '@mui/joy/List'
import ListItem from '@mui/joy/ListItem'
import ListItemButton from '@mui/joy/ListItemButton'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Tab from '@mui/joy/Tab'
import TabList from '@mui/joy/TabList'
import TabPanel from '@mui/joy/TabPanel'
import Tabs from '@mui/joy/Tabs'
import Typography from '@mui/joy/Typography'
import { useMachine } from '@xstate/react'
import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { chatSearchMachine } from '../../../machines/chatSearch.machine.ts'
import { formatDateTime } from '../../app/dates.ts'
import { SearchIcon } from '../../entities/icons.tsx'
import { TuneIcon } from '../../components/icons/icons.tsx'
import { toast } from '../../components/toast/toastStore.ts'
import { ChatClassificationTab, ChatFormTab } from './ChatOutcomeTabs.tsx'
import { chatFormsQuery } from './chatOutcomes.ts'
import { chatSearchQuery, NO_SEARCH_FILTERS } from './chatApi.ts'
import type { SearchFilters } from './chatApi.ts'
import { cutSearchContent } from './chatText.ts'

/**
 * The right column (spec 001 §2): Form (only if the chat has a form) and Classification (only if a classification
 * form exists; it holds the close) — src/features/outcomes/ — then Search (the room's messages, with the advanced
 * filter) and Conversations (the contact's rooms).
 */
export function SidePanel({ stepId, ended = false, onOpenRoom }: { stepId: number; ended?: boolean; onOpenRoom: (stepId: number) => void }) {
  const { t } = useLingui()
  const forms = useQuery(chatFormsQuery(stepId))
  useEffect(() => {
    if (forms.error) toast(t`Não foi possível obter o formulário do chat ${stepId}`, 'danger')
  }, [forms.error, stepId, t])
  const form = forms.data?.form ?? null
  const classification = forms.data?.classification ?? null
  if (forms.isPending) return null
  return (
    <Tabs
      key={stepId}
      defaultValue={form ? 'form' : classification ? 'classification' : 'search'}
      sx={{ height: '100%', minHeight: 0, bgcolor: 'transparent' }}
      data-testid="side-panel"
    >
      <TabList sx={{ flexShrink: 0 }}>
        {form && <Tab value="form">{t`Formulário`}</Tab>}
        {classification && <Tab value="classification">{t`Classificação`}</Tab>}
        <Tab value="search">{t`Buscar`}</Tab>
        <Tab value="rooms">{t`Conversas`}</Tab>
      </TabList>
      {/* Kept mounted: the room's machine hears the form's validity and the classification from them. */}
      {form && (
        <TabPanel value="form" keepMounted sx={{ p: 1, overflowY: 'auto' }}>
          <ChatFormTab stepId={stepId} form={form} ended={ended} />
        </TabPanel>
      )}
      {classification && (
        <TabPanel value="classification" keepMounted sx={{ p: 1, overflowY: 'auto' }}>
          <ChatClassificationTab stepId={stepId} classification={classification} ended={ended} />
        </TabPanel>
      )}
      <TabPanel value="search" sx={{ p: 1, overflowY: 'auto' }}>
        <SearchTab key={`m${stepId}`} kind="messages" stepId={stepId} onOpenRoom={onOpenRoom} />
      </TabPanel>
      <TabPanel value="rooms" sx={{ p: 1, overflowY: 'auto' }}>
        <SearchTab key={`r${stepId}`} kind="rooms" stepId={stepId} onOpenRoom={onOpenRoom} />
      </TabPanel>
    </Tabs>
  )
}

function SearchTab({ kind, stepId, onOpenRoom }: { kind: 'messages' | 'rooms'; stepId: number; onOpenRoom: (stepId: number) => void }) {
  const { t } = useLingui()
  const [search, sendSearch] = useMachine(chatSearchMachine, { input: {} })
  const [advanced, setAdvanced] = useState(false)
  const [filters, setFilters] = useState<SearchFilters>(NO_SEARCH_FILTERS)
  const query = useQuery(chatSearchQuery(kind, stepId, { ...filters, search: search.context.committed }, 0, 20))
  const rows = query.data?.results ?? []
  const text = (value: unknown) => (value && typeof value === 'object' ? String((value as { description?: unknown }).description ?? '') : String(value ?? ''))
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box sx={{ display: 'flex', gap: 0.5 }}>
        <Input
          size="sm"
          sx={{ flex: 1 }}
          startDecorator={<SearchIcon />}
          placeholder={kind === 'messages' ? t`Buscar mensagens` : t`Buscar conversas`}
          value={search.context.typed}
          onChange={(event) => sendSearch({ type: 'TYPE', value: event.target.value })}
        />
        <IconButton
          size="sm"
          variant={advanced ? 'solid' : 'soft'}
          aria-label={t`Filtro avançado`}
          aria-pressed={advanced}
          onClick={() => setAdvanced(!advanced)}
        >
          <TuneIcon />
        </IconButton>
      </Box>
      {advanced && (
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 0.5 }} data-testid="advanced-filter">
          <Input size="sm" type="date" aria-label={t`De`} value={filters.from} onChange={(event) => setFilters({ ...filters, from: event.target.value })} />
          <Input size="sm" type="date" aria-label={t`Até`} value={filters.to} onChange={(event) => setFilters({ ...filters, to: event.target.value })} />
          <Select size="sm" value={filters.sort} onChange={(_, value) => value && setFilters({ ...filters, sort: value })} aria-label={t`Ordem`}>
            <Option value="-datetime">{t`Mais recentes`}</Option>
            <Option value="datetime">{t`Mais antigas`}</Option>
          </Select>
          {kind === 'messages' && (
            <Checkbox
              size="sm"
              label={t`Com anexo`}
              checked={filters.attachment}
              onChange={(event) => setFilters({ ...filters, attachment: event.target.checked })}
              sx={{ alignSelf: 'center' }}
            />
          )}
        </Box>
      )}
      {query.isFetching && <LinearProgress size="sm" />}
      {!query.isPending && rows.length === 0 && (
        <Typography level="body-sm" textColor="text.tertiary" sx={{ textAlign: 'center', py: 2 }}>
          {t`Sem resultados`}
        </Typography>
      )}
      <List size="sm">
        {rows.map((row, index) => (
          <ListItem key={String(row.id ?? index)}>
            {kind === 'rooms' ? (
              <ListItemButton onClick={() => typeof row.id === 'number' && onOpenRoom(row.id)}>
                <Box>
                  <Typography level="body-xs">{formatDateTime(String(row.datetime ?? ''))}</Typography>
                  <Typography level="body-sm">{text(row.user)}</Typography>
                  <Typography level="body-xs" textColor="text.tertiary">
                    {[text(row.classification), text(row.sub_classification)].filter(Boolean).join(' · ')}
                  </Typography>
                </Box>
              </ListItemButton>
            ) : (
              <Box>
                <Typography level="body-xs" textColor="text.tertiary">
                  {formatDateTime(String(row.datetime ?? ''))} · {text(row.user) || (row.sent_by === 'client' ? t`Cliente` : row.sent_by === 'agent' ? t`Agente` : t`Sistema`)}
                </Typography>
                <Typography level="body-sm">{cutSearchContent(String(row.content || row.attachment_name || ''))}</Typography>
              </Box>
            )}
          </ListItem>
        ))}
      </List>
    </Box>
  )
}
