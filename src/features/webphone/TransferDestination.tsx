import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { DIALLABLE_APPS, destinationAddress } from '../../../contract/codes/transfer.ts'
import type { DiallableApp } from '../../../contract/codes/transfer.ts'
import { DestinationPicker } from '../../components/destinations/DestinationPicker.tsx'
import type { DestinationValue } from '../../components/destinations/DestinationPicker.tsx'
import { profileQuery } from '../../api/session.ts'
import { usePermissionApps } from '../../api/webphone.ts'

// Where a transfer goes (spec 000 §6 "transfer destinations are limited by per-endpoint application permission
// lists"), in the same destination picker as every settings destination: a number typed by the agent, or one
// destination of any app — extension, queue, call group, IVR, voicemail, NPS survey, announcement — picked from the
// extension's permission-apps list for transfers, sent as its `<app>.<id>` address.

/** The apps a transfer offers: a typed number first, then every app the webphone reaches by id. */
export const TRANSFER_APPS: readonly string[] = ['number', ...DIALLABLE_APPS]

/** What the agent chose: the address to dial/refer, and how to show it. */
export type TransferTarget = { destination: string; label: string; app: string; appdata: string }

/** The transfer target of a choice, or null while it names none. */
export function targetOf(choice: DestinationValue, rows: readonly { id: number; description: string }[]): TransferTarget | null {
  const destination = destinationAddress(choice)
  if (!destination) return null
  if (choice.app === 'number') return { destination, label: destination, app: 'number', appdata: destination }
  const row = rows.find((item) => String(item.id) === choice.appdata)
  return row ? { destination, label: row.description, app: choice.app, appdata: String(row.id) } : null
}

/** The chosen app's destinations this extension may transfer to (none for a typed number). */
export function useTransferRows(app: string) {
  const { data: profile } = useQuery(profileQuery)
  const diallable = (DIALLABLE_APPS as readonly string[]).includes(app) ? (app as DiallableApp) : null
  const list = usePermissionApps(profile?.voip?.endpoint ?? null, diallable, 'transfer')
  return { rows: list.data ?? [], pending: diallable !== null && list.isPending, failed: list.isError }
}

type Props = {
  choice: DestinationValue
  rows: readonly { id: number; description: string }[]
  pending: boolean
  failed: boolean
  missing: boolean
  onChange(choice: DestinationValue): void
  onSubmit(): void
}

export function TransferDestination({ choice, rows, pending, failed, missing, onChange, onSubmit }: Props) {
  const { t } = useLingui()
  return (
    <DestinationPicker
      id="webphone-transfer-destination"
      family="pabx"
      apps={TRANSFER_APPS}
      value={choice}
      onChange={(next) => onChange(next ?? { app: 'number', appdata: '' })}
      rows={{ choices: rows.map((row) => ({ value: String(row.id), label: row.description })), pending, failed }}
      label={t`Transferir para`}
      numberLabel={t`Destino`}
      targetLabel={t`Destino`}
      appLabels={{ number: t`Número` }}
      {...(missing ? { error: t`Informe o destino da transferência` } : {})}
      stacked
      onSubmit={onSubmit}
      testId="webphone-transfer"
    />
  )
}
