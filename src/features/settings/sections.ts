import type { ComponentType } from 'react'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { SECTIONS } from '../../../contract/entities/types.ts'
import type { Section } from '../../../contract/entities/types.ts'
import { BusinessIcon, ChatIcon, ContactsIcon, DialpadIcon, HeadsetIcon, TuneIcon } from '../../components/icons/icons.tsx'
import { SETTINGS_INDEX } from './settingsIndex.gen.ts'
import type { SettingsIndexEntry } from './settingsIndex.gen.ts'

// The settings sections (first segment below /settings, spec 000 §2) as the index page and the menu show them. Both
// read the generated index (settingsIndex.gen.ts), not the registry: the menu ships with every signed-in page.

export const SECTION_LABELS: Record<Section, MessageDescriptor> = {
  business: msg`Empresa`,
  crm: msg`CRM`,
  service: msg`Atendimento`,
  pabx: msg`PABX`,
  chat: msg`Chat`,
  system: msg`Sistema e integrações`,
}

export const SECTION_ICONS: Record<Section, ComponentType> = {
  business: BusinessIcon,
  crm: ContactsIcon,
  service: HeadsetIcon,
  pabx: DialpadIcon,
  chat: ChatIcon,
  system: TuneIcon,
}

/** The entities with a page of their own in a section: sub-route entities are reached from their parent. */
export function sectionEntities(section: Section): SettingsIndexEntry[] {
  return SETTINGS_INDEX.filter((e) => e.section === section)
}

export { AUDIT_LOG_PERMISSION } from './auditPermission.ts'

export { SECTIONS }
