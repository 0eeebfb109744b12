import { lazy } from 'react'
import { registerFormAside } from '../../entities/form/asides.ts'

// What the settings area draws beside its entity forms. The preview loads with the first form that shows it.
const FormBuilderPreview = lazy(() => import('./formBuilder/FormBuilderPreview.tsx').then((m) => ({ default: m.FormBuilderPreview })))

registerFormAside('service.forms', ({ values }) => <FormBuilderPreview definitions={values.fields} />)

// A saved dialer campaign: start, pause, stop and its live progress (features/dialer/).
const CampaignPanel = lazy(() => import('../dialer/CampaignPanel.tsx').then((m) => ({ default: m.CampaignPanel })))
registerFormAside('service.shipments-campaigns', () => <CampaignPanel />)

// A saved WhatsApp campaign: start, pause, stop and its progress (server/chat/campaigns.ts).
const ChatCampaignPanel = lazy(() => import('../dialer/ChatCampaignPanel.tsx').then((m) => ({ default: m.ChatCampaignPanel })))
registerFormAside('service.chats-campaigns', () => <ChatCampaignPanel />)
