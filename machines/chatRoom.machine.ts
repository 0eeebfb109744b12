import { setup, assign, enqueueActions, fromPromise } from 'xstate'
import { missingAction } from './effects.ts'
import type { ChatClientFrame } from './chatSocket.machine.ts'
import type { Notice } from './types.ts'

// Chat room — one per room the chat socket lists for the agent (spec 001 §4 "Chat lifecycle in the console", "Room
// viewer and scrolling", "Other" (sync_step); §9 timers). A new room is decided at once:
//   already ended → ended; already answered by the agent → answered;
//   the agent in a webchat pause that allows neither this kind (incoming, or outgoing 10/11/31) → hungUp;
//   the team's chat_limit_per_user reached by the other open chats → hungUp;
//   auto-answer (team enable_webchat_auto_answer, or chat_type 10 assigned to the agent) → answering;
//   queueable → ringing (the ring sound, the desktop notification 'Novo Chat' with Atender / Desligar for 2.5 s);
//   otherwise → hungUp.
// answering sends `answer` and waits for the server; answered sends sync_step 500 ms after the last message change
// and keeps the 'unread messages' bar (shown while the agent is scrolled up under a client message; retried every
// 10 s); ended counts down chat_timeout_to_remove_inactive seconds (default 15), ringing every second with the
// seconds left, then removed: the caller clears its messages, forms and timers and records it as finished when it
// had been answered (finished rooms are never added again: `shouldAddRoom`). A room the server takes away (it rang
// out, another agent took it, it was transferred or finished) is DROPPED: removed at once, nothing sent.
// Closing (spec 001 §5, issue 15): the Form and Classification tabs tell the room its OUTCOME; CLOSE is refused with
// 'Classificação tem campos obrigatórios' while a required classification is missing and 'Formulário tem campos
// obrigatórios' while a required form is invalid (unless forced); a valid form not sent yet is saved first (never
// resent); then the close request runs and the room waits for the server's end (ENDED). A refused request says why.
// Typing (not in the spec; ours, like WhatsApp Web and Chatwoot): while answered, the customer's `typing` frames
// (webchat only: WhatsApp's Cloud API has none) show 'digitando…' under the room's title until CLIENT_TYPING_MS pass
// without another or the customer's message arrives; the agent's keystrokes (TYPED) send `typing` at most once every
// AGENT_TYPING_EVERY_MS, which the widget shows to the visitor (it hides it after 7 s of silence or the agent's message).

export const NEW_CHAT_NOTIFICATION_MS = 2500
export const SYNC_STEP_DELAY_MS = 500
export const UNREAD_RETRY_MS = 10_000
export const INACTIVITY_TICK_MS = 1000
/** The customer's 'digitando…' stays this long after their last typing frame (the widget sends one every 3 s). */
export const CLIENT_TYPING_MS = 5000
/** The agent's `typing` frames, at most one per this while they type. */
export const AGENT_TYPING_EVERY_MS = 3000
export const DEFAULT_REMOVE_INACTIVE_SECONDS = 15
export const NEW_CHAT_TITLE = 'Novo Chat'
export const NEW_CHAT_ACTIONS = ['Atender', 'Desligar'] as const
export const ANSWER_FAILED_NOTICE = 'Não foi possível atender a conversa ou ela foi transferida para outro operador.'
export const OUTGOING_CHAT_TYPES: readonly number[] = [10, 11, 31]
export const CLASSIFICATION_REQUIRED_NOTICE = 'Classificação tem campos obrigatórios'
export const FORM_REQUIRED_NOTICE = 'Formulário tem campos obrigatórios'

/** What the room's Form and Classification tabs know (GET chats/{id}/forms/ and what the agent filled in). */
export type ChatOutcome = {
  classificationRequired: boolean
  classified: boolean
  hasForm: boolean
  /** The form has required fields: an invalid one blocks the close; an optional invalid one is skipped. */
  formRequired: boolean
  formValid: boolean
  formSent: boolean
}
export const NO_OUTCOME: ChatOutcome = {
  classificationRequired: false,
  classified: false,
  hasForm: false,
  formRequired: false,
  formValid: true,
  formSent: false,
}

export const classificationMissing = (o: ChatOutcome) => o.classificationRequired && !o.classified
export const formMissing = (o: ChatOutcome) => o.hasForm && o.formRequired && !o.formSent && !o.formValid
export const formToSave = (o: ChatOutcome) => o.hasForm && !o.formSent && o.formValid

/** The chat flags of the running pause (spec 001 §3 "Pause"); null when no pause with the webchat enabled runs. */
export type ChatPause = { allowIncoming: boolean; allowOutgoing: boolean }

export type ChatRoomInput = {
  stepId: number
  chatType: number
  /** The room is assigned to this agent (room.user.id). */
  assignedToMe: boolean
  /** Already answered by this agent (a re-sync, a reload). */
  answered?: boolean
  /** Already ended (end set). */
  ended?: boolean
  autoAnswer?: boolean
  /** Team chat_timeout_to_remove_inactive, in seconds. */
  removeAfterSeconds?: number | null
  pause?: ChatPause | null
  /** Open (not ended) chats of the agent besides this one. */
  openChats?: number
  chatLimit?: number | null
  /** The server can keep the room in the queue for the agent. */
  queueable?: boolean
}

export type ChatRoomContext = {
  stepId: number
  chatType: number
  assignedToMe: boolean
  autoAnswer: boolean
  removeAfterSeconds: number
  pause: ChatPause | null
  openChats: number
  chatLimit: number | null
  queueable: boolean
  startAnswered: boolean
  startEnded: boolean
  /** The agent answered it (recorded as finished on removal). */
  wasAnswered: boolean
  /** Seconds left before an ended room is removed. */
  secondsLeft: number
  outcome: ChatOutcome
  /** The close in progress skips the checks (a forced close). */
  force: boolean
}

export type ChatRoomEvent =
  | { type: 'ANSWER' } // Atender (card, notification or list)
  | { type: 'HANGUP' } // Desligar
  | { type: 'ANSWERED' } // the server assigned it to the agent
  | { type: 'ANSWER_FAILED' } // the answer failed or another agent took it
  | { type: 'ENDED' } // end set (closed by anyone)
  | { type: 'REMOVE' } // the agent dismisses an ended room before the countdown ends
  | { type: 'DROPPED' } // the server took the room away (rang out, taken, transferred, finished): no hangup, no toast
  | { type: 'MESSAGES_CHANGED' }
  | { type: 'CLIENT_MESSAGE_UNSEEN' } // the last message is the client's and the agent is scrolled up
  | { type: 'SCROLLED_TO_BOTTOM' }
  | ({ type: 'OUTCOME' } & Partial<ChatOutcome>) // the Form and Classification tabs
  | { type: 'CLOSE'; force?: boolean } // Encerrar, confirmed
  | { type: 'CLIENT_TYPING' } // the customer types (a `typing` frame from the widget)
  | { type: 'CLIENT_MESSAGE' } // the customer's message arrived (their typing is over)
  | { type: 'TYPED' } // the agent typed in the room's input

/** What a room writes: chat-socket frames, and sync_step, which travels on the service socket (contract/realtime/service-socket.ts). */
export type RoomFrame = ChatClientFrame | { action: 'sync_step'; step_id: number }

export type NewChatNotification = { stepId: number; title: string; actions: readonly string[] }
export type RoomRemoved = { stepId: number; answered: boolean }

export function isOutgoingChat(chatType: number): boolean {
  return OUTGOING_CHAT_TYPES.includes(chatType)
}

/** A webchat pause lets the room in when it allows its kind (spec 001 §4). */
export function pauseAllows(pause: ChatPause | null, chatType: number): boolean {
  if (!pause) return true
  return isOutgoingChat(chatType) ? pause.allowOutgoing : pause.allowIncoming
}

export function overLimit(openChats: number, chatLimit: number | null): boolean {
  return !!chatLimit && chatLimit > 0 && openChats >= chatLimit
}

export function autoAnswers(context: Pick<ChatRoomContext, 'autoAnswer' | 'chatType' | 'assignedToMe'>): boolean {
  return context.autoAnswer || (context.chatType === 10 && context.assignedToMe)
}

/** Finished rooms are never added again (spec 001 §4). */
export function shouldAddRoom(finished: ReadonlySet<number>, stepId: number): boolean {
  return !finished.has(stepId)
}

export function removeAfterSeconds(value: number | null | undefined): number {
  return value && value > 0 ? Math.round(value) : DEFAULT_REMOVE_INACTIVE_SECONDS
}

/** The server's detail (or the error's text) of a refused save or close. */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export const chatRoomMachine = setup({
  types: {
    context: {} as ChatRoomContext,
    events: {} as ChatRoomEvent,
    input: {} as ChatRoomInput,
  },
  actions: {
    sendSocket: missingAction<RoomFrame>('chatRoom', 'sendSocket'),
    startRing: missingAction('chatRoom', 'startRing'),
    stopRing: missingAction('chatRoom', 'stopRing'),
    showNotification: missingAction<NewChatNotification>('chatRoom', 'showNotification'),
    closeNotification: missingAction<{ stepId: number }>('chatRoom', 'closeNotification'),
    /** The inactivity ring with the seconds left. */
    ringInactivity: missingAction<{ stepId: number; secondsLeft: number }>('chatRoom', 'ringInactivity'),
    notify: missingAction<Notice>('chatRoom', 'notify'),
    /** Asks the view to scroll to the unread messages again. */
    retryUnread: missingAction<{ stepId: number }>('chatRoom', 'retryUnread'),
    /** The customer's 'digitando…' under the room's title, on or off. */
    showTyping: missingAction<{ stepId: number; typing: boolean }>('chatRoom', 'showTyping'),
    removed: missingAction<RoomRemoved>('chatRoom', 'removed'),
  },
  actors: {
    /** tab-form ?type=form&step_type=chat with the answers the Form tab holds. */
    saveForm: fromPromise<unknown, { stepId: number }>(() => Promise.reject(new Error('chatRoom: saveForm not provided'))),
    /** POST close/{uid}/ (force when forced); rejects with the server's detail. */
    closeChat: fromPromise<unknown, { stepId: number; force: boolean }>(() => Promise.reject(new Error('chatRoom: closeChat not provided'))),
  },
  delays: {
    notification: NEW_CHAT_NOTIFICATION_MS,
    syncStep: SYNC_STEP_DELAY_MS,
    unreadRetry: UNREAD_RETRY_MS,
    tick: INACTIVITY_TICK_MS,
    clientTyping: CLIENT_TYPING_MS,
    agentTyping: AGENT_TYPING_EVERY_MS,
  },
  guards: {
    startsEnded: ({ context }) => context.startEnded,
    startsAnswered: ({ context }) => context.startAnswered,
    pauseForbids: ({ context }) => !pauseAllows(context.pause, context.chatType),
    overLimit: ({ context }) => overLimit(context.openChats, context.chatLimit),
    autoAnswers: ({ context }) => autoAnswers(context),
    queueable: ({ context }) => context.queueable,
    moreSeconds: ({ context }) => context.secondsLeft > 1,
    forced: ({ event }) => event.type === 'CLOSE' && event.force === true,
    classificationMissing: ({ context }) => classificationMissing(context.outcome),
    formMissing: ({ context }) => formMissing(context.outcome),
    formToSave: ({ context }) => formToSave(context.outcome),
  },
}).createMachine({
  id: 'chatRoom',
  context: ({ input }) => ({
    stepId: input.stepId,
    chatType: input.chatType,
    assignedToMe: input.assignedToMe,
    autoAnswer: input.autoAnswer ?? false,
    removeAfterSeconds: removeAfterSeconds(input.removeAfterSeconds),
    pause: input.pause ?? null,
    openChats: input.openChats ?? 0,
    chatLimit: input.chatLimit ?? null,
    queueable: input.queueable ?? true,
    startAnswered: input.answered ?? false,
    startEnded: input.ended ?? false,
    wasAnswered: input.answered ?? false,
    secondsLeft: removeAfterSeconds(input.removeAfterSeconds),
    outcome: NO_OUTCOME,
    force: false,
  }),
  initial: 'new',
  on: { DROPPED: '.removed' },
  states: {
    new: {
      always: [
        { guard: 'startsEnded', target: 'ended' },
        { guard: 'startsAnswered', target: 'answered' },
        { guard: 'pauseForbids', target: 'hungUp' },
        { guard: 'overLimit', target: 'hungUp' },
        { guard: 'autoAnswers', target: 'answering' },
        { guard: 'queueable', target: 'ringing' },
        { target: 'hungUp' },
      ],
    },
    ringing: {
      entry: [
        'startRing',
        { type: 'showNotification', params: ({ context }) => ({ stepId: context.stepId, title: NEW_CHAT_TITLE, actions: NEW_CHAT_ACTIONS }) },
      ],
      exit: 'stopRing',
      initial: 'notifying',
      states: {
        notifying: {
          after: { notification: 'queued' },
          exit: { type: 'closeNotification', params: ({ context }) => ({ stepId: context.stepId }) },
        },
        queued: {},
      },
      on: {
        ANSWER: 'answering',
        HANGUP: 'hungUp',
        ANSWERED: 'answered',
        ANSWER_FAILED: 'failed',
        ENDED: 'ended',
      },
    },
    answering: {
      entry: { type: 'sendSocket', params: ({ context }) => ({ action: 'answer', step_id: context.stepId }) },
      on: { ANSWERED: 'answered', ANSWER_FAILED: 'failed', ENDED: 'ended' },
    },
    answered: {
      entry: assign({ wasAnswered: true }),
      type: 'parallel',
      on: {
        ENDED: 'ended',
        OUTCOME: {
          actions: assign({
            outcome: ({ context, event }) => {
              const { type: _type, ...patch } = event as Extract<ChatRoomEvent, { type: 'OUTCOME' }>
              return { ...context.outcome, ...patch }
            },
          }),
        },
      },
      states: {
        closing: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                CLOSE: [
                  { guard: 'forced', target: 'requesting', actions: assign({ force: true }) },
                  { guard: 'classificationMissing', actions: { type: 'notify', params: { message: CLASSIFICATION_REQUIRED_NOTICE, severity: 'error' } } },
                  { guard: 'formMissing', actions: { type: 'notify', params: { message: FORM_REQUIRED_NOTICE, severity: 'error' } } },
                  { guard: 'formToSave', target: 'savingForm', actions: assign({ force: false }) },
                  { target: 'requesting', actions: assign({ force: false }) },
                ],
              },
            },
            savingForm: {
              invoke: {
                id: 'saveForm',
                src: 'saveForm',
                input: ({ context }) => ({ stepId: context.stepId }),
                onDone: { target: 'requesting', actions: assign({ outcome: ({ context }) => ({ ...context.outcome, formSent: true }) }) },
                onError: {
                  target: 'idle',
                  actions: { type: 'notify', params: ({ event }) => ({ message: errorText(event.error), severity: 'error' as const }) },
                },
              },
            },
            requesting: {
              invoke: {
                id: 'closeChat',
                src: 'closeChat',
                input: ({ context }) => ({ stepId: context.stepId, force: context.force }),
                onDone: 'requested',
                onError: {
                  target: 'idle',
                  actions: { type: 'notify', params: ({ event }) => ({ message: errorText(event.error), severity: 'error' as const }) },
                },
              },
            },
            // The server ended it; its end (ENDED) arrives on the chat socket.
            requested: {},
          },
        },
        sync: {
          initial: 'idle',
          states: {
            idle: { on: { MESSAGES_CHANGED: 'pending' } },
            // Every change restarts the wait: one sync_step 500 ms after the last.
            pending: {
              on: { MESSAGES_CHANGED: { target: 'pending', reenter: true } },
              after: {
                syncStep: { target: 'idle', actions: { type: 'sendSocket', params: ({ context }) => ({ action: 'sync_step', step_id: context.stepId }) } },
              },
            },
          },
        },
        clientTyping: {
          initial: 'quiet',
          states: {
            quiet: { on: { CLIENT_TYPING: 'typing' } },
            // Every typing frame restarts the wait; their message or the end of the answered room hides it.
            typing: {
              entry: { type: 'showTyping', params: ({ context }) => ({ stepId: context.stepId, typing: true }) },
              exit: { type: 'showTyping', params: ({ context }) => ({ stepId: context.stepId, typing: false }) },
              on: { CLIENT_TYPING: '.waiting', CLIENT_MESSAGE: 'quiet' },
              initial: 'waiting',
              states: { waiting: { after: { clientTyping: '#chatRoom.answered.clientTyping.quiet' } } },
            },
          },
        },
        agentTyping: {
          initial: 'quiet',
          states: {
            quiet: {
              on: {
                TYPED: { target: 'told', actions: { type: 'sendSocket', params: ({ context }) => ({ action: 'typing', step_id: context.stepId }) } },
              },
            },
            // Told the visitor; keystrokes in the next AGENT_TYPING_EVERY_MS send nothing.
            told: { after: { agentTyping: 'quiet' } },
          },
        },
        unreadBar: {
          initial: 'hidden',
          states: {
            hidden: { on: { CLIENT_MESSAGE_UNSEEN: 'shown' } },
            shown: {
              on: { SCROLLED_TO_BOTTOM: 'hidden' },
              after: {
                unreadRetry: { target: 'shown', reenter: true, actions: { type: 'retryUnread', params: ({ context }) => ({ stepId: context.stepId }) } },
              },
            },
          },
        },
      },
    },
    ended: {
      entry: [
        assign({ secondsLeft: ({ context }) => context.removeAfterSeconds }),
        { type: 'ringInactivity', params: ({ context }) => ({ stepId: context.stepId, secondsLeft: context.removeAfterSeconds }) },
      ],
      on: { REMOVE: 'removed' },
      initial: 'counting',
      states: {
        counting: {
          after: {
            tick: [
              {
                guard: 'moreSeconds',
                target: 'counting',
                reenter: true,
                actions: enqueueActions(({ context, enqueue }) => {
                  const secondsLeft = context.secondsLeft - 1
                  enqueue.assign({ secondsLeft })
                  enqueue({ type: 'ringInactivity', params: { stepId: context.stepId, secondsLeft } })
                }),
              },
              { target: '#chatRoom.removed' },
            ],
          },
        },
      },
    },
    failed: {
      entry: { type: 'notify', params: { message: ANSWER_FAILED_NOTICE, severity: 'error' } },
      always: 'removed',
    },
    hungUp: {
      entry: { type: 'sendSocket', params: ({ context }) => ({ action: 'hangup', step_id: context.stepId }) },
      always: 'removed',
    },
    removed: {
      type: 'final',
      entry: { type: 'removed', params: ({ context }) => ({ stepId: context.stepId, answered: context.wasAnswered }) },
    },
  },
})
