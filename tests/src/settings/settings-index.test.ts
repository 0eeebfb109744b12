import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ENTITIES } from '../../../contract/entities/index.ts'
import { SECTIONS } from '../../../contract/entities/types.ts'
import { filterMenu } from '../../../src/shell/menu/filterMenu.ts'
import { MENU } from '../../../src/shell/menu/menuItems.ts'
import type { MenuItem } from '../../../src/components/menuTypes.ts'
import { parseSettingsPath } from '../../../src/entities/paths.ts'
import { SETTINGS_INDEX_FILE, settingsIndexSource } from '../../../src/features/settings/generateSettingsIndex.ts'
import { sectionEntities } from '../../../src/features/settings/sections.ts'
import { SETTINGS_INDEX } from '../../../src/features/settings/settingsIndex.gen.ts'

// The side menu and the settings overview read a generated index instead of the registry (the shell stays light):
// it must say exactly what the registry says.

const settings = (menu: MenuItem[]) => menu.find((i) => i.id === 'settings')

describe('the generated settings index', () => {
  it('is up to date with contract/entities (npm exec -- node src/features/settings/generateSettingsIndex.ts)', () => {
    expect(readFileSync(SETTINGS_INDEX_FILE, 'utf8')).toBe(settingsIndexSource())
  })

  it('lists every entity with a page of its own, with its label, list path and view permission', () => {
    const topLevel = ENTITIES.filter((e) => !e.parent && e.home === 'settings')
    expect(SETTINGS_INDEX.map((e) => e.key)).toEqual(topLevel.map((e) => e.key))
    for (const entry of SETTINGS_INDEX) {
      const entity = topLevel.find((e) => e.key === entry.key)!
      expect(entry.label).toEqual(entity.label.plural)
      expect(entry.permission).toBe(entity.permissions.view)
      expect(entry.section).toBe(entity.section)
      expect(parseSettingsPath(entry.path)).toEqual({ entity, kind: 'list' })
    }
  })

  it('gives the menu one submenu per section holding its entities, each behind its own view permission', () => {
    const sections = settings(MENU)!.children!.filter((c) => c.id !== 'settings-index')
    expect(sections.map((s) => s.id)).toEqual(SECTIONS.map((s) => `settings-${s}`))
    for (const section of SECTIONS) {
      const items = sections.find((s) => s.id === `settings-${section}`)!.children!.filter((c) => c.id !== 'settings-audit-log' && c.id !== 'settings-modules')
      expect(items.map((i) => i.id)).toEqual(sectionEntities(section).map((e) => `settings-${e.key}`))
      expect(items.map((i) => i.params?._splat)).toEqual(sectionEntities(section).map((e) => e.path))
    }
    const queues = SETTINGS_INDEX.find((e) => e.key === 'pabx.queues')!
    const visible = filterMenu(MENU, ['sites.view_settings', queues.permission])
    expect(settings(visible)!.children!.flatMap((s) => s.children?.map((c) => c.id) ?? [])).toEqual(['settings-pabx.queues'])
  })
})
