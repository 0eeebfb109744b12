import { describe, expect, it } from 'vitest'
import type { Profile, SiteSettings, Team } from '../../contract/api/profile.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import { TestClient, signedIn, useTestApp } from './helper.ts'

const t = useTestApp()
const PROFILE = '/api/v1/business/profile/'

// `satisfies Record<keyof T, true>` makes the compiler fail this file when a type gains a field the test misses.
const PROFILE_KEYS = {
  id: true,
  username: true,
  first_name: true,
  last_name: true,
  email: true,
  avatar: true,
  avatar_message: true,
  roles: true,
  last_login: true,
  site: true,
  voip: true,
  userextra: true,
  team: true,
  pauses: true,
  queue_classifications: true,
  dialer_classifications: true,
} satisfies Record<keyof Profile, true>
const TEAM_KEYS = {
  id: true,
  name: true,
  outbound_routes: true,
  enable_auto_login_webphone: true,
  enable_webphone_auto_answer: true,
  enable_auto_login_webchat: true,
  enable_webchat_auto_answer: true,
  chat_limit_per_user: true,
  chat_timeout_to_remove_inactive: true,
  enable_after_service: true,
  duration_of_after_service: true,
  ignore_after_service_with_duration_shorter_than: true,
  ignore_after_service_unaccepted: true,
  after_service_mode: true,
  enable_classifications: true,
  enable_comment: true,
  minimum_comment_size: true,
  maximum_comment_size: true,
} satisfies Record<keyof Team, true>
const SETTINGS_KEYS = {
  description: true,
  logo_favicon: true,
  logo_login: true,
  logo_footer: true,
  url_footer: true,
  menu_primary_color: true,
  header_color: true,
  body_color: true,
  footer_color: true,
  login_color: true,
  button_primary_color: true,
  button_secondary_color: true,
  switch_color: true,
  primary_color: true,
  secondary_color: true,
  success_color: true,
  error_color: true,
} satisfies Record<keyof SiteSettings, true>
const USEREXTRA_KEYS = ['login_channel_chat', 'login_channel_telephony', 'password_expire_date', 'password_notification_start']
const VOIP_KEYS = ['device_state_busy_at', 'endpoint', 'password', 'realm', 'websocket']

const keys = (value: object) => Object.keys(value).sort()

describe('GET profile', () => {
  it('answers every field of Profile for an agent with team and webphone', async () => {
    const client = await signedIn(t.app, 'agent1')
    const response = await client.get(PROFILE)
    expect(response.statusCode).toBe(200)
    const profile = response.json() as Profile
    expect(keys(profile)).toEqual(Object.keys(PROFILE_KEYS).sort())
    expect(keys(profile.site)).toEqual(['domain', 'id', 'modules', 'name', 'settings'])
    expect(keys(profile.site.settings)).toEqual(Object.keys(SETTINGS_KEYS).sort())
    expect(keys(profile.team!)).toEqual(Object.keys(TEAM_KEYS).sort())
    expect(keys(profile.userextra)).toEqual(USEREXTRA_KEYS)
    expect(keys(profile.voip!)).toEqual(VOIP_KEYS)
    expect(profile).toMatchObject({
      username: 'agent1',
      avatar: null,
      site: { domain: 'localhost', name: 'Atende Demo', settings: { primary_color: null } },
      team: { name: 'Equipe Demo', outbound_routes: [], chat_timeout_to_remove_inactive: 15, enable_classifications: [] },
      voip: { endpoint: '10001', realm: 'localhost', websocket: 'ws://localhost:8080/ws/sip' },
      pauses: expect.any(Array),
      queue_classifications: [],
      dialer_classifications: [],
    })
    expect(profile.roles).toContain(PERMISSIONS.viewSoftphone)
    expect(profile.roles).not.toContain(PERMISSIONS.viewSettings)
  })

  it('answers null team and voip, never missing keys, for the admin; roles are the union of the groups', async () => {
    const profile = (await (await signedIn(t.app, 'admin')).get(PROFILE)).json() as Profile
    expect(keys(profile)).toEqual(Object.keys(PROFILE_KEYS).sort())
    expect(profile.team).toBeNull()
    expect(profile.voip).toBeNull()
    expect(profile.userextra).toEqual({
      login_channel_telephony: false,
      login_channel_chat: false,
      password_expire_date: null,
      password_notification_start: null,
    })
    expect(profile.roles).toEqual([...ALL_PERMISSIONS].sort())
  })

  it("shows agent2's password expiring in 5 days with the warning window already open", async () => {
    const { userextra } = (await (await signedIn(t.app, 'agent2')).get(PROFILE)).json() as Profile
    const expire = new Date(userextra.password_expire_date!).getTime()
    const notify = new Date(userextra.password_notification_start!).getTime()
    expect(expire - Date.now()).toBeGreaterThan(4.9 * 86_400_000)
    expect(expire - Date.now()).toBeLessThan(5.1 * 86_400_000)
    expect(notify).toBeLessThan(Date.now())
  })

  it('answers 401 {detail} without credentials', async () => {
    const response = await new TestClient(t.app).get(PROFILE)
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ detail: 'As credenciais de autenticação não foram fornecidas.' })
  })
})

describe('change personal data', () => {
  it('PUT replaces the personal fields and answers the profile', async () => {
    const client = await signedIn(t.app, 'supervisor')
    const body = { first_name: '  Sofia ', last_name: 'Souza', email: 'sofia@example.com', avatar_message: 'Em reunião' }
    const response = await client.put(PROFILE, body)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ first_name: 'Sofia', last_name: 'Souza', email: 'sofia@example.com', avatar_message: 'Em reunião' })
    expect((await client.get(PROFILE)).json()).toMatchObject({ first_name: 'Sofia', last_name: 'Souza' })
  })

  it('PATCH changes only the fields sent', async () => {
    const client = await signedIn(t.app, 'supervisor')
    await client.put(PROFILE, { first_name: 'Sofia', last_name: 'Souza', email: '' })
    const response = await client.patch(PROFILE, { avatar_message: 'Disponível' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ first_name: 'Sofia', last_name: 'Souza', avatar_message: 'Disponível' })
  })

  it('refuses invalid data with field errors in the request language and changes nothing', async () => {
    const client = await signedIn(t.app, 'agent1')
    const before = (await client.get(PROFILE)).json()
    const invalid = { first_name: '', email: 'not-an-email', avatar_message: 'x'.repeat(256) }

    const portuguese = await client.put(PROFILE, invalid)
    expect(portuguese.statusCode).toBe(400)
    expect(portuguese.json()).toEqual({
      first_name: ['Este campo é obrigatório'],
      email: ['E-mail inválido'],
      avatar_message: ['Este campo é maior do que o permitido que é 255'],
    })

    const english = await client.put(PROFILE, invalid, { headers: { 'accept-language': 'en-US' } })
    expect(english.json()).toEqual({
      first_name: ['This field is required'],
      email: ['Invalid e-mail address'],
      avatar_message: ['This field is longer than the allowed maximum of 255'],
    })

    client.cookies.set('i18n_redirected', 'es-es')
    const spanish = await client.patch(PROFILE, { first_name: 'y'.repeat(151) })
    expect(spanish.json()).toEqual({ first_name: ['Este campo es más largo que el máximo permitido de 150'] })

    expect((await client.get(PROFILE)).json()).toEqual(before)
  })

  it('refuses a body that is not an object', async () => {
    const client = await signedIn(t.app, 'agent1')
    for (const body of ['"hello"', 'null', '42']) {
      const response = await client.put(PROFILE, body, { headers: { 'content-type': 'application/json' } })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ non_field_errors: ['Valor inválido'] })
    }
  })
})
