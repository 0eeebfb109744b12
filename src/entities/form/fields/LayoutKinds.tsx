import Alert from '@mui/joy/Alert'
import Box from '@mui/joy/Box'
import Divider from '@mui/joy/Divider'
import Sheet from '@mui/joy/Sheet'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { entityByKey } from '../../../../contract/entities/index.ts'
import { formatDateTime } from '../../../app/dates.ts'
import { EntityList } from '../../list/EntityList.tsx'
import type { FieldComponents, FieldInputProps, FieldReadOnlyProps } from '../types.ts'
import { asList, asText } from './shared.ts'

/** divider: a titled rule between groups of fields. */
export const dividerField: FieldComponents = {
  Input: ({ label }: FieldInputProps) => (
    <Divider sx={{ my: 1, '--Divider-childPosition': '0%' }} role="separator">
      {label && (
        <Typography level="title-sm" textColor="text.secondary">
          {label}
        </Typography>
      )}
    </Divider>
  ),
  ReadOnly: () => <Divider />,
  ownLabel: true,
}

function CrudIndexInput({ field, context, label }: FieldInputProps) {
  const { t } = useLingui()
  if (!field.embeds) return null
  const child = entityByKey(field.embeds)
  return (
    <Box data-field={field.name}>
      <Typography level="title-md" sx={{ mb: 1 }}>
        {label}
      </Typography>
      {context.recordId === undefined ? (
        <Alert variant="soft" color="neutral">
          {t`Salve o registro para adicionar itens aqui.`}
        </Alert>
      ) : (
        <EntityList entity={child} parentId={context.recordId} />
      )}
    </Box>
  )
}

/** crud-index: the child entity's list inside this form (outbound route channels, …), with the same permission flags. */
export const crudIndexField: FieldComponents = { Input: CrudIndexInput, ReadOnly: () => null, ownLabel: true }

type Message = Record<string, unknown>

function messageText(m: Message): string {
  return asText(m.text ?? m.body ?? m.message ?? m.content)
}

function ChatMessages({ field, value }: FieldReadOnlyProps) {
  const { t } = useLingui()
  const messages = asList<Message>(value)
  return (
    <Sheet
      variant="soft"
      sx={{ height: 500, overflowY: 'auto', borderRadius: 'md', p: 1.5, display: 'flex', flexDirection: 'column', gap: 1 }}
      data-field={field.name}
      role="log"
    >
      {messages.length === 0 && (
        <Typography level="body-sm" textColor="text.tertiary" sx={{ m: 'auto' }}>
          {t`Sem mensagens`}
        </Typography>
      )}
      {messages.map((m, i) => {
        const mine = m.from_me === true || m.direction === 'outbound' || m.direction === 'out'
        return (
          <Sheet
            key={asText(m.id) || i}
            variant={mine ? 'solid' : 'outlined'}
            color={mine ? 'primary' : 'neutral'}
            sx={{
              alignSelf: mine ? 'flex-end' : 'flex-start',
              maxWidth: '75%',
              px: 1.5,
              py: 1,
              borderRadius: 'lg',
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
            }}
          >
            {!!m.author && (
              <Typography level="body-xs" sx={{ fontWeight: 600, color: 'inherit' }}>
                {asText(m.author)}
              </Typography>
            )}
            <Typography level="body-sm" sx={{ color: 'inherit' }}>
              {messageText(m)}
            </Typography>
            {!!(m.created_at ?? m.date) && (
              <Typography level="body-xs" sx={{ opacity: 0.7, textAlign: 'right', color: 'inherit' }}>
                {formatDateTime(asText(m.created_at ?? m.date))}
              </Typography>
            )}
          </Sheet>
        )
      })}
    </Sheet>
  )
}

function ChatMessagesInput(props: FieldInputProps) {
  return (
    <Box>
      <Typography level="title-sm" sx={{ mb: 0.75 }} id={`${props.id}-label`}>
        {props.label}
      </Typography>
      <ChatMessages field={props.field} value={props.value} values={props.values} />
    </Box>
  )
}

/** chat-messages: a conversation's messages, read-only bubbles in a 500 px panel (spec 001 §9). */
export const chatMessagesField: FieldComponents = { Input: ChatMessagesInput, ReadOnly: ChatMessages, ownLabel: true }
