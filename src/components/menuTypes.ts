import type { ComponentType } from 'react'
import type { MessageDescriptor } from '@lingui/core'
import type { RegisteredRouter } from '@tanstack/react-router'
import type { Profile } from '../../contract/api/profile.ts'
import type { Texts } from '../../contract/codes/localize.ts'

// The menu's types, in a leaf: features that add entries or badges (settings, profile) import them from here, not
// from the menu definition that imports those features. Route paths come from the registered router, so this file
// needs no import of the route tree either.

export type MenuBadge = { value: string | number; color?: 'primary' | 'danger' | 'warning' | 'success' | 'neutral' }
export type MenuContext = { profile: Profile | undefined; now: number; /** Unread chat messages (the Chats entry's badge). */ chatUnread?: number }

export type MenuItem = {
  /** Stable key, also the test handle. */
  id: string
  /** A Lingui message, a registry text in the three languages (settings entities), or a name the site gave (an interaction type). */
  label: MessageDescriptor | Texts | string
  /** Route path (absent on a group that only opens its children). */
  to?: RegisteredRouter['routeTree']['types']['fileRouteTypes']['to']
  /** Route params besides the locale (the settings splat). */
  params?: Readonly<Record<string, string>>
  permission: string
  icon: ComponentType
  badge?: (ctx: MenuContext) => MenuBadge | undefined
  children?: MenuItem[]
  /** A divider above this entry. */
  divider?: boolean
}
