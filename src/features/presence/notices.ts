import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { CLASSIFICATION_REQUIRED_NOTICE, FORM_REQUIRED_NOTICE } from '../../../machines/chatRoom.machine.ts'
import { EXCEEDED_TITLE, PAUSED_BY_SUPERVISOR_NOTICE } from '../../../machines/pause.machine.ts'
import { LOCK_TITLE_LOCKED, LOCK_TITLE_PAUSED } from '../../../machines/screenLock.machine.ts'
import { REMOTE_LOGOUT_NOTICE } from '../../../machines/serviceSocket.machine.ts'
import { OTHER_TAB_NOTICE, SERVICE_HERE_LABEL, TAKEN_OVER_NOTICE } from '../../../machines/tabOwnership.machine.ts'
import { TRANSFER_FAILED_NOTICE } from '../../../machines/transfer.machine.ts'
import {
  AFTER_SERVICE_START_PREFIX,
  DIAL_REFUSED_NOTICE,
  FORM_BEFORE_TRANSFER_NOTICE,
  NO_AFTER_SERVICE_NOTICE,
  ROUTE_REQUIRED_NOTICE,
  SERVICE_ELSEWHERE_NOTICE,
} from '../../../machines/webphone.machine.ts'

// The machines speak the spec's pt-BR texts (they hold no React and no Lingui); the views translate them here. A test
// checks that every text a machine exports has its message, with the same Portuguese.

export const MACHINE_TEXTS: Readonly<Record<string, MessageDescriptor>> = {
  [OTHER_TAB_NOTICE]: msg`Webphone esta em execução em outra aba ou janela.`,
  [SERVICE_HERE_LABEL]: msg`Atender aqui`,
  [TAKEN_OVER_NOTICE]: msg`Solicitação de atendimento em outra aba, está será atualizada.`,
  [REMOTE_LOGOUT_NOTICE]: msg`Comando recebido, você será deslogado em 15 segundos`,
  [PAUSED_BY_SUPERVISOR_NOTICE]: msg`Você foi pausado por um supervisor`,
  [EXCEEDED_TITLE]: msg`Pausa excedente`,
  [LOCK_TITLE_PAUSED]: msg`Pausado`,
  [LOCK_TITLE_LOCKED]: msg`Tela bloqueada`,
  [DIAL_REFUSED_NOTICE]: msg`Não possível fazer uma ligação durante este status`,
  [ROUTE_REQUIRED_NOTICE]: msg`Selecione uma rota de saída`,
  [SERVICE_ELSEWHERE_NOTICE]: msg`Seu atendimento está em outra aba`,
  [TRANSFER_FAILED_NOTICE]: msg`Não foi possível fazer a transferência`,
  [NO_AFTER_SERVICE_NOTICE]: msg`Esta chamada não tem Pós-atendimento`,
  [FORM_BEFORE_TRANSFER_NOTICE]: msg`É necessário salvar o formulário antes de fazer a transferência.`,
  [AFTER_SERVICE_START_PREFIX.trim()]: msg`Erro ao iniciar o Pós-atendimento`,
  [CLASSIFICATION_REQUIRED_NOTICE]: msg`Classificação tem campos obrigatórios`,
  [FORM_REQUIRED_NOTICE]: msg`Formulário tem campos obrigatórios`,
  'Ocorreu um erro': msg`Ocorreu um erro`,
}

const ERROR_PREFIX = 'Ocorreu um erro '

/** A machine's text in the active language; server details (already translated by the server) pass through. */
export function machineText(i18n: I18n, text: string): string {
  const known = MACHINE_TEXTS[text]
  if (known) return i18n._(known)
  if (text.startsWith(AFTER_SERVICE_START_PREFIX)) {
    const error = text.slice(AFTER_SERVICE_START_PREFIX.length)
    return i18n._(msg`Erro ao iniciar o Pós-atendimento ${error}`)
  }
  if (text.startsWith(ERROR_PREFIX)) {
    const detail = text.slice(ERROR_PREFIX.length)
    return i18n._(msg`Ocorreu um erro ${detail}`)
  }
  return text
}
