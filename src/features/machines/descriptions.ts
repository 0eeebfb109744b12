import type { Texts } from '../../../contract/codes/localize.ts'

// What each machine models, in the visualizer's language. machines/index.ts keeps an English line beside each
// definition for developers; these are what designers and QA read on the page (a test fails when a machine of the
// index has none here). Texts of this page only, so they travel in its chunk, not in the catalog every page loads.
export const MACHINE_DESCRIPTIONS: Readonly<Record<string, Texts>> = {
  tabOwnership: {
    'pt-BR': "Qual aba do navegador atende chamadas e chats; 'Atender aqui' assume o atendimento, e a aba que o perde recarrega após 3 s.",
    'en-US': "Which browser tab serves calls and chats; 'Atender aqui' takes over, the tab that loses reloads after 3 s.",
    'es-ES': "Qué pestaña del navegador atiende llamadas y chats; 'Atender aqui' toma el servicio, y la pestaña que lo pierde se recarga tras 3 s.",
  },
  wallboard: {
    'pt-BR': 'A assinatura do painel do supervisor no canal de status: assina enquanto a página está aberta e o canal conectado, aplica cada delta na sua revisão e assina de novo após uma falha ou reconexão.',
    'en-US': "The supervisor wallboard's subscription on the status feed: subscribes while the page is open and the feed connected, applies each delta on its revision, subscribes again after a gap or a reconnect.",
    'es-ES': 'La suscripción del panel del supervisor en el canal de estado: se suscribe mientras la página está abierta y el canal conectado, aplica cada delta en su revisión y se suscribe de nuevo tras un hueco o una reconexión.',
  },
  serviceSocket: {
    'pt-BR': 'O canal de status em /ws/business/: login, ping a cada 5 s, pausas e atividades enquanto atende, reconexão com espera crescente, logout remoto.',
    'en-US': 'The status feed on /ws/business/: login, ping every 5 s, pauses and activities while serving, back-off reconnect, remote logout.',
    'es-ES':
      'El canal de estado en /ws/business/: login, ping cada 5 s, pausas y actividades mientras atiende, reconexión con espera creciente, logout remoto.',
  },
  pause: {
    'pt-BR': "A pausa do agente: pendente até ficar disponível, início, troca ('Trocar'), encerramento, justificativa da pausa excedida, pausas de supervisor.",
    'en-US': "The agent's break: pending until available, start, swap ('Trocar'), stop, exceeded justification, supervisor pauses.",
    'es-ES': "La pausa del agente: pendiente hasta estar disponible, inicio, cambio ('Trocar'), fin, justificación de la pausa excedida, pausas de supervisor.",
  },
  screenLock: {
    'pt-BR': 'O bloqueio de tela cheia aplicado por uma pausa ou manualmente, liberado só por uma senha validada.',
    'en-US': 'The full-screen lock set by a pause or by hand, lifted only by a validated password.',
    'es-ES': 'El bloqueo de pantalla completa puesto por una pausa o a mano, levantado solo con una contraseña validada.',
  },
  agentStatus: {
    'pt-BR': 'O status agregado do webphone (not_inuse … do_not_disturb) enviado no canal de status e à janela que incorpora o console.',
    'en-US': 'The webphone aggregate status (not_inuse … do_not_disturb) sent on the status feed and to the parent window.',
    'es-ES': 'El estado agregado del webphone (not_inuse … do_not_disturb) enviado por el canal de estado y a la ventana que incrusta la consola.',
  },
  webchatStatus: {
    'pt-BR': 'O status do webchat: em pausa, ocupado pelo limite de chats, indisponível pelo registro, senão not_inuse.',
    'en-US': 'The webchat status: paused, busy by the chat limit, unavailable by registration, otherwise not_inuse.',
    'es-ES': 'El estado del webchat: en pausa, ocupado por el límite de chats, no disponible por el registro, si no not_inuse.',
  },
  webphone: {
    'pt-BR':
      'O painel do webphone e o registro SIP: desligado, outra aba, permissões faltando, iniciando, pronto; rejeição automática, recusas de discagem, transferências e conferências.',
    'en-US':
      'The webphone panel and SIP registration: off, other tab, missing permissions, starting, ready; auto-reject, dial refusals, transfers and conferences.',
    'es-ES':
      'El panel del webphone y el registro SIP: apagado, otra pestaña, permisos que faltan, iniciando, listo; rechazo automático, marcaciones rechazadas, transferencias y conferencias.',
  },
  activityDialer: {
    'pt-BR':
      'Atividades agendadas discadas pelo webphone enquanto o agente está disponível: tentativa, discagem, concluída quando atendida, espera de 60 s após uma falha.',
    'en-US': 'Scheduled activities dialled by the webphone while the agent is available: attempt, dial, done when answered, 60 s wait after a failure.',
    'es-ES':
      'Actividades programadas marcadas por el webphone mientras el agente está disponible: intento, marcación, hecha al ser atendida, espera de 60 s tras un fallo.',
  },
  previewDialer: {
    'pt-BR':
      'O próximo lead de uma campanha preview oferecido ao agente disponível: ligar (ou a contagem liga), pular; o fim da chamada traz o próximo.',
    'en-US': "A preview campaign's next lead offered to the available agent: call it (or the countdown does), skip it; its call's end brings the next.",
    'es-ES':
      'El siguiente lead de una campaña preview ofrecido al agente disponible: llamar (o la cuenta atrás llama), saltar; el fin de la llamada trae el siguiente.',
  },
  audioPermission: {
    'pt-BR':
      "Se o navegador deixa o console tocar áudio: uma reprodução recusada (no início ou depois, o áudio de uma chamada) abre 'Permitir áudio', cujo clique toca de novo.",
    'en-US':
      "Whether the browser lets the console play audio: a refused playback (at start or later, a call's audio) opens 'Permitir áudio', whose click plays it again.",
    'es-ES':
      "Si el navegador deja que la consola reproduzca audio: una reproducción rechazada (al inicio o después, el audio de una llamada) abre 'Permitir áudio', cuyo clic la reproduce de nuevo.",
  },
  call: {
    'pt-BR':
      'Uma chamada: ringing, inuse, onhold, onmute, ended; webphone_answer 2 s após atender, consulta de metadados, o atraso de 3 s ao desligar, o tempo dos DTMF.',
    'en-US': 'One call: ringing, inuse, onhold, onmute, ended; webphone_answer 2 s after the answer, metadata polling, the 3 s hangup delay, DTMF timing.',
    'es-ES':
      'Una llamada: ringing, inuse, onhold, onmute, ended; webphone_answer 2 s después de contestar, consulta de metadatos, el retraso de 3 s al colgar, el tiempo de los DTMF.',
  },
  transfer: {
    'pt-BR':
      'Uma transferência cega, assistida ou pêndulo: REFER ou discagem, confirmação (REFER com Replaces) ou cancelamento, cancelada quando o destino desliga.',
    'en-US': 'A blind, attended or pendulum transfer: REFER or dial, confirm (REFER with Replaces) or cancel, cancelled when the target hangs up.',
    'es-ES':
      'Una transferencia ciega, asistida o pendular: REFER o marcación, confirmación (REFER con Replaces) o cancelación, cancelada cuando el destino cuelga.',
  },
  conference: {
    'pt-BR': 'Uma conferência local de várias chamadas misturadas no navegador do agente; termina quando restam menos de duas chamadas.',
    'en-US': "A local conference of several calls mixed in the agent's browser; it ends when fewer than two calls are left.",
    'es-ES': 'Una conferencia local de varias llamadas mezcladas en el navegador del agente; termina cuando quedan menos de dos llamadas.',
  },
  telephonyChannel: {
    'pt-BR':
      'O login no canal de telefonia: entra (pelo usuário ou pelo login automático) quando o webphone funciona e sai quando o agente o desliga; as filas só oferecem chamadas a quem está no canal.',
    'en-US':
      'The telephony channel sign-in: signed in (by the user or the auto login) once the webphone runs, out when the agent stops it; queues offer calls only to agents in the channel.',
    'es-ES':
      'El inicio de sesión en el canal de telefonía: entra (por el usuario o el inicio automático) cuando el webphone funciona y sale cuando el agente lo apaga; las colas solo ofrecen llamadas a quien está en el canal.',
  },
  chatSocket: {
    'pt-BR': 'O canal de chat em /ws/chat/: check_rooms ao abrir, ping a cada 5 s, reconexão com espera crescente e ressincronização pelo cursor.',
    'en-US': 'The chat feed on /ws/chat/: check_rooms on open, ping every 5 s, back-off reconnect and re-sync by cursor.',
    'es-ES': 'El canal de chat en /ws/chat/: check_rooms al abrir, ping cada 5 s, reconexión con espera creciente y resincronización por cursor.',
  },
  chatRoom: {
    'pt-BR':
      "Um chat: desligado, atendido automaticamente ou tocando na fila ('Novo Chat' por 2,5 s), atendido (sync_step após 500 ms, barra de não lidas a cada 10 s), contagem após o fim, removido.",
    'en-US':
      "One chat room: hung up, auto-answered or ringing in the queue ('Novo Chat' for 2.5 s), answered (sync_step after 500 ms, unread bar retry 10 s), ended countdown, removed.",
    'es-ES':
      "Un chat: colgado, atendido automáticamente o sonando en la cola ('Novo Chat' durante 2,5 s), atendido (sync_step tras 500 ms, barra de no leídos cada 10 s), cuenta atrás al terminar, eliminado.",
  },
  chatRooms: {
    'pt-BR': 'Os chats do agente: um ator por chat listado no canal de chat; chats atendidos e removidos ficam finalizados e nunca voltam.',
    'en-US': "The agent's chat rooms: one chat room actor per room the chat socket lists; answered rooms removed are finished and never added again.",
    'es-ES': 'Los chats del agente: un actor por chat listado en el canal de chat; los chats atendidos y eliminados quedan finalizados y nunca vuelven.',
  },
  chatViewer: {
    'pt-BR': 'O visualizador de chat: carrega a conversa e a consulta a cada 5 s até o chat terminar; atualizar carrega de novo.',
    'en-US': 'The chat room viewer: loads the room and polls it every 5 s until the chat ends; refresh loads it again.',
    'es-ES': 'El visor de chat: carga la conversación y la consulta cada 5 s hasta que el chat termina; actualizar la carga de nuevo.',
  },
  chatSearch: {
    'pt-BR': 'A busca de chats: a consulta vale 500 ms após a última tecla; limpar vale na hora.',
    'en-US': 'The chat search box: the query is committed 500 ms after the last key; clearing commits at once.',
    'es-ES': 'La búsqueda de chats: la consulta se aplica 500 ms después de la última tecla; limpiar se aplica al instante.',
  },
}
