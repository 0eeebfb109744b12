import type { Locale } from '../../../contract/locales.ts'

// /widget-demo: a made-up company's page with the demo webchat channel's widget on it, so a newcomer chats as a
// visitor while signed in elsewhere as an agent. A plain page of its own (no SPA), the embed exactly as a customer's.

const TEXTS: Record<Locale, { title: string; lead: string; body: string; hint: string; none: string; menu: string[] }> = {
  'pt-BR': {
    title: 'Padaria Aurora',
    lead: 'Pães de fermentação natural, feitos todos os dias desde 1998.',
    body: 'Encomendas, horários e entregas: fale com a gente pelo chat no canto da tela.',
    hint: 'Página de demonstração do widget de chat do Atende. As mensagens chegam aos agentes conectados ao canal “Chat do site”.',
    none: 'Nenhum canal de chat do site ativo: crie um em Configurações → Chat → Canais.',
    menu: ['Início', 'Cardápio', 'Encomendas', 'Contato'],
  },
  'en-US': {
    title: 'Aurora Bakery',
    lead: 'Sourdough bread, baked every day since 1998.',
    body: 'Orders, opening hours and deliveries: talk to us in the chat at the corner of the screen.',
    hint: 'Demo page of the Atende chat widget. Messages reach the agents logged in to the “Chat do site” channel.',
    none: 'No active website chat channel: create one in Settings → Chat → Channels.',
    menu: ['Home', 'Menu', 'Orders', 'Contact'],
  },
  'es-ES': {
    title: 'Panadería Aurora',
    lead: 'Pan de masa madre, horneado cada día desde 1998.',
    body: 'Pedidos, horarios y entregas: hable con nosotros por el chat en la esquina de la pantalla.',
    hint: 'Página de demostración del widget de chat de Atende. Los mensajes llegan a los agentes conectados al canal “Chat do site”.',
    none: 'Ningún canal de chat del sitio activo: cree uno en Configuración → Chat → Canales.',
    menu: ['Inicio', 'Carta', 'Pedidos', 'Contacto'],
  },
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function demoPage(lang: Locale, channelToken: string | null): string {
  const t = TEXTS[lang] ?? TEXTS['pt-BR']
  const embed = channelToken ? `<script src="/widget.js" data-channel="${escape(channelToken)}" async></script>` : ''
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escape(t.title)}</title>
<style>
  /* Deliberately hostile to widgets: global resets a real site might have. */
  * { box-sizing: content-box; font-family: Georgia, serif !important; }
  button { background: hotpink; border: 3px dashed black; }
  body { margin: 0; background: #fbf6ee; color: #3b2f22; }
  header { background: #7a4b24; color: #fff; padding: 20px 40px; display: flex; gap: 32px; align-items: center; }
  header h1 { margin: 0; font-size: 26px; }
  nav a { color: #fde9cf; margin-right: 18px; text-decoration: none; }
  main { max-width: 760px; margin: 40px auto; padding: 0 24px; line-height: 1.6; }
  .hero { background: linear-gradient(135deg, #e8c79a, #c98f55); border-radius: 12px; height: 220px; margin: 24px 0; }
  .hint { font-size: 14px; background: #fff; border-left: 4px solid #7a4b24; padding: 12px 16px; }
</style>
</head>
<body>
<header><h1>${escape(t.title)}</h1><nav>${t.menu.map((item) => `<a href="#">${escape(item)}</a>`).join('')}</nav></header>
<main>
<p><strong>${escape(t.lead)}</strong></p>
<div class="hero" role="img" aria-label="${escape(t.title)}"></div>
<p>${escape(t.body)}</p>
<p class="hint">${escape(channelToken ? t.hint : t.none)}</p>
</main>
${embed}
</body>
</html>
`
}
