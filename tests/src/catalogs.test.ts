import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOCALES } from '../../contract/locales.ts'
import { MESSAGES } from '../../contract/messages.ts'

// The Lingui catalogs must be complete: every message of the pt-BR source exists in every catalog, and en-US and
// es-ES translate every one of them. `npm run i18n:extract` adds new ids; translators fill them in.

type Entry = { id: string; context?: string; str: string; obsolete: boolean }

function unquote(line: string): string {
  return JSON.parse(line.trim())
}

/** A small .po reader: msgctxt, msgid, msgstr with continuation lines; obsolete (#~) entries flagged. */
export function parsePo(text: string): Entry[] {
  const entries: Entry[] = []
  let current: Partial<Entry> & { field?: 'context' | 'id' | 'str' } = {}
  const flush = () => {
    if (current.id !== undefined && current.id !== '')
      entries.push({ id: current.id, context: current.context, str: current.str ?? '', obsolete: Boolean(current.obsolete) })
    current = {}
  }
  for (const raw of text.split(/\r?\n/)) {
    const obsolete = raw.startsWith('#~')
    const line = obsolete ? raw.slice(2).trim() : raw.trim()
    if (!line || (line.startsWith('#') && !obsolete)) {
      if (!line && current.str !== undefined) flush()
      continue
    }
    const match = /^(msgctxt|msgid|msgstr)\s+(".*")$/.exec(line)
    if (match) {
      const field = match[1] === 'msgctxt' ? 'context' : match[1] === 'msgid' ? 'id' : 'str'
      if ((field === 'id' && current.id !== undefined && current.str !== undefined) || (field === 'context' && current.str !== undefined)) flush()
      current[field] = unquote(match[2]!)
      current.field = field
      if (obsolete) current.obsolete = true
    } else if (line.startsWith('"') && current.field) {
      current[current.field] = (current[current.field] ?? '') + unquote(line)
    }
  }
  flush()
  return entries.filter((e) => !e.obsolete)
}

const key = (e: Entry) => (e.context ? `${e.context}\u0004${e.id}` : e.id)
const catalog = (locale: string) => parsePo(readFileSync(resolve(import.meta.dirname, `../../locales/${locale}/messages.po`), 'utf8'))

describe('translation catalogs', () => {
  const source = catalog('pt-BR')

  it('reads the source catalog', () => {
    expect(source.length).toBeGreaterThan(20)
  })

  it('parses ids, contexts and multi-line strings', () => {
    const parsed = parsePo(
      'msgid ""\nmsgstr ""\n"Language: x\\n"\n\nmsgctxt "menu"\nmsgid "A"\nmsgstr ""\n"B"\n\nmsgid "C"\nmsgstr ""\n\n#~ msgid "Old"\n#~ msgstr "Velho"\n',
    )
    expect(parsed).toEqual([
      { id: 'A', context: 'menu', str: 'B', obsolete: false },
      { id: 'C', context: undefined, str: '', obsolete: false },
    ])
  })

  for (const locale of LOCALES) {
    it(`${locale} has every message id of the source and no other`, () => {
      const ids = new Set(catalog(locale).map(key))
      const missing = source.map(key).filter((id) => !ids.has(id))
      const extra = [...ids].filter((id) => !source.some((e) => key(e) === id))
      expect(missing, `missing in ${locale}`).toEqual([])
      expect(extra, `unknown ids in ${locale}`).toEqual([])
    })
  }

  for (const locale of LOCALES.filter((l) => l !== 'pt-BR')) {
    it(`${locale} translates every message`, () => {
      const empty = catalog(locale)
        .filter((e) => !e.str.trim())
        .map((e) => e.id)
      expect(empty, `untranslated in ${locale}`).toEqual([])
    })

    it(`${locale} keeps every placeholder of the source`, () => {
      const placeholders = (s: string) => [...s.matchAll(/\{(\w+)[^}]*\}/g)].map((m) => m[1]).sort()
      const broken = catalog(locale)
        .filter((e) => JSON.stringify(placeholders(e.str)) !== JSON.stringify(placeholders(e.id)))
        .map((e) => e.id)
      expect(broken).toEqual([])
    })
  }

  it('contract/messages.ts has all three languages for every message', () => {
    for (const [name, texts] of Object.entries(MESSAGES)) {
      for (const locale of LOCALES) expect((texts as Record<string, string>)[locale]?.trim(), `${name} in ${locale}`).toBeTruthy()
    }
  })
})
