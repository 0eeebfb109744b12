import { expect, test } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { menuItem, shot, signIn } from './helpers.ts'

// Issue 19 item 5: the admin turns the chat module off on /settings/system/base/modules; the agent's menu loses
// Chats, /chats answers the 404 page and the chat API 403; turned back on, all of it returns.
test('an admin turns chat off and on for the site, and the agent follows', async ({ browser }) => {
  const adminContext = await browser.newContext()
  const agentContext = await browser.newContext()
  const admin = await adminContext.newPage()
  const agent = await agentContext.newPage()
  try {
    await signIn(agent, DEMO.agent1)
    await expect(menuItem(agent, 'chats')).toBeVisible()

    await signIn(admin, DEMO.admin)
    await admin.goto('/settings/system/base/modules')
    await expect(admin.getByRole('heading', { name: 'Módulos' })).toBeVisible()
    const chat = admin.locator('#module-chat')
    await expect(chat).toBeChecked()
    await chat.setChecked(false)
    await admin.getByRole('button', { name: 'Salvar' }).click()
    await expect(admin.getByText('Módulos salvos.')).toBeVisible()
    // The admin's own menu follows at once (settings of the chat area included).
    await expect(menuItem(admin, 'chats')).toHaveCount(0)
    await shot(admin, 'modules-chat-off')

    await agent.reload()
    await expect(menuItem(agent, 'home')).toBeVisible()
    await expect(menuItem(agent, 'chats')).toHaveCount(0)
    await agent.goto('/chats')
    await expect(agent.getByRole('heading', { name: 'Esta página não foi encontrada' })).toBeVisible()
    expect((await agent.request.get('/api/v1/chat/archives/')).status()).toBe(403)

    await admin.goto('/settings/system/base/modules')
    await expect(chat).not.toBeChecked()
    await chat.setChecked(true)
    await admin.getByRole('button', { name: 'Salvar' }).click()
    await expect(admin.getByText('Módulos salvos.')).toBeVisible()

    await agent.goto('/')
    await expect(menuItem(agent, 'chats')).toBeVisible()
    await agent.goto('/chats')
    await expect(agent.getByRole('heading', { name: 'Esta página não foi encontrada' })).toHaveCount(0)
    expect((await agent.request.get('/api/v1/chat/archives/')).status()).toBe(200)
  } finally {
    // Whatever happened above, the next specs find every module on.
    const csrf = (await adminContext.cookies()).find((c) => c.name === 'csrftoken')?.value ?? ''
    await admin.request.put('/api/v1/system/base/modules/', {
      data: { telephony: true, chat: true, dialer: true, crm: true, reports: true },
      headers: { 'X-CSRFToken': csrf },
    })
    await adminContext.close()
    await agentContext.close()
  }
})
