import { expect, test } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { fillLogin, menuItem, shot, signIn } from './helpers.ts'

// The settings catalogue as an admin uses it: list, create, edit, duplicate, delete, import; and the 403 an agent gets.
const rows = (page: import('@playwright/test').Page) => page.getByTestId('list-row')

test('an admin creates, edits, duplicates and deletes a pause type', async ({ page }) => {
  // A whole create → edit → duplicate → delete flow: ~10 s quiet, 20–35 s on a loaded 2-core machine.
  test.slow()
  await signIn(page, DEMO.admin)
  await page.goto('/settings/service/pauses')
  await expect(rows(page).first()).toBeVisible()
  await page.getByTestId('list-new').click()
  await expect(page).toHaveURL(/\/settings\/service\/pauses\/create/)
  await page.getByTestId('form-save').click()
  await expect(page.getByText('Este campo é obrigatório').first()).toBeVisible()
  await page.getByLabel('Descrição').fill('Pausa E2E')
  await page.getByLabel('Duração máxima (segundos)').fill('600')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/service\/pauses\/?$/)

  await page.getByLabel('Filtrar').fill('Pausa E2E')
  await expect(rows(page)).toHaveCount(1)
  await rows(page).first().getByTestId('row-edit').click()
  await expect(page.getByLabel('Descrição')).toHaveValue('Pausa E2E')
  await page.getByLabel('Descrição').fill('Pausa E2E editada')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/service\/pauses\/?$/)

  await page.getByLabel('Filtrar').fill('Pausa E2E')
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page).first()).toContainText('Pausa E2E editada')
  await rows(page).first().getByTestId('row-duplicate').click()
  await expect(page).toHaveURL(/create\?duplicate_id=\d+/)
  await expect(page.getByLabel('Descrição')).toHaveValue('Pausa E2E editada')
  await expect(page.getByLabel('Duração máxima (segundos)')).toHaveValue('600')
  await page.getByLabel('Descrição').fill('Pausa E2E cópia')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/service\/pauses\/?$/)

  await page.getByLabel('Filtrar').fill('Pausa E2E')
  await expect(rows(page)).toHaveCount(2)
  await rows(page).filter({ hasText: 'cópia' }).getByTestId('row-delete').click()
  await expect(page.getByText('Você realmente quer deletar?')).toBeVisible()
  await shot(page, 'settings-delete-confirm')
  await page.getByTestId('delete-confirm').click()
  await page.getByLabel('Filtrar').fill('Pausa E2E')
  await expect(rows(page)).toHaveCount(1)
})

test('a CSV import with a bad row shows the row errors and writes nothing', async ({ page }) => {
  await signIn(page, DEMO.admin)
  await page.goto('/settings/service/blacklists')
  const before = await rows(page).count()
  await page.getByTestId('list-import').click()
  const csv = 'description,phones,direction\nBloqueio bom,5511999998888,both\nBloqueio ruim,123,both\n'
  await page.getByTestId('import-file').setInputFiles({ name: 'bloqueios.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await expect(page.getByTestId('import-start')).toBeEnabled()
  await page.getByTestId('import-start').click()
  await expect(page.getByTestId('import-error-row').first()).toBeVisible()
  await expect(page.getByTestId('import-errors')).toContainText('3')
  await shot(page, 'settings-import-errors')
  await page.keyboard.press('Escape')
  await page.reload()
  await expect(rows(page)).toHaveCount(before)
})

test('an agent without the permission gets the no-permission page on settings', async ({ page }) => {
  await signIn(page, DEMO.agent1)
  await page.goto('/settings/pabx/devices')
  await expect(page.getByText('Sem permissão')).toBeVisible()
})

for (const [prefix, lang] of [
  ['', 'pt-BR'],
  ['/en-us', 'en-US'],
  ['/es-es', 'es-ES'],
] as const) {
  test(`the queue list and form render in ${lang}`, async ({ page }) => {
    await signIn(page, DEMO.admin, prefix)
    await page.goto(`${prefix}/settings/service/queues/telephony`)
    await expect(rows(page).first()).toBeVisible()
    // The current entry, far down the Service section, is scrolled into the menu's view.
    await expect(menuItem(page, 'settings-pabx.queues')).toBeInViewport()
    await shot(page, `settings-queues-${lang}`)
    await rows(page).first().getByTestId('row-edit').click()
    await expect(page.getByTestId('form-save')).toBeVisible()
    await shot(page, `settings-queue-form-${lang}`)
    for (const tab of ['members', 'times', 'announcements']) {
      await page.locator(`[data-tab="${tab}"]`).click()
      await expect(page.locator(`[data-tab="${tab}"]`)).toHaveAttribute('aria-selected', 'true')
      await shot(page, `settings-queue-form-${tab}-${lang}`)
    }
  })

  test(`the user form renders in ${lang}`, async ({ page }) => {
    await signIn(page, DEMO.admin, prefix)
    await page.goto(`${prefix}/settings/business/users`)
    await rows(page).filter({ hasText: 'agent1' }).getByTestId('row-edit').click()
    await expect(page.getByTestId('form-save')).toBeVisible()
    await shot(page, `settings-user-form-${lang}`)
    for (const tab of ['access', 'service']) {
      await page.locator(`[data-tab="${tab}"]`).click()
      await expect(page.locator(`[data-tab="${tab}"]`)).toHaveAttribute('aria-selected', 'true')
      await shot(page, `settings-user-form-${tab}-${lang}`)
    }
  })
}

// ——— Helpers of the scenarios below: reads through the same session the page has (GETs need no CSRF header). ———

type Page = import('@playwright/test').Page
type Json = Record<string, any>

async function apiGet(page: Page, path: string): Promise<Json> {
  const response = await page.request.get(path)
  expect(response.status(), `GET ${path}`).toBe(200)
  return (await response.json()) as Json
}

/** The records of an entity whose `field` starts with `prefix`, in id order (the whole list, filtered here). */
async function apiFind(page: Page, api: string, field: string, prefix: string): Promise<Json[]> {
  const list = await apiGet(page, `${api}?ordering=id&limit=10000`)
  return (list.results as Json[]).filter((row) => String(row[field]).startsWith(prefix))
}

/** Picks an option of the Joy select or autocomplete labelled `label`. */
async function choose(page: Page, label: string | RegExp, option: string | RegExp, scope: import('@playwright/test').Locator | Page = page) {
  await scope.getByRole('combobox', { name: label, exact: typeof label === 'string' }).click()
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click()
}

const openTab = (page: Page, key: string) => page.locator(`[data-tab="${key}"]`).click()

/** A valid 8 kHz, 16-bit mono PCM WAV of `samples` samples: the RIFF header written by hand, then a tone. */
function wav(samples: number): Buffer {
  const data = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)), i * 2)
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'ascii')
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVE', 8, 'ascii')
  header.write('fmt ', 12, 'ascii')
  header.writeUInt32LE(16, 16) // fmt chunk size
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(8000, 24) // sample rate
  header.writeUInt32LE(16000, 28) // byte rate
  header.writeUInt16LE(2, 32) // block align
  header.writeUInt16LE(16, 34) // bits per sample
  header.write('data', 36, 'ascii')
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data])
}

/**
 * Records the FormData bodies the SPA sends (Playwright does not expose a multipart body holding a file): each part's
 * name, and its text or its file's name, type and bytes, in order. Read with `sentForms(page)`.
 */
async function recordForms(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const sent: unknown[] = []
    ;(window as unknown as { __sentForms: unknown[] }).__sentForms = sent
    const original = window.fetch.bind(window)
    window.fetch = async (input, init) => {
      if (init?.body instanceof FormData) {
        const parts = []
        for (const [name, value] of init.body.entries()) {
          parts.push(
            typeof value === 'string'
              ? { name, text: value }
              : { name, filename: value.name, type: value.type, bytes: Array.from(new Uint8Array(await value.arrayBuffer())) },
          )
        }
        sent.push({ url: String(input instanceof Request ? input.url : input), method: init.method, parts })
      }
      return original(input, init)
    }
  })
}

type SentPart = { name: string; text?: string; filename?: string; type?: string; bytes?: number[] }
const sentForms = (page: Page) => page.evaluate(() => (window as unknown as { __sentForms: { url: string; method: string; parts: SentPart[] }[] }).__sentForms)

test('an admin creates, edits, duplicates and deletes a telephony queue', async ({ page }) => {
  // A whole create → edit → duplicate → delete flow: ~10 s quiet, 20–35 s on a loaded 2-core machine.
  test.slow()
  const api = '/api/v1/pabx/queues/'
  await signIn(page, DEMO.admin)
  const [support] = await apiFind(page, api, 'description', 'Suporte')
  const [agent1] = await apiFind(page, '/api/v1/business/users/', 'username', 'agent1')
  expect(support?.id).toBeGreaterThan(0)

  await page.goto('/settings/service/queues/telephony')
  await expect(rows(page).first()).toBeVisible()
  await page.getByTestId('list-new').click()
  await expect(page).toHaveURL(/\/settings\/service\/queues\/telephony\/create/)
  await page.getByLabel('Descrição').fill('Fila E2E')
  await choose(page, 'Estratégia de distribuição', 'Aleatório com peso')
  await page.getByLabel('Peso', { exact: true }).fill('7')

  await openTab(page, 'members')
  await page.getByTestId('datatable-add').click()
  const dialog = page.getByTestId('datatable-dialog')
  await dialog.getByRole('combobox', { name: 'Agente', exact: true }).fill('agent1')
  await page.getByRole('option', { name: 'agent1', exact: true }).click()
  await dialog.getByLabel('Penalidade').fill('2')
  await dialog.getByTestId('row-save').click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('datatable-row')).toHaveCount(1)
  await expect(page.getByTestId('datatable-row').first()).toContainText('agent1')

  await openTab(page, 'times')
  await page.getByLabel('Tempo de toque no agente (segundos)').fill('25')
  await choose(page, 'Destino de transbordo', 'Fila')
  await choose(page, /^Fila/, 'Suporte')
  await shot(page, 'settings-queue-create-overflow')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/service\/queues\/telephony\/?$/)

  let [created] = await apiFind(page, api, 'description', 'Fila E2E')
  expect(created).toMatchObject({
    description: 'Fila E2E',
    strategy: 'wrandom',
    weight: 7,
    ring_time: 25,
    queue_type: 'inbound',
    overflow: { app: 'queue', appdata: support!.id },
    members: [{ user: agent1!.id, penalty: 2 }],
  })

  await page.getByLabel('Filtrar').fill('Fila E2E')
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page).first()).toContainText('Aleatório com peso')
  await rows(page).first().getByTestId('row-edit').click()
  await expect(page.getByLabel('Descrição')).toHaveValue('Fila E2E')
  await expect(page.getByLabel('Peso', { exact: true })).toHaveValue('7')
  await choose(page, 'Estratégia de distribuição', 'Menos chamadas')
  await openTab(page, 'times')
  await expect(page.getByLabel('Tempo de toque no agente (segundos)')).toHaveValue('25')
  await page.getByLabel('Tempo de toque no agente (segundos)').fill('40')
  await openTab(page, 'members')
  await page.getByTestId('datatable-edit').first().click()
  await page.getByTestId('datatable-dialog').getByLabel('Penalidade').fill('5')
  await page.getByTestId('row-save').click()
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/service\/queues\/telephony\/?$/)

  ;[created] = await apiFind(page, api, 'description', 'Fila E2E')
  expect(created).toMatchObject({
    strategy: 'fewestcalls',
    ring_time: 40,
    weight: 7,
    overflow: { app: 'queue', appdata: support!.id },
    members: [{ user: agent1!.id, penalty: 5 }],
  })

  await page.getByLabel('Filtrar').fill('Fila E2E')
  await expect(rows(page).first()).toContainText('Menos chamadas')
  await rows(page).first().getByTestId('row-duplicate').click()
  await expect(page).toHaveURL(new RegExp(`create\\?duplicate_id=${created!.id}`))
  await expect(page.getByLabel('Descrição')).toHaveValue('Fila E2E')
  await page.getByLabel('Descrição').fill('Fila E2E cópia')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/service\/queues\/telephony\/?$/)

  const copies = await apiFind(page, api, 'description', 'Fila E2E')
  expect(copies).toHaveLength(2)
  expect(copies[1]!.id).not.toBe(created!.id)
  expect(copies[1]).toMatchObject({
    description: 'Fila E2E cópia',
    strategy: 'fewestcalls',
    ring_time: 40,
    weight: 7,
    overflow: { app: 'queue', appdata: support!.id },
    members: [{ user: agent1!.id, penalty: 5 }],
  })

  await page.getByLabel('Filtrar').fill('Fila E2E')
  await expect(rows(page)).toHaveCount(2)
  await rows(page).filter({ hasText: 'cópia' }).getByTestId('row-delete').click()
  await expect(page.getByText('Você realmente quer deletar?')).toBeVisible()
  await page.getByTestId('delete-confirm').click()
  await expect(page.getByTestId('delete-dialog')).toHaveCount(0)
  await page.getByLabel('Filtrar').fill('Fila E2E')
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page).first()).not.toContainText('cópia')
  expect((await apiFind(page, api, 'description', 'Fila E2E')).map((q) => q.id)).toEqual([created!.id])
  expect((await page.request.get(`${api}${copies[1]!.id}/`)).status()).toBe(404)
})

test('an admin creates, edits, duplicates and deletes a user of a new permission group, who sees only what it allows', async ({ page, browser }) => {
  // A whole create → edit → duplicate → delete flow: ~10 s quiet, 20–35 s on a loaded 2-core machine.
  test.slow()
  await signIn(page, DEMO.admin)
  // The group: the settings menu and the pause types, read-only.
  await page.goto('/settings/business/groups')
  await page.getByTestId('list-new').click()
  await page.getByLabel('Nome').fill('Grupo E2E pausas')
  const permissions = page.getByRole('combobox', { name: 'Permissões', exact: true })
  await permissions.fill('sites.view_settings')
  await page.getByRole('option', { name: 'sites.view_settings', exact: true }).click()
  await permissions.fill('Pausas: ver')
  await page.getByRole('option', { name: 'Pausas: ver', exact: true }).click()
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/business\/groups\/?$/)
  const [group] = (await apiGet(page, `/api/v1/business/groups/?name=${encodeURIComponent('Grupo E2E pausas')}`)).results as Json[]
  expect([...group!.permissions].sort()).toEqual(['service.view_pause', 'sites.view_settings'])

  const api = '/api/v1/business/users/'
  await page.goto('/settings/business/users')
  await page.getByTestId('list-new').click()
  await expect(page).toHaveURL(/\/settings\/business\/users\/create/)
  await page.getByRole('textbox', { name: 'Usuário', exact: true }).fill('e2e.maria')
  await page.getByRole('textbox', { name: 'Nome', exact: true }).fill('Maria')
  await page.getByLabel('Sobrenome').fill('Pausada')
  await page.getByLabel('E-mail').fill('maria.e2e@example.com')
  await page.getByRole('textbox', { name: 'Senha' }).fill('pausas2026')
  await openTab(page, 'access')
  await choose(page, 'Grupos de permissões', 'Grupo E2E pausas')
  await shot(page, 'settings-user-create-access')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/business\/users\/?$/)

  let [maria] = await apiFind(page, api, 'username', 'e2e.maria')
  expect(maria).toMatchObject({ username: 'e2e.maria', first_name: 'Maria', last_name: 'Pausada', email: 'maria.e2e@example.com', groups: [group!.id] })
  expect(maria).not.toHaveProperty('password')

  await page.getByLabel('Filtrar').fill('e2e.maria')
  await expect(rows(page)).toHaveCount(1)
  await rows(page).first().getByTestId('row-edit').click()
  await expect(page.getByRole('textbox', { name: 'Usuário', exact: true })).toHaveValue('e2e.maria')
  await expect(page.getByRole('textbox', { name: 'Senha' })).toHaveValue('')
  await page.getByRole('textbox', { name: 'Nome', exact: true }).fill('Mariana')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/business\/users\/?$/)
  ;[maria] = await apiFind(page, api, 'username', 'e2e.maria')
  expect(maria).toMatchObject({ first_name: 'Mariana', groups: [group!.id] })

  await page.getByLabel('Filtrar').fill('e2e.maria')
  await expect(rows(page).first()).toContainText('Mariana')
  await rows(page).first().getByTestId('row-duplicate').click()
  await expect(page).toHaveURL(new RegExp(`create\\?duplicate_id=${maria!.id}`))
  await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).toHaveValue('Mariana')
  await expect(page.getByRole('textbox', { name: 'Senha' })).toHaveValue('')
  await page.getByRole('textbox', { name: 'Usuário', exact: true }).fill('e2e.copia')
  await page.getByTestId('form-save').click()
  // A duplicate is a create: the password (never copied) is required again.
  await expect(page.getByText('Este campo é obrigatório').first()).toBeVisible()
  await page.getByRole('textbox', { name: 'Senha' }).fill('copiada2026')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/business\/users\/?$/)
  const [copy] = await apiFind(page, api, 'username', 'e2e.copia')
  expect(copy).toMatchObject({ username: 'e2e.copia', first_name: 'Mariana', last_name: 'Pausada', groups: [group!.id] })
  expect(copy!.id).not.toBe(maria!.id)

  await page.getByLabel('Filtrar').fill('e2e.copia')
  await expect(rows(page)).toHaveCount(1)
  await rows(page).first().getByTestId('row-delete').click()
  await expect(page.getByText('Você realmente quer deletar?')).toBeVisible()
  await page.getByTestId('delete-confirm').click()
  await page.getByLabel('Filtrar').fill('e2e.copia')
  await expect(rows(page)).toHaveCount(0)
  expect(await apiFind(page, api, 'username', 'e2e.copia')).toEqual([])
  expect((await apiFind(page, api, 'username', 'e2e.maria')).map((u) => u.id)).toEqual([maria!.id])

  // The new user signs in with the password the edit kept and sees the settings of pauses only, without actions.
  const context = await browser.newContext()
  const own = await context.newPage()
  await own.goto('/login')
  await fillLogin(own, { username: 'e2e.maria', password: 'pausas2026' })
  // Without sites.view_dashboard the home page is the no-permission page (as for any user without it).
  await expect(own).toHaveURL(/\/403/)
  await own.goto('/settings/service/pauses')
  await expect(rows(own).first()).toBeVisible()
  await expect(menuItem(own, 'settings')).toBeVisible()
  await expect(menuItem(own, 'home')).toHaveCount(0)
  await expect(menuItem(own, 'machines')).toHaveCount(0)
  await expect(own.locator('[data-menu="settings-service.pauses"]').first()).toBeAttached()
  await expect(own.locator('[data-menu="settings-pabx.queues"]')).toHaveCount(0)
  await expect(own.locator('[data-menu="settings-pabx"]')).toHaveCount(0)
  await expect(own.locator('[data-menu="settings-business"]')).toHaveCount(0)
  await expect(own.getByTestId('list-new')).toHaveCount(0)
  await expect(own.getByTestId('row-edit')).toHaveCount(0)
  await expect(own.getByTestId('row-delete')).toHaveCount(0)
  await shot(own, 'settings-user-limited-pauses')
  await own.goto('/settings/business/users')
  await expect(own.getByText('Sem permissão')).toBeVisible()
  expect((await own.request.get('/api/v1/service/pauses/')).status()).toBe(200)
  expect((await own.request.get('/api/v1/business/users/')).status()).toBe(403)
  expect((await own.request.get('/api/v1/pabx/queues/')).status()).toBe(403)
  // The deleted duplicate cannot sign in.
  const gone = await context.request.post('/api/session/login/', { data: { username: 'e2e.copia', password: 'copiada2026' } })
  expect(gone.ok()).toBe(false)
  await context.close()
})

test('a sound file is uploaded as multipart (params JSON first), stored, listed, and kept by an edit that does not touch it', async ({ page }) => {
  const audio = wav(800)
  await recordForms(page)
  await signIn(page, DEMO.admin)
  await page.goto('/settings/pabx/sounds')
  await page.getByTestId('list-new').click()
  await page.getByLabel('Descrição').fill('Pasta E2E')
  await page.getByTestId('form-save').click()
  // A new folder opens for editing, where its files are added.
  await expect(page).toHaveURL(/\/settings\/pabx\/sounds\/\d+\/edit/)
  const folderId = Number(/sounds\/(\d+)\/edit/.exec(page.url())![1])
  await openTab(page, 'entries')
  await page.getByTestId(`entity-list-pabx.sounds-entries`).getByTestId('list-new').click()
  await expect(page).toHaveURL(new RegExp(`/settings/pabx/sounds/${folderId}/entries/create`))
  await page.getByLabel('Descrição').fill('Bip E2E')

  // A file that is not audio is refused by the server on its bytes, whatever its name says.
  await page.getByLabel('Arquivo de áudio').setInputFiles({ name: 'falso.wav', mimeType: 'audio/wav', buffer: Buffer.from('isto não é áudio') })
  await page.getByTestId('form-save').click()
  await expect(page.getByText(/Tipo de arquivo/i).first()).toBeVisible()

  await page.getByLabel('Arquivo de áudio').setInputFiles({ name: 'bip.wav', mimeType: 'audio/wav', buffer: audio })
  const posted = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/pabx/sounds-entries/'))
  await page.getByTestId('form-save').click()
  const response = await posted
  expect(response.status()).toBe(201)
  expect(response.request().headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/)
  const forms = (await sentForms(page)).filter((f) => f.method === 'POST' && f.url.endsWith('/api/v1/pabx/sounds-entries/'))
  const parts = forms.at(-1)!.parts
  expect(parts.map((p) => p.name)).toEqual(['params', 'file'])
  const params = JSON.parse(parts[0]!.text!)
  expect(params).toMatchObject({ sound: folderId, description: 'Bip E2E', is_active: true })
  expect(params).not.toHaveProperty('file')
  expect(parts[1]).toMatchObject({ filename: 'bip.wav', type: 'audio/wav' })
  expect(Buffer.from(parts[1]!.bytes!).equals(audio)).toBe(true)
  await expect(page).toHaveURL(new RegExp(`/settings/pabx/sounds/${folderId}/entries/?$`))
  await expect(rows(page).filter({ hasText: 'Bip E2E' })).toHaveCount(1)

  const entries = (await apiGet(page, `/api/v1/pabx/sounds-entries/?sound=${folderId}`)).results as Json[]
  expect(entries).toHaveLength(1)
  const stored = entries[0]!.file as string
  expect(stored).toMatch(/^\/media\/pabx-sounds-entries\/[^/]+\.wav$/)
  const download = await page.request.get(stored)
  expect(download.status()).toBe(200)
  expect(download.headers()['content-type']).toContain('audio/wav')
  expect((await download.body()).equals(audio)).toBe(true)

  // Editing the description only sends JSON without the file, and the file stays.
  await rows(page).filter({ hasText: 'Bip E2E' }).getByTestId('row-edit').click()
  await expect(page.getByTestId('current-file')).toBeVisible()
  await page.getByLabel('Descrição').fill('Bip E2E renomeado')
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/v1/pabx/sounds-entries/${entries[0]!.id}/`))
  await page.getByTestId('form-save').click()
  const update = await put
  expect(update.headers()['content-type']).toContain('application/json')
  expect(update.postDataJSON()).toMatchObject({ description: 'Bip E2E renomeado' })
  expect(update.postDataJSON()).not.toHaveProperty('file')
  expect((await sentForms(page)).filter((f) => f.method === 'PUT')).toEqual([])
  await expect(rows(page).filter({ hasText: 'Bip E2E renomeado' })).toHaveCount(1)
  const after = await apiGet(page, `/api/v1/pabx/sounds-entries/${entries[0]!.id}/`)
  expect(after).toMatchObject({ description: 'Bip E2E renomeado', file: stored })
  expect((await (await page.request.get(stored)).body()).equals(audio)).toBe(true)
})
