import { beforeAll, describe, expect, it, vi } from 'vitest'
import { EXCEEDED_TITLE, PAUSED_BY_SUPERVISOR_NOTICE } from '../../machines/pause.machine.ts'
import { LOCK_TITLE_LOCKED, LOCK_TITLE_PAUSED } from '../../machines/screenLock.machine.ts'
import { REMOTE_LOGOUT_NOTICE } from '../../machines/serviceSocket.machine.ts'
import { OTHER_TAB_NOTICE, SERVICE_HERE_LABEL, TAKEN_OVER_NOTICE } from '../../machines/tabOwnership.machine.ts'
import { TRANSFER_FAILED_NOTICE } from '../../machines/transfer.machine.ts'
import { DIAL_REFUSED_NOTICE, ROUTE_REQUIRED_NOTICE } from '../../machines/webphone.machine.ts'
import { isOpenableUrl, serviceSocketUrl } from '../../src/app/agentSystemEffects.ts'
import { activateLocale, i18n } from '../../src/app/i18n.ts'
import { askNotificationPermissionOnce, NOTIFICATION_ASKED_KEY } from '../../src/features/presence/mediaPermissions.ts'
import { MACHINE_TEXTS, machineText } from '../../src/features/presence/notices.ts'
import { asPauseTypes } from '../../src/features/presence/usePauseTypes.ts'

describe('machine texts', () => {
  beforeAll(() => activateLocale('en-US'))

  it('has a message with the same Portuguese for every text a presence machine exports', () => {
    const texts = [
      OTHER_TAB_NOTICE,
      SERVICE_HERE_LABEL,
      TAKEN_OVER_NOTICE,
      REMOTE_LOGOUT_NOTICE,
      PAUSED_BY_SUPERVISOR_NOTICE,
      EXCEEDED_TITLE,
      LOCK_TITLE_PAUSED,
      LOCK_TITLE_LOCKED,
      DIAL_REFUSED_NOTICE,
      ROUTE_REQUIRED_NOTICE,
      TRANSFER_FAILED_NOTICE,
    ]
    for (const text of texts) expect(MACHINE_TEXTS[text]?.message, text).toBe(text)
  })

  it('translates machine texts and the error prefix, and passes server details through', () => {
    expect(machineText(i18n, TAKEN_OVER_NOTICE)).toBe('Service requested in another tab; this one will be reloaded.')
    expect(machineText(i18n, 'Ocorreu um erro Failed to fetch')).toBe('An error occurred Failed to fetch')
    expect(machineText(i18n, 'Pausa excedente: informe a justificativa.')).toBe('Pausa excedente: informe a justificativa.')
  })
})

describe('pause types', () => {
  it('keeps the valid entries of the profile list', () => {
    expect(
      asPauseTypes([{ id: 1, description: 'Café', maximum_duration: 600 }, { id: '2', description: 'x' }, null, { id: 3, description: 'Almoço' }]),
    ).toEqual([
      { id: 1, description: 'Café', maximum_duration: 600 },
      { id: 3, description: 'Almoço', maximum_duration: null },
    ])
    expect(asPauseTypes(undefined)).toEqual([])
  })
})

describe('browser effects', () => {
  it('opens the service socket on this origin, wss behind TLS', () => {
    expect(serviceSocketUrl({ protocol: 'https:', host: 'atende.example.com' })).toBe('wss://atende.example.com/ws/business/')
    expect(serviceSocketUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/ws/business/')
  })

  it('opens only web pages from an openUrl command', () => {
    expect(isOpenableUrl('https://crm.example.com/ficha/1')).toBe(true)
    expect(isOpenableUrl('javascript:alert(1)')).toBe(false)
    expect(isOpenableUrl('data:text/html,<script>1</script>')).toBe(false)
  })

  it('asks for notifications once, and never when the user already answered', () => {
    const store = new Map<string, string>()
    const storage = { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) }
    const requestPermission = vi.fn(async () => 'granted' as NotificationPermission)
    expect(askNotificationPermissionOnce({ permission: 'default', requestPermission }, storage)).toBe(true)
    expect(askNotificationPermissionOnce({ permission: 'default', requestPermission }, storage)).toBe(false)
    expect(requestPermission).toHaveBeenCalledTimes(1)
    expect(store.has(NOTIFICATION_ASKED_KEY)).toBe(true)
    expect(askNotificationPermissionOnce({ permission: 'denied', requestPermission }, { getItem: () => null, setItem() {} })).toBe(false)
  })
})
