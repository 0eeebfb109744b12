import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { I18nProvider } from '@lingui/react'
import { PERMISSIONS } from '../../contract/permissions.ts'
import type { PlaybackReport } from '../../machines/audioPermission.machine.ts'
import type { SipPhone } from '../../machines/webphoneTypes.ts'
import type { SipPhoneDeps } from '../../src/features/webphone/sipPhone.ts'
import { createAgentSystem } from '../../src/app/agentSystem.ts'
import type { AgentSystem } from '../../src/app/agentSystem.ts'
import { browserWebphoneEffects } from '../../src/app/agentSystemWebphone.ts'
import { activateLocale, i18n } from '../../src/app/i18n.ts'
import { AUDIO_DIALOG_MAX_WIDTH, AudioPermissionDialog } from '../../src/features/presence/AudioPermissionDialog.tsx'
import { blockedByBrowser, createAudioPlayback } from '../../src/features/presence/audioPlayback.ts'
import { fakeEffects } from './presence-fakes.ts'

// The audio authorisation dialog (spec 000 §2, §8): any playback the browser refuses, at start or in the middle of the
// session (a call's audio), opens it, and 'Permitir' plays the refused audio again inside the click.

// The webphone's sip.js adapter is only asked for its browser dependencies here: the call audio it would create.
const sipDeps = vi.hoisted(() => [] as SipPhoneDeps[])
vi.mock('../../src/features/webphone/sipPhone.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/features/webphone/sipPhone.ts')>()),
  sipPhoneFactory: (deps: SipPhoneDeps) => {
    sipDeps.push(deps)
    return () => ({}) as SipPhone
  },
}))

const refused = () => new DOMException('blocked', 'NotAllowedError')

/** An element whose play() answers from `outcomes` in turn (the last one repeats). */
function fakeAudio(...outcomes: ('ok' | 'blocked' | 'unsupported')[]) {
  const plays: number[] = []
  const audio = {
    volume: 1,
    play: vi.fn(async () => {
      plays.push(Date.now())
      const outcome = outcomes[Math.min(plays.length, outcomes.length) - 1]
      if (outcome === 'blocked') throw refused()
      if (outcome === 'unsupported') throw new DOMException('no source', 'NotSupportedError')
    }),
    pause: vi.fn(),
  }
  return audio
}

const flush = () => act(async () => void (await Promise.resolve()))

describe('audio playback gate', () => {
  it('reports only a refusal for want of a gesture as blocked', () => {
    expect(blockedByBrowser(refused())).toBe(true)
    expect(blockedByBrowser(new DOMException('x', 'NotSupportedError'))).toBe(false)
    expect(blockedByBrowser(undefined)).toBe(false)
  })

  it('reports each playback, keeps the refused ones and plays them again on retry, synchronously', async () => {
    const gate = createAudioPlayback()
    const reports: PlaybackReport[] = []
    gate.subscribe((report) => reports.push(report))
    const first = fakeAudio('blocked', 'ok')
    const second = fakeAudio('unsupported')
    const firstPlay = first.play
    const secondPlay = second.play
    const guarded = gate.guard(first, 'call')
    await expect(guarded.play()).rejects.toThrow('blocked') // the caller still sees its own promise
    await gate
      .guard(second, 'call')
      .play()
      .catch(() => {})
    await flush()
    expect(reports).toEqual([{ type: 'PLAYBACK_BLOCKED', id: 'call-1', retried: false }])

    gate.retry(['call-1', 'call-2'])
    expect(firstPlay).toHaveBeenCalledTimes(2) // before any await: still inside the click
    expect(secondPlay).toHaveBeenCalledTimes(1) // not the user's to allow: never retried
    await flush()
    expect(reports.at(-1)).toEqual({ type: 'PLAYBACK_OK', id: 'call-1' })
    gate.retry(['call-1'])
    expect(firstPlay).toHaveBeenCalledTimes(2) // played: nothing left to retry
  })

  it('a refused playback that is stopped is no longer waiting', async () => {
    const gate = createAudioPlayback()
    const reports: PlaybackReport[] = []
    gate.subscribe((report) => reports.push(report))
    const audio = gate.guard(fakeAudio('blocked'), 'call')
    audio.play().catch(() => {})
    await flush()
    audio.pause()
    expect(reports.map((report) => report.type)).toEqual(['PLAYBACK_BLOCKED', 'PLAYBACK_ENDED'])
    gate.retry(['call-1'])
    await flush()
    expect(reports).toHaveLength(2)
  })

  it('a retry refused even inside the click says so', async () => {
    const gate = createAudioPlayback()
    const reports: PlaybackReport[] = []
    gate.subscribe((report) => reports.push(report))
    gate
      .guard(fakeAudio('blocked'), 'call')
      .play()
      .catch(() => {})
    await flush()
    gate.retry(['call-1'])
    await flush()
    expect(reports.at(-1)).toEqual({ type: 'PLAYBACK_BLOCKED', id: 'call-1', retried: true })
  })
})

describe('audio authorisation dialog', () => {
  beforeAll(() => activateLocale('pt-BR'))
  const systems: AgentSystem[] = []
  afterEach(() => {
    for (const system of systems.splice(0)) system.stop()
    cleanup()
    sipDeps.length = 0
    vi.restoreAllMocks()
  })

  /** A signed-in agent's system with the real playback gate; the start-up silence plays as `probe` says. */
  function start(probe: 'ok' | 'blocked') {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(async () => {
      if (probe === 'blocked') throw refused()
    })
    const audio = createAudioPlayback()
    const roles = [PERMISSIONS.viewSoftphone, PERMISSIONS.viewChat]
    const system = createAgentSystem(
      {
        userId: 7,
        roles,
        endpoint: '1001',
        token: null,
        locale: 'pt-BR',
        page: '/',
        tabId: 'tab-a',
        socketUrl: 'ws://atende.test/ws/business/',
        webphone: false,
      },
      { ...fakeEffects().effects, audio },
    )
    systems.push(system)
    render(
      <I18nProvider i18n={i18n}>
        <AudioPermissionDialog actor={system.get('audioPermission')} />
      </I18nProvider>,
    )
    return { system, audio, play }
  }

  it('asks at start when the browser refuses the silent check, and closes on "Permitir"', async () => {
    const { system, play } = start('blocked')
    const dialog = await screen.findByTestId('audio-permission')
    expect(within(dialog).getByText('Permitir áudio')).toBeTruthy()
    expect(getComputedStyle(dialog).maxWidth).toBe(`${AUDIO_DIALOG_MAX_WIDTH}px`)
    play.mockImplementation(async () => {})
    fireEvent.click(within(dialog).getByTestId('audio-allow'))
    await vi.waitFor(() => expect(screen.queryByTestId('audio-permission')).toBeNull())
    expect(system.get('audioPermission').getSnapshot().value).toBe('allowed')
  })

  it("opens when a call's audio is refused later on, and 'Permitir' plays that audio again inside the click", async () => {
    const { system, audio, play } = start('ok')
    const actor = system.get('audioPermission')
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('allowed'))
    expect(screen.queryByTestId('audio-permission')).toBeNull()

    // The webphone's browser side as the app builds it: its call audio goes through the same gate.
    browserWebphoneEffects(i18n, audio).createSipPhone(
      { websocket: 'ws://localhost/ws/sip', endpoint: '1001', realm: 'localhost', password: 'x', audio: { input: null, output: null } },
      () => {},
    )
    await vi.waitFor(() => expect(sipDeps).toHaveLength(1))
    const callAudio = sipDeps[0]!.createAudio()
    play.mockClear()
    play.mockImplementation(async () => {
      throw refused()
    })
    callAudio.play().catch(() => {}) // what sipPhone's playRemote does with a call's remote stream
    const dialog = await screen.findByTestId('audio-permission')

    play.mockClear()
    play.mockImplementation(async () => {})
    fireEvent.click(within(dialog).getByTestId('audio-allow'))
    // Played again before the click handler returned: inside the user's gesture, on the call's own element.
    expect(play).toHaveBeenCalledTimes(1)
    expect(play.mock.contexts[0]).toBe(callAudio)
    await vi.waitFor(() => expect(screen.queryByTestId('audio-permission')).toBeNull())
    expect(actor.getSnapshot().context.waiting).toEqual([])
  })

  it('does not come back when even the click cannot play (the browser blocks sound for the site)', async () => {
    const { system } = start('blocked')
    const dialog = await screen.findByTestId('audio-permission')
    fireEvent.click(within(dialog).getByTestId('audio-allow'))
    await vi.waitFor(() => expect(system.get('audioPermission').getSnapshot().value).toBe('refused'))
    expect(screen.queryByTestId('audio-permission')).toBeNull()
  })
})
