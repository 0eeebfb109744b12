import { lazy } from 'react'
import { registerFormAside } from '../../entities/form/asides.ts'

// What the CRM draws beside its entity forms: a client's duplicates and timeline, loaded with the first client page.
const ClientAside = lazy(() => import('./ClientAside.tsx').then((m) => ({ default: m.ClientAside })))

registerFormAside('crm.clients', () => <ClientAside />)
