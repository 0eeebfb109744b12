import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { CALL_TYPE_GROUPS, CALL_TYPES, callTypeLabel, DIAL_STATUS_LABELS, dialStatusLabel, localize } from '../../../contract/codes/index.ts'

// The words of the calls screen that are codes on the wire: call types and dial statuses come from contract/codes
// (unknown codes raw), the rest (direction, step kind, who hung up, phone type) are named here.

export const DIRECTION_LABELS: Record<string, MessageDescriptor> = {
  inbound: msg`Entrada`,
  outbound: msg`Saída`,
  internal: msg`Interna`,
}

export const STEP_KIND_LABELS: Record<string, MessageDescriptor> = {
  device: msg`Ramal`,
  queue: msg`Fila`,
  callgroup: msg`Grupo de chamada`,
  trunk: msg`Tronco`,
  reject: msg`Recusa`,
}

export const HUNG_UP_BY_LABELS: Record<string, MessageDescriptor> = {
  caller: msg`Chamador`,
  callee: msg`Chamado`,
}

export const PHONE_TYPE_LABELS: Record<string, MessageDescriptor> = {
  mobile: msg`Celular`,
  landline: msg`Fixo`,
}

/** A row's status: the contract label of its code (unknown codes raw), else the text the server stored. */
export function statusText(code: number | null, text: string, locale: string): string {
  return code === null ? text : dialStatusLabel(code, locale)
}

export type CodeOption = { value: string; label: string }

/** The call type filter: the three groups (their ranges as a comma list), then each type. */
export function callTypeOptions(locale: string): CodeOption[] {
  const groups = Object.values(CALL_TYPE_GROUPS).map((group) => ({
    value: CALL_TYPES.filter((code) => code >= group.min && code <= group.max).join(','),
    label: localize(group.label, locale),
  }))
  const types = CALL_TYPES.map((code) => ({ value: String(code), label: `${code} · ${callTypeLabel(code, locale)}` }))
  return [...groups, ...types]
}

/** The status filter: every known dial status code with its label. */
export function dialStatusOptions(locale: string): CodeOption[] {
  return Object.keys(DIAL_STATUS_LABELS).map((code) => ({ value: code, label: `${code} · ${dialStatusLabel(Number(code), locale)}` }))
}
