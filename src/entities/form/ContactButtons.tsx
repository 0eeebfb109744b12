import { lazy, Suspense, useState } from 'react'
import Box from '@mui/joy/Box'
import IconButton from '@mui/joy/IconButton'
import Typography from '@mui/joy/Typography'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import type { Field } from '../../../contract/entities/index.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { CALL_HEADERS } from '../../../machines/webphoneTypes.ts'
import { profileQuery } from '../../api/session.ts'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { useLocale } from '../../app/useLocale.ts'
import { ChatIcon, PhoneIcon } from '../../components/icons/icons.tsx'
import type { FormContext } from './types.ts'

const TemplateDialog = lazy(() => import('../../features/chat/TemplateDialog.tsx').then((m) => ({ default: m.TemplateDialog })))

/** The numbers a phone field holds: one text, or the items of a list (a client's phones). */
export function phonesOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[;,]/) : []
  return items.map((item) => String(item ?? '').trim()).filter((item) => /\d/.test(item))
}

/**
 * The call and chat buttons of a phone field (spec 001 §3 btn_phone / btn_chat), one pair per number it holds. Call:
 * the webphone dials the number and /phonecalls opens (001 §2). Chat: the chat workspace's template dialog opens for
 * the number. On a client's form (`/clients/{id}/edit`) the client's id goes with both (001 §2: it supplies the client
 * id used for calls and chats). Each button shows only to users who may use its channel (sites.view_softphone,
 * sites.view_chat); a number is acted on as typed (the webphone and the server normalise it).
 */
export function ContactButtons({ field, value, context }: { field: Field; value: unknown; context: FormContext }) {
  const { t } = useLingui()
  const system = useAgentSystem()
  const navigate = useNavigate()
  const { params } = useLocale()
  const { data: profile } = useQuery(profileQuery)
  const [chatTo, setChatTo] = useState<string | null>(null)
  const roles = profile?.roles ?? []
  const canCall = field.btnPhone === true && has(roles, PERMISSIONS.viewSoftphone)
  const canChat = field.btnChat === true && has(roles, PERMISSIONS.viewChat)
  const phones = phonesOf(value)
  if ((!canCall && !canChat) || phones.length === 0) return null
  const clientId = context.entity?.key === 'crm.clients' && context.recordId ? context.recordId : null

  const call = (phone: string) => {
    const headers = clientId ? { [CALL_HEADERS.client]: String(clientId) } : undefined
    system?.get('webphone').send({ type: 'DIAL', number: phone, ...(headers ? { headers } : {}) })
    void navigate({ to: '/{-$locale}/phonecalls', params })
  }

  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 0.5 }} data-testid={`contact-buttons-${field.name}`}>
      {phones.map((phone) => (
        <Box key={phone} sx={{ display: 'flex', alignItems: 'center', gap: 0.25, pl: 1, borderRadius: 'sm', bgcolor: 'background.level1' }}>
          <Typography level="body-xs" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {phone}
          </Typography>
          {canCall && (
            <IconButton
              size="sm"
              variant="plain"
              color="success"
              onClick={() => call(phone)}
              aria-label={t`Ligar para ${phone}`}
              title={t`Ligar para ${phone}`}
              data-testid="field-call"
            >
              <PhoneIcon />
            </IconButton>
          )}
          {canChat && (
            <IconButton
              size="sm"
              variant="plain"
              color="primary"
              onClick={() => setChatTo(phone)}
              aria-label={t`Enviar chat para ${phone}`}
              title={t`Enviar chat para ${phone}`}
              data-testid="field-chat"
            >
              <ChatIcon />
            </IconButton>
          )}
        </Box>
      ))}
      {chatTo !== null && (
        <Suspense fallback={null}>
          <TemplateDialog phone={chatTo} clientId={clientId} onClose={() => setChatTo(null)} />
        </Suspense>
      )}
    </Box>
  )
}
