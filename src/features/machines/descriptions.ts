import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

// What each machine models, in the visualizer's language. machines/index.ts keeps an English line beside each
// definition for developers; these are what designers and QA read on the page (a test fails when a machine of the
// index has none here).
export const MACHINE_DESCRIPTIONS: Readonly<Record<string, MessageDescriptor>> = {
  tabOwnership: msg`Qual aba do navegador atende chamadas e chats; 'Atender aqui' assume o atendimento, e a aba que o perde recarrega após 3 s.`,
  serviceSocket: msg`O canal de status em /ws/business/: login, ping a cada 5 s, pausas e atividades enquanto atende, reconexão com espera crescente, logout remoto.`,
  pause: msg`A pausa do agente: pendente até ficar disponível, início, troca ('Trocar'), encerramento, justificativa da pausa excedida, pausas de supervisor.`,
  screenLock: msg`O bloqueio de tela cheia aplicado por uma pausa ou manualmente, liberado só por uma senha validada.`,
  agentStatus: msg`O status agregado do webphone (not_inuse … do_not_disturb) enviado no canal de status e à janela que incorpora o console.`,
  webchatStatus: msg`O status do webchat: em pausa, ocupado pelo limite de chats, indisponível pelo registro, senão not_inuse.`,
  webphone: msg`O painel do webphone e o registro SIP: desligado, outra aba, permissões faltando, iniciando, pronto; rejeição automática, recusas de discagem, transferências e conferências.`,
  activityDialer: msg`Atividades agendadas discadas pelo webphone enquanto o agente está disponível: tentativa, discagem, concluída quando atendida, espera de 60 s após uma falha.`,
  audioPermission: msg`Se o navegador deixa o console tocar áudio: uma reprodução recusada (no início ou depois, o áudio de uma chamada) abre 'Permitir áudio', cujo clique toca de novo.`,
  call: msg`Uma chamada: ringing, inuse, onhold, onmute, ended; webphone_answer 2 s após atender, consulta de metadados, o atraso de 3 s ao desligar, o tempo dos DTMF.`,
  transfer: msg`Uma transferência cega, assistida ou pêndulo: REFER ou discagem, confirmação (REFER com Replaces) ou cancelamento, cancelada quando o destino desliga.`,
  conference: msg`Uma conferência local de várias chamadas misturadas no navegador do agente; termina quando restam menos de duas chamadas.`,
}
