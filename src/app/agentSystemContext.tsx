import { moduleOn } from '../../contract/modules.ts'
import { createContext, useContext, useEffect, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import { useSelector } from '@xstate/react'
import type { SnapshotFrom } from 'xstate'
import { useLingui } from '@lingui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useRouter, useRouterState } from '@tanstack/react-router'
import type { Locale } from '../../contract/locales.ts'
import { useProfile } from '../api/useProfile.ts'
import { createAgentSystem } from './agentSystem.ts'
import type { AgentActorName, AgentActors, AgentSystem, AgentSystemEffects } from './agentSystem.ts'
import { browserEffects, chatSocketUrl, newTabId, serviceSocketUrl } from './agentSystemEffects.ts'
import { localeParam } from './locale.ts'
import { has, PERMISSIONS } from '../../contract/permissions.ts'

// The agent system of the signed-in user, for the views: started when the signed-in layout mounts, stopped when it
// unmounts (sign-out, error pages). Views read actors through useAgentSelector and send events to useAgentActor.

const AgentSystemContext = createContext<AgentSystem | null>(null)

type Props = {
  children: ReactNode
  /** Tests replace the browser's effects. */
  effects?: (defaults: AgentSystemEffects) => AgentSystemEffects
}

export function AgentSystemProvider({ children, effects }: Props) {
  const profile = useProfile()
  const queryClient = useQueryClient()
  const router = useRouter()
  const { i18n } = useLingui()
  const page = useRouterState({ select: (state) => state.location.pathname })
  const [system, setSystem] = useState<AgentSystem | null>(null)
  // Read when the system starts; a profile refetch (updateUser) must not restart it.
  const latest = useRef({ profile, page, effects })
  latest.current = { profile, page, effects }

  useEffect(() => {
    const { profile, page, effects: override } = latest.current
    const locale = (i18n.locale || 'pt-BR') as Locale
    const logout = () => void router.navigate({ to: '/{-$locale}/logout', params: { locale: localeParam((i18n.locale || 'pt-BR') as Locale) } })
    const openChats = () => void router.navigate({ to: '/{-$locale}/chats', params: { locale: localeParam((i18n.locale || 'pt-BR') as Locale) } })
    const defaults = browserEffects({ i18n, queryClient, logout, openChats })
    const started = createAgentSystem(
      {
        userId: profile.id,
        roles: profile.roles,
        endpoint: profile.voip?.endpoint ?? null,
        token: null,
        locale,
        page,
        tabId: newTabId(),
        socketUrl: serviceSocketUrl(),
        // The webphone feeds the telephony status for users with the softphone and voip data (spec 000 §6).
        // Neither runs while the site has turned its module off (system/base/modules).
        webphone: has(profile.roles, PERMISSIONS.viewSoftphone) && moduleOn(profile.site?.modules, 'telephony') && !!profile.voip,
        voip: profile.voip,
        team: profile.team,
        chat:
          has(profile.roles, PERMISSIONS.viewChat) && moduleOn(profile.site?.modules, 'chat')
            ? { socketUrl: chatSocketUrl(), token: null, team: profile.team ?? null, signedIn: !!profile.userextra?.login_channel_chat }
            : null,
      },
      override ? override(defaults) : defaults,
    )
    setSystem(started)
    return () => {
      // Leaving for /logout is a sign-out: the socket hears it before it closes.
      started.stop({ signingOut: /\/logout\/?$/.test(router.state.location.pathname) })
      setSystem(null)
    }
  }, [profile.id, i18n, queryClient, router])

  useEffect(() => {
    system?.pageChanged(page)
  }, [system, page])

  // A refetched profile (updateUser) brings new voip data or team flags to the running webphone.
  const { voip, team } = profile
  const softphone = has(profile.roles, PERMISSIONS.viewSoftphone) && moduleOn(profile.site?.modules, 'telephony')
  useEffect(() => {
    system?.get('webphone').send({ type: 'PROFILE', voip: softphone ? voip : null, team })
  }, [system, softphone, voip, team])

  return <AgentSystemContext.Provider value={system}>{children}</AgentSystemContext.Provider>
}

/** The running system, or null before it started (the first render) and outside the signed-in layout. */
export function useAgentSystem(): AgentSystem | null {
  return useContext(AgentSystemContext)
}

/** One actor of the system; only below a component that checked useAgentSystem(). */
export function useAgentActor<K extends AgentActorName>(name: K): AgentActors[K] {
  const system = useAgentSystem()
  if (!system) throw new Error(`useAgentActor('${name}') used before the agent system started`)
  return system.get(name)
}

export function useAgentSelector<K extends AgentActorName, T>(
  name: K,
  selector: (snapshot: SnapshotFrom<AgentActors[K]>) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelector(useAgentActor(name), selector as (snapshot: unknown) => T, compare)
}
