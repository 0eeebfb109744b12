import type { FastifyInstance } from 'fastify'
import type { AfterServiceStartResponse, TabFormPostResponse, TabFormResponse } from '../../../contract/api/service-actions.ts'
import { CallUidParam, ClassificationBody, FormValuesBody, SERVICE_ACTION_PATHS, TabFormQuery } from '../../../contract/api/service-actions.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { detailError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import { agentRoom, classifyChat, sendChatForm } from '../../chat/outcomes.ts'
import { classify, hangupAfterService, sendForm, startAfterService, tabForm } from './call-service.ts'

// Spec 000 §7 "Service actions": the webphone's call form (metadata, classification, form, after-service). All of
// them need the webphone (sites.view_softphone) and reach only the caller's own steps (call-service.ts).

export async function serviceActionRoutes(app: FastifyInstance): Promise<void> {
  const config = { permission: PERMISSIONS.viewSoftphone }

  app.get(SERVICE_ACTION_PATHS.tabForm, { config }, async (request): Promise<TabFormResponse> => {
    const { uid } = parseInput(CallUidParam, request.params, request.lang)
    return tabForm(app.deps.db, request.auth!.user, uid, request.lang)
  })

  // POST also classifies a chat and sends its form (step_type=chat, spec 001 §7): a chat agent needs sites.view_chat
  // for that, a call needs the webphone.
  const either = { permission: [PERMISSIONS.viewSoftphone, PERMISSIONS.viewChat] }
  app.post(SERVICE_ACTION_PATHS.tabForm, { config: either }, async (request): Promise<TabFormPostResponse> => {
    const { uid } = parseInput(CallUidParam, request.params, request.lang)
    const query = parseInput(TabFormQuery, request.query, request.lang)
    const user = request.auth!.user
    const chat = query.type !== 'hangup' && query.step_type === 'chat'
    if (!request.auth!.roles.includes(chat ? PERMISSIONS.viewChat : PERMISSIONS.viewSoftphone)) throw detailError(403, 'permissionDenied', request.lang)
    if (chat) {
      const room = await agentRoom(app.deps.db, user, uid, request.lang)
      return query.type === 'classification'
        ? classifyChat(app.deps.db, user, room, parseInput(ClassificationBody, request.body ?? {}, request.lang), request.lang)
        : sendChatForm(app.deps.db, user, room, query.form_id, parseInput(FormValuesBody, request.body ?? {}, request.lang), request.lang)
    }
    switch (query.type) {
      case 'classification':
        return classify(app.deps.db, user, uid, parseInput(ClassificationBody, request.body ?? {}, request.lang), request.lang)
      case 'form':
        return sendForm(app.deps.db, user, uid, query.form_id, parseInput(FormValuesBody, request.body ?? {}, request.lang), request.lang)
      case 'hangup':
        return hangupAfterService(app.deps.db, user, uid, query, request.lang)
    }
  })

  app.post(SERVICE_ACTION_PATHS.afterServiceStart, { config }, async (request): Promise<AfterServiceStartResponse> => {
    const { uid } = parseInput(CallUidParam, request.params, request.lang)
    return startAfterService(app.deps.db, request.auth!.user, uid, request.lang)
  })
}
