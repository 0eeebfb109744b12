import type { ComponentType } from 'react'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { ENTITIES, SECTIONS } from '../../../contract/entities/index.ts'
import type { Entity, Section } from '../../../contract/entities/index.ts'
import { BusinessIcon, ChatIcon, ContactsIcon, DialpadIcon, HeadsetIcon, TuneIcon } from '../../components/icons/icons.tsx'

// The settings sections (first segment below /settings, spec 000 §2) as the index page and the menu show them.

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
export function sectionEntities(section: Section): Entity[] {
  return ENTITIES.filter((e) => e.section === section && !e.parent)
}

export { AUDIT_LOG_PERMISSION } from './auditPermission.ts'

export { SECTIONS }
