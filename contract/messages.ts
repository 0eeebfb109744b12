import type { Locale } from './locales.ts'
import { DEFAULT_LOCALE } from './locales.ts'

// User-facing texts produced outside React (validation messages of the shared valibot schemas and the server's
// error bodies). The SPA's own texts live in the Lingui catalogs; these are shared by both sides, so they are kept
// here with all three languages side by side. A test fails if any language is missing.
export const MESSAGES = {
  required: { 'pt-BR': 'Este campo é obrigatório', 'en-US': 'This field is required', 'es-ES': 'Este campo es obligatorio' },
  minLength: {
    'pt-BR': 'Este campo é menor do que o permitido que é {n}',
    'en-US': 'This field is shorter than the allowed minimum of {n}',
    'es-ES': 'Este campo es más corto que el mínimo permitido de {n}',
  },
  maxLength: {
    'pt-BR': 'Este campo é maior do que o permitido que é {n}',
    'en-US': 'This field is longer than the allowed maximum of {n}',
    'es-ES': 'Este campo es más largo que el máximo permitido de {n}',
  },
  invalidValue: { 'pt-BR': 'Valor inválido', 'en-US': 'Invalid value', 'es-ES': 'Valor no válido' },
  invalidEmail: { 'pt-BR': 'E-mail inválido', 'en-US': 'Invalid e-mail address', 'es-ES': 'Correo electrónico no válido' },
  invalidCredentials: {
    'pt-BR': 'Usuário ou senha inválidos.',
    'en-US': 'Invalid username or password.',
    'es-ES': 'Usuario o contraseña no válidos.',
  },
  tooManyAttempts: {
    'pt-BR': 'Muitas tentativas de acesso. Tente novamente em {n} segundos.',
    'en-US': 'Too many sign-in attempts. Try again in {n} seconds.',
    'es-ES': 'Demasiados intentos de acceso. Inténtelo de nuevo en {n} segundos.',
  },
  notAuthenticated: {
    'pt-BR': 'As credenciais de autenticação não foram fornecidas.',
    'en-US': 'Authentication credentials were not provided.',
    'es-ES': 'No se proporcionaron las credenciales de autenticación.',
  },
  permissionDenied: {
    'pt-BR': 'Você não tem permissão para executar essa ação.',
    'en-US': 'You do not have permission to perform this action.',
    'es-ES': 'No tiene permiso para realizar esta acción.',
  },
  moduleDisabled: {
    'pt-BR': 'Este módulo está desativado neste site.',
    'en-US': 'This module is turned off for this site.',
    'es-ES': 'Este módulo está desactivado en este sitio.',
  },
  platformOnly: {
    'pt-BR': 'Somente o operador da plataforma pode alterar o campo {field}.',
    'en-US': 'Only the platform operator can change the field {field}.',
    'es-ES': 'Solo el operador de la plataforma puede cambiar el campo {field}.',
  },
  csrfFailed: {
    'pt-BR': 'Falha na verificação CSRF.',
    'en-US': 'CSRF verification failed.',
    'es-ES': 'Falló la verificación CSRF.',
  },
  notFound: { 'pt-BR': 'Não encontrado.', 'en-US': 'Not found.', 'es-ES': 'No encontrado.' },
  serverError: {
    'pt-BR': 'Erro interno do servidor.',
    'en-US': 'Internal server error.',
    'es-ES': 'Error interno del servidor.',
  },
  wrongPassword: { 'pt-BR': 'Senha atual incorreta.', 'en-US': 'Current password is incorrect.', 'es-ES': 'La contraseña actual es incorrecta.' },
  passwordsDiffer: { 'pt-BR': 'As senhas não conferem.', 'en-US': 'The passwords do not match.', 'es-ES': 'Las contraseñas no coinciden.' },
  passwordTooShort: {
    'pt-BR': 'A senha deve ter pelo menos {n} caracteres.',
    'en-US': 'The password must have at least {n} characters.',
    'es-ES': 'La contraseña debe tener al menos {n} caracteres.',
  },
  passwordNeedsLetterAndDigit: {
    'pt-BR': 'A senha deve conter letras e números.',
    'en-US': 'The password must contain letters and digits.',
    'es-ES': 'La contraseña debe contener letras y números.',
  },
  passwordTooSimilar: {
    'pt-BR': 'A senha é muito parecida com o nome de usuário.',
    'en-US': 'The password is too similar to the username.',
    'es-ES': 'La contraseña es demasiado parecida al nombre de usuario.',
  },
  passwordUnchanged: {
    'pt-BR': 'A nova senha deve ser diferente da atual.',
    'en-US': 'The new password must differ from the current one.',
    'es-ES': 'La nueva contraseña debe ser distinta de la actual.',
  },
  invalidImage: {
    'pt-BR': 'Envie uma imagem válida (PNG, JPEG, GIF ou WebP).',
    'en-US': 'Upload a valid image (PNG, JPEG, GIF or WebP).',
    'es-ES': 'Envíe una imagen válida (PNG, JPEG, GIF o WebP).',
  },
  fileTooLarge: {
    'pt-BR': 'O arquivo é maior do que o permitido ({n} MB).',
    'en-US': 'The file is larger than allowed ({n} MB).',
    'es-ES': 'El archivo es mayor de lo permitido ({n} MB).',
  },
  malformedRequest: {
    'pt-BR': 'Requisição malformada.',
    'en-US': 'Malformed request.',
    'es-ES': 'Solicitud mal formada.',
  },
  payloadTooLarge: {
    'pt-BR': 'A requisição é maior do que o permitido.',
    'en-US': 'The request is larger than allowed.',
    'es-ES': 'La solicitud es mayor de lo permitido.',
  },
  // Request input PostgreSQL cannot store (spec 000 §5 answers it as the field's error, as DRF's CharField does).
  nullCharacter: {
    'pt-BR': 'Caracteres nulos não são permitidos.',
    'en-US': 'Null characters are not allowed.',
    'es-ES': 'No se permiten caracteres nulos.',
  },
  // The database is unreachable, or the server is saturated: answered 503 with Retry-After.
  serviceUnavailable: {
    'pt-BR': 'Serviço temporariamente indisponível. Tente novamente em instantes.',
    'en-US': 'Service temporarily unavailable. Try again shortly.',
    'es-ES': 'Servicio no disponible temporalmente. Inténtelo de nuevo en unos instantes.',
  },
  unsupportedMediaType: {
    'pt-BR': 'Tipo de conteúdo não suportado.',
    'en-US': 'Unsupported content type.',
    'es-ES': 'Tipo de contenido no admitido.',
  },
  // Agent pause (spec 000 §3, §4, §7): the `detail` of the pause answers.
  pauseStarted: { 'pt-BR': 'Pausa iniciada.', 'en-US': 'Break started.', 'es-ES': 'Pausa iniciada.' },
  pauseStopped: { 'pt-BR': 'Pausa encerrada.', 'en-US': 'Break ended.', 'es-ES': 'Pausa finalizada.' },
  pausePending: {
    'pt-BR': 'A pausa começará quando o agente ficar disponível.',
    'en-US': 'The break starts when the agent is available.',
    'es-ES': 'La pausa comenzará cuando el agente esté disponible.',
  },
  pauseExceeded: {
    'pt-BR': 'Pausa excedente: informe a justificativa.',
    'en-US': 'Break exceeded: give a justification.',
    'es-ES': 'Pausa excedida: indique la justificación.',
  },
  pauseNotAllowed: {
    'pt-BR': 'Esta pausa não está disponível para você.',
    'en-US': 'This break is not available to you.',
    'es-ES': 'Esta pausa no está disponible para usted.',
  },
  alreadyPaused: { 'pt-BR': 'Já existe uma pausa em andamento.', 'en-US': 'A break is already running.', 'es-ES': 'Ya hay una pausa en curso.' },
  notPaused: { 'pt-BR': 'Nenhuma pausa em andamento.', 'en-US': 'No break is running.', 'es-ES': 'No hay ninguna pausa en curso.' },
  pauseReportMismatch: {
    'pt-BR': 'A pausa informada não é a pausa em andamento.',
    'en-US': 'The given break is not the running one.',
    'es-ES': 'La pausa indicada no es la que está en curso.',
  },
  // Activities and a supervisor's remote commands (server/agent/activity-service.ts, agent-command.ts).
  endBeforeStart: {
    'pt-BR': 'O fim deve ser posterior ao início.',
    'en-US': 'The end must be after the start.',
    'es-ES': 'El fin debe ser posterior al inicio.',
  },
  httpUrlOnly: {
    'pt-BR': 'Informe um endereço http:// ou https://.',
    'en-US': 'Give an http:// or https:// address.',
    'es-ES': 'Indique una dirección http:// o https://.',
  },
  commandSent: { 'pt-BR': 'Comando enviado.', 'en-US': 'Command sent.', 'es-ES': 'Comando enviado.' },
  // POST /api/v1/agent/supervisor/monitor/ (contract/api/monitor.ts): listen, whisper, barge.
  agentNotInCall: {
    'pt-BR': 'O agente não está em uma chamada atendida.',
    'en-US': 'The agent is not on an answered call.',
    'es-ES': 'El agente no está en una llamada atendida.',
  },
  monitorUnavailable: {
    'pt-BR': 'A monitoria precisa do app de mídia no caminho da chamada.',
    'en-US': 'Monitoring needs the media app in the call\'s path.',
    'es-ES': 'La monitorización necesita la app de medios en el camino de la llamada.',
  },
  monitorListenOnly: {
    'pt-BR': 'O agente atendeu esta chamada diretamente: só é possível ouvi-la.',
    'en-US': 'The agent took this call directly: it can only be listened to.',
    'es-ES': 'El agente atendió esta llamada directamente: solo se puede escuchar.',
  },
  supervisorWithoutDevice: {
    'pt-BR': 'Você não tem um ramal para receber a monitoria.',
    'en-US': 'You have no extension to receive the monitoring call.',
    'es-ES': 'No tiene una extensión para recibir la monitorización.',
  },
  // GET /ws/sip while the SIP engines are off, missing or down.
  telephonyUnavailable: {
    'pt-BR': 'A telefonia está indisponível no momento.',
    'en-US': 'Telephony is unavailable at the moment.',
    'es-ES': 'La telefonía no está disponible en este momento.',
  },
  // GET /ws/sip for a user without a SIP device (no webphone account in the profile).
  noVoipAccount: {
    'pt-BR': 'Seu usuário não tem um ramal de webphone.',
    'en-US': 'Your user has no webphone extension.',
    'es-ES': 'Su usuario no tiene una extensión de webphone.',
  },
  // GET /ws/sip over the per-user or per-address websocket limit (SIP_WS_PER_USER, SIP_WS_PER_ADDRESS).
  tooManyWebphones: {
    'pt-BR': 'Há webphones demais abertos para este usuário ou endereço. Feche outras abas e tente de novo.',
    'en-US': 'Too many webphones are open for this user or address. Close other tabs and try again.',
    'es-ES': 'Hay demasiados webphones abiertos para este usuario o dirección. Cierre otras pestañas e inténtelo de nuevo.',
  },
  // GET /api/v1/report/recordings/{callId}/ (spec 001 §8 'Recording load fails').
  noRecording: {
    'pt-BR': 'Não há gravação desta chamada; verifique se a chamada foi atendida e gravada.',
    'en-US': 'This call has no recording; check that the call was answered and recorded.',
    'es-ES': 'Esta llamada no tiene grabación; compruebe que la llamada fue atendida y grabada.',
  },
  // A prompt or music upload needs the audio tools (server/media/convert.ts); bin/setup installs them.
  audioToolMissing: {
    'pt-BR': 'Não foi possível converter o áudio: instale {tool} no servidor (apt-get install sox libsox-fmt-mp3 lame opus-tools).',
    'en-US': 'The audio cannot be converted: install {tool} on the server (apt-get install sox libsox-fmt-mp3 lame opus-tools).',
    'es-ES': 'No se puede convertir el audio: instale {tool} en el servidor (apt-get install sox libsox-fmt-mp3 lame opus-tools).',
  },
  recordingEncoderMissing: {
    'pt-BR': 'Não foi possível converter a gravação: instale o lame ou o ffmpeg no servidor (apt-get install lame).',
    'en-US': 'The recording cannot be converted: install lame or ffmpeg on the server (apt-get install lame).',
    'es-ES': 'No se puede convertir la grabación: instale lame o ffmpeg en el servidor (apt-get install lame).',
  },
  // The webphone's call form and after-service (spec 000 §7 service actions, §8 toasts): `detail` of the answers.
  scheduledCallback: { 'pt-BR': 'Retorno agendado', 'en-US': 'Scheduled callback', 'es-ES': 'Devolución de llamada agendada' },
  callClassified: { 'pt-BR': 'Classificação salva.', 'en-US': 'Classification saved.', 'es-ES': 'Clasificación guardada.' },
  formSaved: { 'pt-BR': 'Formulário salvo.', 'en-US': 'Form saved.', 'es-ES': 'Formulario guardado.' },
  formAlreadySent: {
    'pt-BR': 'O formulário desta chamada já foi enviado.',
    'en-US': 'The form of this call was already sent.',
    'es-ES': 'El formulario de esta llamada ya fue enviado.',
  },
  afterService: { 'pt-BR': 'Pós-atendimento', 'en-US': 'After-service', 'es-ES': 'Posatención' },
  afterServiceFinished: { 'pt-BR': 'Pós-atendimento encerrado.', 'en-US': 'After-service ended.', 'es-ES': 'Posatención finalizada.' },
  // A team's wrap-up mode refuses the agent's end (contract/codes/after-service.ts afterServiceEndable).
  afterServiceNeedsClassification: {
    'pt-BR': 'Classifique a chamada para encerrar o pós-atendimento.',
    'en-US': 'Classify the call to end the after-service.',
    'es-ES': 'Clasifique la llamada para finalizar la posatención.',
  },
  afterServiceNoEarlyExit: {
    'pt-BR': 'O pós-atendimento desta equipe não pode ser encerrado antes do tempo.',
    'en-US': "This team's after-service cannot be ended before its time.",
    'es-ES': 'La posatención de este equipo no se puede finalizar antes de tiempo.',
  },
  noAfterService: {
    'pt-BR': 'Esta chamada não tem Pós-atendimento',
    'en-US': 'This call has no after-service',
    'es-ES': 'Esta llamada no tiene posatención',
  },
  transferCancelled: { 'pt-BR': 'Transferência cancelada.', 'en-US': 'Transfer cancelled.', 'es-ES': 'Transferencia cancelada.' },
  // Closing a chat (spec 001 §5, §8: 'Close with invalid classification or form'), server/chat/outcomes.ts.
  chatClassificationRequired: {
    'pt-BR': 'Classificação tem campos obrigatórios',
    'en-US': 'The classification has required fields',
    'es-ES': 'La clasificación tiene campos obligatorios',
  },
  chatFormRequired: {
    'pt-BR': 'Formulário tem campos obrigatórios',
    'en-US': 'The form has required fields',
    'es-ES': 'El formulario tiene campos obligatorios',
  },
  chatFormAlreadySent: {
    'pt-BR': 'O formulário deste chat já foi enviado.',
    'en-US': 'The form of this chat was already sent.',
    'es-ES': 'El formulario de este chat ya fue enviado.',
  },
  // The chat NPS survey (server/chat/nps.ts): what the customer reads when the survey names no text of its own.
  npsInvalidAnswer: {
    'pt-BR': 'Resposta inválida. Responda com uma nota de {min} a {max}.',
    'en-US': 'Invalid answer. Reply with a score from {min} to {max}.',
    'es-ES': 'Respuesta no válida. Responda con una nota de {min} a {max}.',
  },
  npsThanks: { 'pt-BR': 'Obrigado pela sua avaliação!', 'en-US': 'Thank you for your feedback!', 'es-ES': '¡Gracias por su evaluación!' },
  // Chat ACD (server/chat/acd/).
  chatAnswerFailed: {
    'pt-BR': 'Não foi possível atender a conversa ou ela foi transferida para outro operador.',
    'en-US': 'The conversation could not be answered or it was transferred to another agent.',
    'es-ES': 'No fue posible atender la conversación o fue transferida a otro operador.',
  },
  // The chat socket (server/realtime/sockets/chat.ts): hangup of a room already answered.
  chatHangupAnswered: {
    'pt-BR': 'Esta conversa já foi atendida: use Encerrar para finalizá-la.',
    'en-US': 'This conversation was already answered: use Close to end it.',
    'es-ES': 'Esta conversación ya fue atendida: use Cerrar para finalizarla.',
  },
  chatTransferFailed: {
    'pt-BR': 'Não foi possível fazer a transferência',
    'en-US': 'The transfer could not be made',
    'es-ES': 'No fue posible hacer la transferencia',
  },
  chatTransferred: { 'pt-BR': 'Conversa transferida.', 'en-US': 'Conversation transferred.', 'es-ES': 'Conversación transferida.' },
  chatTransferUnavailable: {
    'pt-BR': 'Não foi possível fazer a transferência: o agente não está conectado ao chat.',
    'en-US': 'The transfer could not be made: the agent is not signed in to chat.',
    'es-ES': 'No fue posible hacer la transferencia: el agente no está conectado al chat.',
  },
  userPaused: { 'pt-BR': 'Usuário esta pausado', 'en-US': 'The user is on a break', 'es-ES': 'El usuario está en pausa' },
  chatTransferredToAgent: {
    'pt-BR': 'Conversa transferida para {name}',
    'en-US': 'Conversation transferred to {name}',
    'es-ES': 'Conversación transferida a {name}',
  },
  chatTransferredToQueue: {
    'pt-BR': 'Conversa transferida para a fila {queue}',
    'en-US': 'Conversation transferred to the queue {queue}',
    'es-ES': 'Conversación transferida a la cola {queue}',
  },
  // The website chat widget (server/channels/webchat/).
  visitorSessionInvalid: {
    'pt-BR': 'Sessão do visitante inválida ou expirada.',
    'en-US': 'The visitor session is invalid or has expired.',
    'es-ES': 'La sesión del visitante no es válida o ha caducado.',
  },
  visitorSessionOtherChannel: {
    'pt-BR': 'Esta sessão pertence a outro canal.',
    'en-US': 'This session belongs to another channel.',
    'es-ES': 'Esta sesión pertenece a otro canal.',
  },
  tooManyRequests: {
    'pt-BR': 'Muitas requisições. Tente novamente em {n} segundos.',
    'en-US': 'Too many requests. Try again in {n} seconds.',
    'es-ES': 'Demasiadas solicitudes. Inténtelo de nuevo en {n} segundos.',
  },
  unsupportedFile: {
    'pt-BR': 'Tipo de arquivo não permitido (imagens, PDF, áudio MP3/OGG/M4A ou vídeo MP4).',
    'en-US': 'File type not allowed (images, PDF, MP3/OGG/M4A audio or MP4 video).',
    'es-ES': 'Tipo de archivo no permitido (imágenes, PDF, audio MP3/OGG/M4A o vídeo MP4).',
  },
  // Chat engine (server/chat/, spec 001 §4 chat states, §8): the detail of the send-message and attachment answers.
  chatExpired: {
    'pt-BR': 'Chat expirado envie um template para retornar o contato',
    'en-US': 'Chat expired: send a template to get back in touch',
    'es-ES': 'Chat expirado: envíe una plantilla para retomar el contacto',
  },
  chatEnded: { 'pt-BR': 'Este chat foi encerrado', 'en-US': 'This chat has ended', 'es-ES': 'Este chat ha finalizado' },
  chatAwaitingTemplate: {
    'pt-BR': 'Aguardando resposta do template pelo cliente',
    'en-US': 'Waiting for the customer to answer the template',
    'es-ES': 'Esperando la respuesta del cliente a la plantilla',
  },
  chatNotYours: {
    'pt-BR': 'Este chat não está com você.',
    'en-US': 'This chat is not assigned to you.',
    'es-ES': 'Este chat no está asignado a usted.',
  },
  chatRoomBusy: {
    'pt-BR': 'Este contato já está em atendimento com outro operador.',
    'en-US': 'This contact is already being served by another agent.',
    'es-ES': 'Este contacto ya está siendo atendido por otro operador.',
  },
  chatNotEnded: {
    'pt-BR': 'Somente chats encerrados podem ser arquivados.',
    'en-US': 'Only ended chats can be archived.',
    'es-ES': 'Solo los chats finalizados se pueden archivar.',
  },
  chatNotFailed: {
    'pt-BR': 'Somente mensagens não enviadas podem ser reenviadas.',
    'en-US': 'Only messages that were not sent can be resent.',
    'es-ES': 'Solo se pueden reenviar los mensajes no enviados.',
  },
  chatAttachmentRefused: {
    'pt-BR': 'Tipo de arquivo não permitido ou arquivo grande demais.',
    'en-US': 'File type not allowed or file too large.',
    'es-ES': 'Tipo de archivo no permitido o archivo demasiado grande.',
  },
  chatAttachmentConvert: {
    'pt-BR': 'Não foi possível converter o áudio: instale opus-tools e lame no servidor.',
    'en-US': 'The audio cannot be converted: install opus-tools and lame on the server.',
    'es-ES': 'No se puede convertir el audio: instale opus-tools y lame en el servidor.',
  },
  chatVoiceConvert: {
    'pt-BR': 'Não foi possível converter a gravação: instale mkvtoolnix no servidor.',
    'en-US': 'The recording cannot be converted: install mkvtoolnix on the server.',
    'es-ES': 'No se puede convertir la grabación: instale mkvtoolnix en el servidor.',
  },
} as const satisfies Record<string, Record<Locale, string>>

export type MessageKey = keyof typeof MESSAGES

/** The text of a message in a language, with `{name}` placeholders filled. */
export function message(key: MessageKey, lang?: string, params: Record<string, string | number> = {}): string {
  const texts: Record<string, string> = MESSAGES[key]
  const text = texts[lang ?? DEFAULT_LOCALE] ?? texts[DEFAULT_LOCALE]!
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`))
}
