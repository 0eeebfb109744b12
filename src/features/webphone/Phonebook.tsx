import { useState } from 'react'
import CircularProgress from '@mui/joy/CircularProgress'
import Input from '@mui/joy/Input'
import List from '@mui/joy/List'
import ListItem from '@mui/joy/ListItem'
import ListItemButton from '@mui/joy/ListItemButton'
import ListItemContent from '@mui/joy/ListItemContent'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { Trans, useLingui } from '@lingui/react/macro'
import { phonebookNumber, usePhonebook } from '../../api/webphone.ts'
import { PhoneIcon } from '../../components/icons/icons.tsx'
import type { Webphone } from './useWebphone.ts'

// The phonebook (spec 000 §2 "phonebook (dial to a contact)"): the site's extensions from the endpoints lookup, searched
// here, each dialled with a click. Internal extensions need no outbound route; a row without a number cannot be dialled.

export function Phonebook({ webphone }: { webphone: Webphone }) {
  const { t } = useLingui()
  const { data, isPending, isError } = usePhonebook()
  const [search, setSearch] = useState('')
  const term = search.trim().toLowerCase()
  const contacts = (data ?? [])
    .map((entry) => ({ ...entry, dial: phonebookNumber(entry) }))
    .filter((entry) => !term || entry.description.toLowerCase().includes(term) || entry.dial.includes(term))
  const dial = (number: string) => {
    webphone.send({ type: 'DIAL', number })
    webphone.send({ type: 'SET_STAGE', stage: 'dialpad' })
  }
  return (
    <Stack spacing={1} data-testid="webphone-phonebook">
      <Input
        size="sm"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        placeholder={t`Buscar contato`}
        slotProps={{ input: { 'aria-label': t`Buscar contato` } }}
      />
      {isPending && <CircularProgress size="sm" sx={{ alignSelf: 'center' }} />}
      {isError && (
        <Typography level="body-sm" color="danger">
          <Trans>Não foi possível carregar os contatos.</Trans>
        </Typography>
      )}
      {!isPending && !isError && contacts.length === 0 && (
        <Typography level="body-sm" textColor="text.tertiary" data-testid="webphone-phonebook-empty">
          <Trans>Nenhum contato encontrado.</Trans>
        </Typography>
      )}
      <List size="sm" sx={{ maxHeight: 280, overflow: 'auto', '--List-padding': '0px' }}>
        {contacts.map((contact) => (
          <ListItem key={contact.id}>
            <ListItemButton disabled={!contact.dial} onClick={() => dial(contact.dial)} data-testid="webphone-contact">
              <ListItemContent>
                <Typography level="title-sm" noWrap>
                  {contact.description}
                </Typography>
                {contact.dial && <Typography level="body-xs">{contact.dial}</Typography>}
              </ListItemContent>
              <PhoneIcon color="success" />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Stack>
  )
}
