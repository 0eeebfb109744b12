import { fromPromise } from 'xstate'
import type { AnyActorRef, SnapshotFrom } from 'xstate'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { previewDialerMachine } from '../../../machines/previewDialer.machine.ts'
import type { PreviewDialRequest, PreviewDialResult } from '../../../machines/previewDialer.machine.ts'
import type { DialOrigin, webphoneMachine } from '../../../machines/webphone.machine.ts'
import { CALL_HEADERS } from '../../../machines/webphoneTypes.ts'
import { defineSlice, followAll } from '../slice.ts'
import type { DialerEffects } from '../types.ts'
import { availabilityLinks } from './availability.ts'

// The preview dialer (issue 18 item 2): a preview campaign's next lead offered to the agent while this tab serves, the
// phone is registered and the agent is not_inuse; dialled through the webphone with the lead's headers (spec 000 §7).

type Webphone = Pick<AnyActorRef, 'send' | 'getSnapshot'>

/** The webphone dials the lead (origin mailingClient: type 18) and answers its call id; a refusal rejects. */
export function dialLead(webphone: Webphone, request: PreviewDialRequest): PreviewDialResult {
  const calls = () => (webphone.getSnapshot() as SnapshotFrom<typeof webphoneMachine>).context.calls
  const known = new Set(calls().map((call) => call.id))
  const origin: DialOrigin = 'mailingClient'
  const { lead } = request
  const headers: Record<string, string> = {
    [CALL_HEADERS.mailingClient]: String(lead.mailing_client),
    [CALL_HEADERS.campaign]: String(lead.campaign),
    [CALL_HEADERS.dialer]: String(lead.campaign),
    [CALL_HEADERS.mailing]: String(lead.mailing),
    ...(lead.client !== null ? { [CALL_HEADERS.client]: String(lead.client) } : {}),
  }
  webphone.send({ type: 'DIAL', number: request.phone, origin, headers })
  const started = calls().find((call) => !known.has(call.id))
  if (!started) throw new Error(`lead ${lead.mailing_client}: the webphone did not dial ${request.phone}`)
  return { callId: started.id }
}

export const previewDialerSlice = defineSlice('previewDialer', ({ options, effects, actor }) => {
  const dialer = () => actor('previewDialer')
  const requests = () => effects.dialer as DialerEffects
  return {
    logic: previewDialerMachine.provide({
      actors: {
        fetchLead: fromPromise(() => requests().previewLead()),
        makeCall: fromPromise(({ input }: { input: { id: number } }) => requests().makeCall(input.id)),
        release: fromPromise(({ input }: { input: { id: number } }) => requests().release(input.id)),
        dial: fromPromise(async ({ input, system }: { input: PreviewDialRequest; system: AnyActorRef['system'] }) => dialLead(system.get('webphone'), input)),
      },
      actions: { notify: (_, notice: { message: string; severity: 'error' | 'warning' | 'info' }) => effects.notify(notice) },
    }),
    input: () => ({ enabled: !!effects.webphone && !!effects.dialer && has(options.roles, PERMISSIONS.viewSoftphone) }),
    links: [
      followAll(
        ['previewDialer', 'webphone'],
        (get) => {
          const callId = (get('previewDialer').getSnapshot() as SnapshotFrom<typeof previewDialerMachine>).context.callId
          if (!callId) return null
          const phone = (get('webphone').getSnapshot() as SnapshotFrom<typeof webphoneMachine>).context
          return phone.calls.some((call) => call.id === callId) ? null : callId
        },
        (callId) => {
          if (callId) dialer().send({ type: 'CALL_ENDED', callId })
        },
      ),
      ...availabilityLinks(dialer),
    ],
  }
})
