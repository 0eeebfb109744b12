import { and, asc, eq, inArray } from 'drizzle-orm'
import type { WaTemplateDef } from '../../../contract/whatsapp/graph.ts'
import type { AppDeps } from '../../deps.ts'
import { chatTemplates, chatTemplatesParams } from '../../db/schema/index.ts'
import { graphClientFor, loadWhatsAppChannel } from './channel.ts'
import { whatsappLog } from './log.ts'

// The WABA's message templates copied into the templates entity (contract/entities/chat.ts `templates`), matched by
// channel + name + language: the body text becomes `content`, its {{1}}/{{name}} placeholders the `params` (default
// values typed by an admin are kept), a header image or video the `template_type`; only APPROVED ones are active.
// Templates that exist only here are left alone. Runs when a WhatsApp channel is saved and when Meta reports a
// template review (webhook).

const CATEGORIES = new Set(['UTILITY', 'MARKETING', 'AUTHENTICATION'])
/** Meta's bare language codes in the entity's choices; anything else is kept as Meta names it. */
const LANGUAGES: Record<string, string> = { pt: 'pt_BR', en: 'en_US', es: 'es_ES' }

export type TemplateSyncResult = { created: number; updated: number; skipped: number }

/** The placeholders of a template text, in order of first appearance. */
export function placeholders(text: string): string[] {
  const names: string[] = []
  for (const m of text.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)) if (!names.includes(m[1])) names.push(m[1])
  return names
}

type Mapped = { name: string; language: string; category: string; templateType: 'TEXT' | 'IMAGE' | 'VIDEO'; content: string; params: string[]; active: boolean }

/** The parameter name of a text header's one placeholder (Meta numbers the header's apart from the body's). */
export const HEADER_PARAM = 'header'
/** The parameter of a URL button's dynamic suffix (`https://…/{{1}}`), by the button's index: button0, button1. */
export const BUTTON_PARAM = /^button(\d)$/

/**
 * A WABA template in the entity's terms, or null when we cannot send it (a document or location header). A text
 * header goes first in `content`, its placeholder renamed {{header}} so the agent fills it apart from the body's {{1}}.
 */
export function mapTemplate(t: WaTemplateDef): Mapped | null {
  const find = (type: string) => t.components.find((c) => c.type.toUpperCase() === type)
  const header = find('HEADER')
  const format = header?.format?.toUpperCase() ?? 'TEXT'
  if (format !== 'TEXT' && format !== 'IMAGE' && format !== 'VIDEO') return null
  const body = find('BODY')?.text ?? ''
  const headerText = format === 'TEXT' ? (header?.text ?? '') : ''
  const headerHasParam = placeholders(headerText).length > 0
  const shownHeader = headerText.replace(/\{\{\s*[\w.-]+\s*\}\}/g, `{{${HEADER_PARAM}}}`)
  return {
    name: t.name,
    language: LANGUAGES[t.language] ?? t.language,
    category: CATEGORIES.has((t.category ?? '').toUpperCase()) ? t.category!.toUpperCase() : 'UTILITY',
    templateType: format,
    content: [shownHeader, body].filter(Boolean).join('\n\n'),
    params: [...(headerHasParam ? [HEADER_PARAM] : []), ...placeholders(body), ...urlButtons(t)],
    active: (t.status ?? 'APPROVED').toUpperCase() === 'APPROVED',
  }
}

/** `button<i>` for each URL button whose address ends in a placeholder. */
function urlButtons(t: WaTemplateDef): string[] {
  const buttons = t.components.find((c) => c.type.toUpperCase() === 'BUTTONS')?.buttons ?? []
  return buttons.flatMap((b, i) => ((b.type ?? '').toUpperCase() === 'URL' && /\{\{\s*[\w.-]+\s*\}\}/.test(b.url ?? '') ? [`button${i}`] : []))
}

export async function syncTemplates(deps: Pick<AppDeps, 'db'>, channelId: number): Promise<TemplateSyncResult> {
  const channel = await loadWhatsAppChannel(deps.db, channelId)
  if (!channel) throw new Error(`no WhatsApp channel ${channelId}`)
  const { templates, skipped: unreadable } = await graphClientFor(channel).listTemplates()
  const result: TemplateSyncResult = { created: 0, updated: 0, skipped: unreadable }
  for (const def of templates) {
    const t = mapTemplate(def)
    if (!t) {
      result.skipped++
      continue
    }
    await deps.db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: chatTemplates.id })
        .from(chatTemplates)
        .where(
          and(
            eq(chatTemplates.siteId, channel.siteId),
            eq(chatTemplates.channelId, channel.id),
            eq(chatTemplates.description, t.name),
            eq(chatTemplates.language, t.language),
          ),
        )
      const values = { content: t.content, category: t.category, templateType: t.templateType, isActive: t.active, updatedAt: new Date() }
      let id: number
      const defaults = new Map<string, string>()
      if (existing) {
        id = existing.id
        await tx.update(chatTemplates).set(values).where(eq(chatTemplates.id, id))
        const old = await tx
          .select({ name: chatTemplatesParams.name, value: chatTemplatesParams.value })
          .from(chatTemplatesParams)
          .where(eq(chatTemplatesParams.templateId, id))
        for (const p of old) defaults.set(p.name, p.value)
        await tx.delete(chatTemplatesParams).where(eq(chatTemplatesParams.templateId, id))
        result.updated++
      } else {
        const [row] = await tx
          .insert(chatTemplates)
          .values({ siteId: channel.siteId, channelId: channel.id, description: t.name, language: t.language, ...values })
          .returning({ id: chatTemplates.id })
        id = row.id
        result.created++
      }
      if (t.params.length) {
        await tx
          .insert(chatTemplatesParams)
          .values(t.params.map((name, position) => ({ siteId: channel.siteId, templateId: id, position, name, value: defaults.get(name) ?? '' })))
      }
    })
  }
  return result
}

const scheduled = new Map<number, NodeJS.Timeout>()

/** Syncs a channel's templates shortly (a burst of review webhooks makes one sync); failures are logged. */
export function scheduleTemplateSync(deps: Pick<AppDeps, 'db'>, channelId: number, delayMs = 2000): void {
  if (scheduled.has(channelId)) return
  const timer = setTimeout(() => {
    scheduled.delete(channelId)
    syncTemplates(deps, channelId).catch((err) => whatsappLog().warn({ err, channelId }, 'whatsapp: template sync failed'))
  }, delayMs)
  timer.unref()
  scheduled.set(channelId, timer)
}

/** A template's parameters in order, with their default values. */
export async function templateParams(deps: Pick<AppDeps, 'db'>, templateIds: number[]): Promise<Map<number, { name: string; value: string }[]>> {
  const out = new Map<number, { name: string; value: string }[]>()
  if (!templateIds.length) return out
  const rows = await deps.db
    .select({ templateId: chatTemplatesParams.templateId, name: chatTemplatesParams.name, value: chatTemplatesParams.value })
    .from(chatTemplatesParams)
    .where(inArray(chatTemplatesParams.templateId, templateIds))
    .orderBy(asc(chatTemplatesParams.templateId), asc(chatTemplatesParams.position), asc(chatTemplatesParams.id))
  for (const r of rows) out.set(r.templateId, [...(out.get(r.templateId) ?? []), { name: r.name, value: r.value }])
  return out
}
