import type { AnyStateMachine } from 'xstate'
import { activityDialerMachine } from './activityDialer.machine.ts'
import { agentStatusMachine } from './agentStatus.machine.ts'
import { audioPermissionMachine } from './audioPermission.machine.ts'
import { callMachine } from './call.machine.ts'
import { chatRoomMachine } from './chatRoom.machine.ts'
import { chatRoomsMachine } from './chatRooms.machine.ts'
import { chatSearchMachine } from './chatSearch.machine.ts'
import { chatSocketMachine } from './chatSocket.machine.ts'
import { chatViewerMachine } from './chatViewer.machine.ts'
import { conferenceMachine } from './conference.machine.ts'
import { pauseMachine } from './pause.machine.ts'
import { previewDialerMachine } from './previewDialer.machine.ts'
import { screenLockMachine } from './screenLock.machine.ts'
import { serviceSocketMachine } from './serviceSocket.machine.ts'
import { tabOwnershipMachine } from './tabOwnership.machine.ts'
import { telephonyChannelMachine } from './telephonyChannel.machine.ts'
import { transferMachine } from './transfer.machine.ts'
import { webchatStatusMachine } from './webchatStatus.machine.ts'
import { wallboardMachine } from './wallboard.machine.ts'
import { webphoneMachine } from './webphone.machine.ts'

// Every machine of the app, for the machine visualizer route (and anyone who wants the list). Add new machines here.

export type MachineEntry = {
  /** Stable key, also the machine's id. */
  name: string
  /** One line for designers and QA: what the machine models. */
  description: string
  /** Where the behaviour is specified (seeds/000_… is "spec 000", seeds/001_… is "spec 001"). */
  spec: readonly string[]
  machine: AnyStateMachine
}

export const MACHINES: readonly MachineEntry[] = [
  {
    name: 'tabOwnership',
    description: "Which browser tab serves calls and chats; 'Atender aqui' takes over, the tab that loses reloads after 3 s.",
    spec: ['000 §4 Shared service ownership', '001 §4 Service ownership (shared tab)', '000 §9', '001 §9'],
    machine: tabOwnershipMachine,
  },
  {
    name: 'serviceSocket',
    description: 'The status feed on /ws/business/: login, ping every 5 s, pauses and activities while serving, back-off reconnect, remote logout.',
    spec: ['000 §4 Logout', '000 §7 Websocket (status feed)', '001 §4 Service ownership', '001 §7 Shared service socket', '000 §9'],
    machine: serviceSocketMachine,
  },
  {
    name: 'pause',
    description: "The agent's break: pending until available, start, swap ('Trocar'), stop, exceeded justification, supervisor pauses.",
    spec: ['000 §2 Pause widget', '000 §3 Pause (break)', '000 §4 Pause (break)', '000 §7 Agent channel and pause', '000 §8'],
    machine: pauseMachine,
  },
  {
    name: 'screenLock',
    description: 'The full-screen lock set by a pause or by hand, lifted only by a validated password.',
    spec: ['000 §2 Layouts (lock dialog)', '000 §4 Screen lock', '000 §5 Unlock', '000 §7 validate-password'],
    machine: screenLockMachine,
  },
  {
    name: 'agentStatus',
    description: 'The webphone aggregate status (not_inuse … do_not_disturb) sent on the status feed and to the parent window.',
    spec: ['000 §4 Webphone state', '000 §7 Websocket (status feed)', '001 §7 Embedding'],
    machine: agentStatusMachine,
  },
  {
    name: 'webchatStatus',
    description: 'The webchat status: paused, busy by the chat limit, unavailable by registration, otherwise not_inuse.',
    spec: ['001 §4 Webchat status'],
    machine: webchatStatusMachine,
  },
  {
    name: 'webphone',
    description:
      'The webphone panel and SIP registration: off, other tab, missing permissions, starting, ready; auto-reject, dial refusals, transfers and conferences.',
    spec: ['000 §2 Webphone panel', '000 §4 Registration and endpoint states', '000 §4 Webphone state', '000 §5', '000 §7 Calling headers', '000 §8', '000 §9'],
    machine: webphoneMachine,
  },
  {
    name: 'telephonyChannel',
    description: 'The telephony channel sign-in: signed in (by the user or the auto login) once the webphone runs, out when the agent stops it.',
    spec: ['000 §3 login_channel_telephony', '000 §7 Agent channel'],
    machine: telephonyChannelMachine,
  },
  {
    name: 'activityDialer',
    description: 'Scheduled activities dialled by the webphone while the agent is available: attempt, dial, done when answered, 60 s wait after a failure.',
    spec: ['000 §2 Activity and report screens', '000 §3 Activity', '000 §4 Webphone state', '000 §7 Websocket (status feed)', '000 §9'],
    machine: activityDialerMachine,
  },
  {
    name: 'previewDialer',
    description: "A preview campaign's next lead offered to the available agent: call it (or the countdown does), skip it; its call's end brings the next.",
    spec: ['000 §4 Call types (18 preview)', '000 §7 make-call-to-mailing-client', 'issue 18 item 2'],
    machine: previewDialerMachine,
  },
  {
    name: 'audioPermission',
    description:
      "Whether the browser lets the console play audio: a refused playback (at start or later, a call's audio) opens 'Permitir áudio', whose click plays it again.",
    spec: ['000 §2 Layouts (audio authorisation dialog)', '000 §8 Softphone messages (audio block)', '000 §9 (audio dialog width)'],
    machine: audioPermissionMachine,
  },
  {
    name: 'call',
    description: 'One call: ringing, inuse, onhold, onmute, ended; webphone_answer 2 s after the answer, metadata polling, the 3 s hangup delay, DTMF timing.',
    spec: ['000 §3 Call session', '000 §4 Webphone state (lifecycle)', '000 §5 DTMF', '000 §9'],
    machine: callMachine,
  },
  {
    name: 'transfer',
    description: 'A blind, attended or pendulum transfer: REFER or dial, confirm (REFER with Replaces) or cancel, cancelled when the target hangs up.',
    spec: ['000 §3 Transfer in progress', '000 §4 Webphone state (transfer)', '000 §7 transfer/cancel', '000 §8'],
    machine: transferMachine,
  },
  {
    name: 'conference',
    description: "A local conference of several calls mixed in the agent's browser; it ends when fewer than two calls are left.",
    spec: ['000 §2 Webphone panel (conference)', '000 §4 Webphone state (conference)'],
    machine: conferenceMachine,
  },
  {
    name: 'chatSocket',
    description: 'The chat feed on /ws/chat/: check_rooms on open, ping every 5 s, back-off reconnect and re-sync by cursor, known frames forwarded.',
    spec: ['001 §7 Chat socket', '001 §9 Timers'],
    machine: chatSocketMachine,
  },
  {
    name: 'chatRoom',
    description:
      "One chat room: hung up, auto-answered or ringing in the queue ('Novo Chat' for 2.5 s), answered (sync_step after 500 ms, unread bar retry 10 s), ended countdown, removed.",
    spec: ['001 §4 Chat lifecycle in the console', '001 §4 Room viewer and scrolling', '001 §4 Other', '001 §9 Timers'],
    machine: chatRoomMachine,
  },
  {
    name: 'chatRooms',
    description: "The agent's chat rooms: one chat room actor per room the chat socket lists; answered rooms removed are finished and never added again.",
    spec: ['001 §4 Chat lifecycle in the console'],
    machine: chatRoomsMachine,
  },
  {
    name: 'chatViewer',
    description: 'The chat room viewer: loads the room and polls it every 5 s until the chat ends; refresh loads it again.',
    spec: ['001 §2 Chat room viewer', '001 §4 Room viewer and scrolling', '001 §9 Timers'],
    machine: chatViewerMachine,
  },
  {
    name: 'wallboard',
    description:
      "The supervisor wallboard's subscription on the service socket: subscribes while the page is shown and the socket is up, applies deltas on their revision, asks again after a gap or a reconnect.",
    spec: ['000 §2 /dashboards', '000 §6 sites.view_dashboard_supervisor'],
    machine: wallboardMachine,
  },
  {
    name: 'chatSearch',
    description: 'The chat search box: the query is committed 500 ms after the last key; clearing commits at once.',
    spec: ['001 §7 search (debounced 500 ms)', '001 §9 List debounce'],
    machine: chatSearchMachine,
  },
]
