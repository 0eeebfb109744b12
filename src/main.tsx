import { createRoot } from 'react-dom/client'
import { createRouter, RouterProvider } from '@tanstack/react-router'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { routeTree } from './routeTree.gen'
import { messages } from '../locales/pt-BR/messages.po'
i18n.load('pt-BR', messages); i18n.activate('pt-BR')
const router = createRouter({ routeTree })
createRoot(document.getElementById('root')!).render(<I18nProvider i18n={i18n}><RouterProvider router={router} /></I18nProvider>)
