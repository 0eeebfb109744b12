import type { ChatMessage, ChatRoom } from '../../../contract/api/chat.ts'
import type { Locale } from '../../../contract/locales.ts'

// GET export-pdf/{stepId}/: the conversation as a printable page (A4 portrait, 10 mm margins, spec 001 §9) that the
// browser's print dialog saves as PDF. Server-rendered HTML rather than a PDF library: no dependency, the text stays
// selectable and searchable, and the SPA's own html2pdf export (next issue) can reuse the same page. No script runs
// (the route's CSP forbids it); every value is escaped.

const TEXTS = {
  'pt-BR': {
    title: 'Conversa',
    channel: 'Canal',
    phone: 'Telefone',
    started: 'Início',
    ended: 'Fim',
    client: 'Cliente',
    agent: 'Agente',
    system: 'Sistema',
    attachment: 'Anexo',
    location: 'Localização',
    hidden: 'Não visível para o cliente',
  },
  'en-US': {
    title: 'Conversation',
    channel: 'Channel',
    phone: 'Phone',
    started: 'Started',
    ended: 'Ended',
    client: 'Customer',
    agent: 'Agent',
    system: 'System',
    attachment: 'Attachment',
    location: 'Location',
    hidden: 'Not visible to the customer',
  },
  'es-ES': {
    title: 'Conversación',
    channel: 'Canal',
    phone: 'Teléfono',
    started: 'Inicio',
    ended: 'Fin',
    client: 'Cliente',
    agent: 'Agente',
    system: 'Sistema',
    attachment: 'Adjunto',
    location: 'Ubicación',
    hidden: 'No visible para el cliente',
  },
} as const satisfies Record<Locale, Record<string, string>>

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** DD/MM/YYYY HH:mm:ss (spec 001 §9 display format), in UTC. */
function when(isoDate: string | null): string {
  if (!isoDate) return ''
  const d = new Date(isoDate)
  const p = (n: number) => String(n).padStart(2, '0')
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`
}

export function renderConversation(room: ChatRoom, messages: readonly ChatMessage[], lang: Locale): string {
  const t = TEXTS[lang]
  const bubbles = messages
    .map((m) => {
      const who = m.sent_by === 'client' ? t.client : m.sent_by === 'agent' ? t.agent : t.system
      const parts = [m.content ? `<p>${escape(m.content)}</p>` : '']
      if (m.attachment_name) parts.push(`<p class="meta">${t.attachment}: ${escape(m.attachment_name)}</p>`)
      if (m.location) parts.push(`<p class="meta">${t.location}: ${escape(m.location.name)} (${m.location.latitude}, ${m.location.longitude})</p>`)
      if (!m.visible) parts.push(`<p class="meta">${t.hidden}</p>`)
      return `<div class="msg ${m.sent_by}"><div class="head">${escape(m.name || who)} · ${when(m.datetime)}</div>${parts.join('')}</div>`
    })
    .join('\n')
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<title>chat-${room.id}</title>
<style>
@page { size: A4 portrait; margin: 10mm; }
body { font-family: system-ui, sans-serif; font-size: 11pt; color: #111; margin: 0; }
header { border-bottom: 1px solid #999; margin-bottom: 8mm; }
h1 { font-size: 14pt; margin: 0 0 2mm; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 1mm 4mm; margin: 0 0 4mm; }
dt { font-weight: 600; }
dd { margin: 0; }
.msg { max-width: 70%; margin: 0 0 3mm; padding: 2mm 3mm; border-radius: 2mm; break-inside: avoid; }
.msg p { margin: 1mm 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.client { background: #f1f1f1; }
.agent { background: #dcf8c6; margin-left: auto; }
.system { background: #fff8e1; margin: 0 auto 3mm; text-align: center; }
.head, .meta { font-size: 9pt; color: #555; }
</style>
</head>
<body>
<header>
<h1>${t.title} #${room.id} — ${escape(room.title)}</h1>
<dl>
<dt>${t.channel}</dt><dd>${escape(room.channel.description)}</dd>
<dt>${t.phone}</dt><dd>${escape(room.phone)}</dd>
<dt>${t.started}</dt><dd>${when(room.datetime)}</dd>
<dt>${t.ended}</dt><dd>${when(room.end)}</dd>
</dl>
</header>
<main>
${bubbles}
</main>
</body>
</html>
`
}
