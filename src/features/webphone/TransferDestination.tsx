import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Stack from '@mui/joy/Stack'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { appTarget } from '../../../contract/codes/transfer.ts'
import type { DiallableApp } from '../../../contract/codes/transfer.ts'
import { profileQuery } from '../../api/session.ts'
import { usePermissionApps } from '../../api/webphone.ts'

// Where a transfer goes (spec 000 §6 "transfer destinations are limited by per-endpoint application permission
// lists"): a number typed by the agent, or one destination of an app picked from the extension's permission-apps list
// for transfers. Only the apps call control routes without the media app are offered: extensions, queues and call
// groups (IVRs, voicemail, NPS and announcements need it: ours to add with it).

export type DestinationKind = 'number' | Extract<DiallableApp, 'pjsip' | 'queue' | 'callgroup'>
export const DESTINATION_KINDS: readonly DestinationKind[] = ['number', 'pjsip', 'queue', 'callgroup']

/** What the agent chose: the number or app target to dial/refer, and how to show it. */
export type TransferTarget = { destination: string; label: string; app: string; appdata: string }

export type DestinationChoice = { kind: DestinationKind; number: string; id: string }

/** The transfer target of a choice, or null while it names none. */
export function targetOf(choice: DestinationChoice, rows: readonly { id: number; description: string }[]): TransferTarget | null {
  if (choice.kind === 'number') {
    const number = choice.number.trim()
    return number ? { destination: number, label: number, app: 'number', appdata: number } : null
  }
  const row = rows.find((item) => String(item.id) === choice.id)
  return row ? { destination: appTarget(choice.kind, row.id), label: row.description, app: choice.kind, appdata: String(row.id) } : null
}

/** The chosen app's destinations this extension may transfer to (none for a typed number). */
export function useTransferRows(kind: DestinationKind) {
  const { data: profile } = useQuery(profileQuery)
  const list = usePermissionApps(profile?.voip?.endpoint ?? null, kind === 'number' ? null : kind, 'transfer')
  return { rows: list.data ?? [], pending: kind !== 'number' && list.isPending }
}

type Props = {
  choice: DestinationChoice
  rows: readonly { id: number; description: string }[]
  pending: boolean
  missing: boolean
  onChange(choice: DestinationChoice): void
  onSubmit(): void
}

export function TransferDestination({ choice, rows, pending, missing, onChange, onSubmit }: Props) {
  const { t } = useLingui()
  const labels: Record<DestinationKind, string> = { number: t`Número`, pjsip: t`Ramal`, queue: t`Fila`, callgroup: t`Grupo de chamada` }
  return (
    <Stack spacing={1}>
      <FormControl size="sm">
        <FormLabel>
          <Trans>Transferir para</Trans>
        </FormLabel>
        <Select
          value={choice.kind}
          onChange={(_, kind) => kind && onChange({ ...choice, kind, id: '' })}
          slotProps={{ button: { 'aria-label': t`Transferir para` } }}
          data-testid="webphone-transfer-kind"
        >
          {DESTINATION_KINDS.map((kind) => (
            <Option key={kind} value={kind} data-testid={`webphone-transfer-kind-${kind}`}>
              {labels[kind]}
            </Option>
          ))}
        </Select>
      </FormControl>
      <FormControl error={missing} size="sm">
        <FormLabel>
          <Trans>Destino</Trans>
        </FormLabel>
        {choice.kind === 'number' ? (
          <Input
            value={choice.number}
            onChange={(event) => onChange({ ...choice, number: event.target.value })}
            onKeyDown={(event) => event.key === 'Enter' && onSubmit()}
            autoFocus
            slotProps={{ input: { 'aria-label': t`Destino` } }}
          />
        ) : (
          <Select
            value={choice.id || null}
            placeholder={pending ? t`Carregando…` : rows.length === 0 ? t`Nenhum destino permitido` : t`Escolha o destino`}
            disabled={rows.length === 0}
            onChange={(_, id) => onChange({ ...choice, id: id ?? '' })}
            slotProps={{ button: { 'aria-label': t`Destino` } }}
            data-testid="webphone-transfer-target"
          >
            {rows.map((row) => (
              <Option key={row.id} value={String(row.id)}>
                {row.description}
              </Option>
            ))}
          </Select>
        )}
        {missing && (
          <FormHelperText>
            <Trans>Informe o destino da transferência</Trans>
          </FormHelperText>
        )}
      </FormControl>
    </Stack>
  )
}
