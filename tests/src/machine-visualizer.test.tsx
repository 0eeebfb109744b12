import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { I18nProvider } from '@lingui/react'
import { and } from 'xstate'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { MACHINES } from '../../machines/index.ts'
import { i18n } from '../../src/app/i18n.ts'
import { MachineVisualizer } from '../../src/features/machines/MachineVisualizer.tsx'
import { MACHINE_DESCRIPTIONS } from '../../src/features/machines/descriptions.ts'
import { activateLocale } from '../../src/app/i18n.ts'
import { activePaths, durationLabel, guardLabel, machineGraph } from '../../src/features/machines/machineGraph.ts'
import { agent, api, open, usePresenceHarness } from './presence-harness.tsx'

// The machine visualizer draws each machine from its definition: every state (nested), every transition, and the
// live actor's current state and last event.

describe('machine graph', () => {
  it('reads every state of every machine, nested under its parent', () => {
    for (const { machine } of MACHINES) {
      const graph = machineGraph(machine)
      const paths = graph.states.map((state) => state.path).filter(Boolean)
      const expected: string[] = []
      const walk = (node: { path: string[]; states: Record<string, unknown> }) => {
        if (node.path.length) expected.push(node.path.join('.'))
        for (const child of Object.values(node.states)) walk(child as typeof node)
      }
      walk(machine.root as never)
      expect(paths.sort(), machine.id).toEqual(expected.sort())
    }
  })

  it('spells out delays, request answers, eventless transitions and combined guards', () => {
    const socket = machineGraph(MACHINES.find((m) => m.name === 'serviceSocket')!.machine)
    expect(socket.root.kind).toBe('parallel')
    expect(socket.transitions.find((t) => t.source === 'connection.socket.connected' && t.kind === 'after')).toMatchObject({
      label: 'after pingInterval (5 s)',
      targets: ['connection.socket.connected'],
      reenter: true,
    })
    const pause = machineGraph(MACHINES.find((m) => m.name === 'pause')!.machine)
    expect(pause.transitions.filter((t) => t.label === 'done: startPause').map((t) => t.guard)).toEqual(['succeeded', null])
    expect(pause.transitions.find((t) => t.source === 'exceeded.submitting' && t.targets[0] === 'starting')?.guard).toBe('and(succeeded, isSwap)')
    expect(pause.transitions.filter((t) => t.kind === 'always').map((t) => t.targets[0])).toEqual(['swapping', 'starting'])
    const tabs = machineGraph(MACHINES.find((m) => m.name === 'tabOwnership')!.machine)
    expect(tabs.transitions.find((t) => t.source === 'takenOver')?.label).toBe('after 3 s')
    expect(tabs.states.find((s) => s.path === 'otherTab')?.meta).toMatchObject({ action: 'Atender aqui' })
    expect(guardLabel(and(['a', 'b']))).toBe('and(a, b)')
    expect(durationLabel(100)).toBe('100 ms')
  })

  it('lists the active paths of a parallel value with their ancestors', () => {
    expect([...activePaths({ connection: { socket: 'connected' }, remoteLogout: 'idle' })].sort()).toEqual(
      ['', 'connection', 'connection.socket', 'connection.socket.connected', 'remoteLogout', 'remoteLogout.idle'].sort(),
    )
  })
})

describe('machine visualizer', () => {
  beforeAll(() => activateLocale('pt-BR'))
  afterEach(cleanup)

  it("draws every machine's states and transitions from machines/index.ts", () => {
    for (const entry of MACHINES) {
      render(
        <I18nProvider i18n={i18n}>
          <MachineVisualizer selected={entry.name} onSelect={() => {}} />
        </I18nProvider>,
      )
      const view = screen.getByTestId('machine-view')
      expect(view.dataset.machine).toBe(entry.name)
      const graph = machineGraph(entry.machine)
      for (const state of graph.states.filter((s) => s.path))
        expect(view.querySelector(`[data-state="${state.path}"]`), `${entry.name} ${state.path}`).toBeTruthy()
      expect(within(screen.getByTestId('transition-table')).getAllByRole('row')).toHaveLength(graph.transitions.length + 1)
      expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(MACHINES.map((m) => m.name))
      cleanup()
    }
    // Ten machines in jsdom, the webphone's hundred-odd transitions among them: seconds on a loaded machine (the
    // project's 30 s ceiling, vitest.config.ts).
  })

  it("describes every machine in the page's language", async () => {
    for (const entry of MACHINES) expect(MACHINE_DESCRIPTIONS[entry.name], entry.name).toBeDefined()
    const visualizer = (
      <I18nProvider i18n={i18n}>
        <MachineVisualizer selected="pause" onSelect={() => {}} />
      </I18nProvider>
    )
    const { rerender } = render(visualizer)
    expect(screen.getByTestId('machine-description').textContent).toMatch(/^A pausa do agente: pendente até ficar disponível/)
    await act(() => activateLocale('es-ES'))
    rerender(visualizer)
    expect(screen.getByTestId('machine-description').textContent).toMatch(/^La pausa del agente/)
    await act(() => activateLocale('en-US'))
    rerender(visualizer)
    expect(screen.getByTestId('machine-description').textContent).toBe(MACHINES.find((m) => m.name === 'pause')!.description)
    await act(() => activateLocale('pt-BR'))
  })
})

describe('machine visualizer with the live agent system', () => {
  usePresenceHarness()

  it('highlights the current state and the last event of the signed-in user’s actor', async () => {
    api.signedIn = agent({ roles: [...agent().roles, PERMISSIONS.viewMachines] })
    const { socket } = await open('/machines?machine=tabOwnership')
    const view = await screen.findByTestId('machine-view')
    expect(view.querySelector('[data-state="claiming"]')?.getAttribute('data-active')).toBe('true')
    act(() => socket.receive({ action: 'startService' }))
    expect(view.querySelector('[data-state="serving"]')?.getAttribute('data-active')).toBe('true')
    expect(view.querySelector('[data-state="claiming"]')?.getAttribute('data-active')).toBe('false')
    expect(screen.getByTestId('machine-current').textContent).toBe('serving')
    expect(screen.getByTestId('machine-last-event').textContent).toBe('START_SERVICE')
    expect(view.querySelector('tr[data-last="true"]')?.textContent).toContain('START_SERVICE')

    fireEvent.click(screen.getByTestId('machine-tab-serviceSocket'))
    await screen.findByText('connection.socket.connected · remoteLogout.idle')
    expect(screen.getByTestId('machine-context').textContent).toContain('"serving": true')
    // Of the guarded alternatives for SOCKET_MESSAGE, only the one taken is marked.
    act(() => socket.receive({ action: 'serverPing' }))
    const taken = [...screen.getByTestId('transition-table').querySelectorAll('tr[data-last="true"]')].map((row) => row.textContent)
    expect(taken).toEqual([expect.stringContaining('isServerPing')])
  })

  it('is a page for holders of sites.view_machines only', async () => {
    const { router } = await open('/machines', { signedIn: false })
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/403'))
  })
})
