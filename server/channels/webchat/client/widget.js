// @ts-check
// Atende website chat widget. Embed: <script src="https://atende.example/widget.js" data-channel="TOKEN" async></script>
// Plain JavaScript checked by tsc (// @ts-check), no framework, everything inside a shadow root so the host page's CSS
// cannot reach it. Protocol: contract/realtime/visitor-socket.ts; server: server/channels/webchat/.
;(function () {
  'use strict'
  const script = document.currentScript
  if (!(script instanceof HTMLScriptElement)) return
  const channel = script.dataset.channel || ''
  const w = /** @type {Window & { __atendeWidget?: boolean }} */ (window)
  if (!channel || w.__atendeWidget) return
  w.__atendeWidget = true
  const base = new URL(script.src).origin
  const STORE = 'atende-widget:' + channel

  /** @typedef {{ id: number, uid: string, sent_by: 'client' | 'agent' | 'system', type: string, content: string, attachment: string | null, attachment_name: string | null, name: string | null, datetime: string, status: string }} Msg */
  /** @typedef {{ title: string, color: string, logo: string | null, welcome_message: string, offline_message: string, require_name: boolean, require_email: boolean, require_phone: boolean, send_attachment: boolean, online: boolean }} Config */
  /** @typedef {{ token: string, visitor_id: string, expires_at: string }} Session */

  // ---- texts (pt-BR, en-US, es-ES)
  const TEXTS = {
    pt: {
      open: 'Abrir o chat',
      close: 'Fechar o chat',
      online: 'Online',
      offline: 'Offline',
      offlineDefault: 'No momento não há atendentes disponíveis. Deixe sua mensagem que responderemos assim que possível.',
      name: 'Nome',
      email: 'E-mail',
      phone: 'Telefone',
      start: 'Iniciar conversa',
      formIntro: 'Antes de começar, conte-nos quem é você.',
      required: 'Preencha este campo.',
      badEmail: 'E-mail inválido.',
      placeholder: 'Escreva uma mensagem…',
      input: 'Mensagem',
      send: 'Enviar',
      attach: 'Anexar arquivo',
      typing: '{name} está digitando…',
      someone: 'Atendente',
      sending: 'Enviando',
      sent: 'Enviada',
      read: 'Lida',
      failed: 'Não enviada',
      ended: 'A conversa foi encerrada. Envie uma nova mensagem para recomeçar.',
      reconnecting: 'Reconectando…',
      you: 'Você',
      newMessages: '{n} mensagens novas',
      error: 'Algo deu errado. Tente novamente.',
      messages: 'Mensagens',
    },
    en: {
      open: 'Open the chat',
      close: 'Close the chat',
      online: 'Online',
      offline: 'Offline',
      offlineDefault: 'No agent is available right now. Leave a message and we will answer as soon as we can.',
      name: 'Name',
      email: 'E-mail',
      phone: 'Phone',
      start: 'Start chat',
      formIntro: 'Before we start, tell us who you are.',
      required: 'Fill in this field.',
      badEmail: 'Invalid e-mail address.',
      placeholder: 'Write a message…',
      input: 'Message',
      send: 'Send',
      attach: 'Attach a file',
      typing: '{name} is typing…',
      someone: 'Agent',
      sending: 'Sending',
      sent: 'Sent',
      read: 'Read',
      failed: 'Not sent',
      ended: 'The conversation has ended. Send a new message to start again.',
      reconnecting: 'Reconnecting…',
      you: 'You',
      newMessages: '{n} new messages',
      error: 'Something went wrong. Please try again.',
      messages: 'Messages',
    },
    es: {
      open: 'Abrir el chat',
      close: 'Cerrar el chat',
      online: 'En línea',
      offline: 'Desconectado',
      offlineDefault: 'En este momento no hay agentes disponibles. Deje su mensaje y le responderemos lo antes posible.',
      name: 'Nombre',
      email: 'Correo electrónico',
      phone: 'Teléfono',
      start: 'Iniciar conversación',
      formIntro: 'Antes de empezar, díganos quién es usted.',
      required: 'Complete este campo.',
      badEmail: 'Correo electrónico no válido.',
      placeholder: 'Escriba un mensaje…',
      input: 'Mensaje',
      send: 'Enviar',
      attach: 'Adjuntar archivo',
      typing: '{name} está escribiendo…',
      someone: 'Agente',
      sending: 'Enviando',
      sent: 'Enviado',
      read: 'Leído',
      failed: 'No enviado',
      ended: 'La conversación ha finalizado. Envíe un nuevo mensaje para empezar de nuevo.',
      reconnecting: 'Reconectando…',
      you: 'Usted',
      newMessages: '{n} mensajes nuevos',
      error: 'Algo salió mal. Inténtelo de nuevo.',
      messages: 'Mensajes',
    },
  }
  const wanted = (document.documentElement.lang || navigator.language || 'pt-BR').toLowerCase()
  const code = wanted.startsWith('en') ? 'en' : wanted.startsWith('es') ? 'es' : 'pt'
  const T = TEXTS[code]
  const LANG = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' }[code]

  // ---- state
  /** @type {Config | null} */
  let config = null
  /** @type {Session | null} */
  let session = load()
  /** @type {Map<number, Msg>} */
  const messages = new Map()
  /** Sent by this widget, not yet confirmed by the server: uid → frame. @type {Map<string, { content: string, attachment: string | null, file: { url: string, name: string, type: string } | null, failed: boolean }>} */
  const pending = new Map()
  let agentName = ''
  let agentTyping = false
  let ended = false
  let open = false
  let unread = 0
  let readUpTo = 0
  /** @type {WebSocket | null} */
  let ws = null
  let attempt = 0
  let connected = false
  /** @type {number | undefined} */
  let retryTimer
  /** @type {number | undefined} */
  let pingTimer
  let typingSentAt = 0
  /** @type {number | undefined} */
  let typingStop
  /** @type {number | undefined} */
  let typingHide

  function load() {
    try {
      const saved = /** @type {Session | null} */ (JSON.parse(localStorage.getItem(STORE) || 'null'))
      if (saved && saved.token && Date.parse(saved.expires_at) > Date.now()) return saved
    } catch (_) {
      // private mode or junk: a new session
    }
    return null
  }
  /** @param {Session | null} value */
  function save(value) {
    session = value
    try {
      if (value) localStorage.setItem(STORE, JSON.stringify(value))
      else localStorage.removeItem(STORE)
    } catch (_) {
      // storage refused: the session lasts this page
    }
  }

  // ---- DOM helpers
  /**
   * @param {string} tag
   * @param {Record<string, string>} [attrs]
   * @param {(Node | string | null | false)[]} [children]
   * @returns {HTMLElement}
   */
  function h(tag, attrs, children) {
    const node = document.createElement(tag)
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === 'text') node.textContent = value
      else node.setAttribute(key, value)
    }
    for (const child of children || []) if (child) node.append(child)
    return node
  }
  /** @param {string} path */
  function svg(path) {
    const node = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
    node.setAttribute('viewBox', '0 0 24 24')
    node.setAttribute('aria-hidden', 'true')
    node.setAttribute('focusable', 'false')
    const p = document.createElementNS('http://www.w3.org/2000/svg', 'path')
    p.setAttribute('d', path)
    node.append(p)
    return node
  }
  const ICON_CHAT = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm3 6v2h10v-2H7zm0-3v2h10V7H7zm0 6v2h6v-2H7z'
  const ICON_CLOSE = 'M18.3 5.71 12 12l6.3 6.29-1.41 1.42L10.59 13.4 4.29 19.7 2.88 18.3 9.17 12 2.88 5.71 4.29 4.29l6.3 6.3 6.29-6.3z'
  const ICON_SEND = 'M3.4 20.4 21 12 3.4 3.6 3.39 10.2 16 12 3.39 13.8z'
  const ICON_CLIP =
    'M16.5 6v11.5a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10.5a1 1 0 0 1-2 0V6H10v9.5a2.5 2.5 0 0 0 5 0V5a4 4 0 0 0-8 0v12.5a5.5 5.5 0 0 0 11 0V6h-1.5z'

  // ---- the shadow root
  const host = h('div', { id: 'atende-chat-widget' })
  host.style.cssText = 'all: initial; position: fixed; z-index: 2147483000; bottom: 0; right: 0;'
  const root = host.attachShadow({ mode: 'open' })
  const style = h('style')
  root.append(style)

  const launcher = /** @type {HTMLButtonElement} */ (
    h('button', { class: 'launcher', type: 'button', 'aria-label': T.open, 'aria-expanded': 'false', 'aria-controls': 'atende-panel' })
  )
  const badge = h('span', { class: 'badge', hidden: '' })
  launcher.append(svg(ICON_CHAT), badge)

  const titleText = h('span', { class: 'title', id: 'atende-title' })
  const statusText = h('span', { class: 'status' })
  const logo = /** @type {HTMLImageElement} */ (h('img', { class: 'logo', alt: '', hidden: '' }))
  const closeButton = h('button', { class: 'icon close', type: 'button', 'aria-label': T.close })
  closeButton.append(svg(ICON_CLOSE))
  const header = h('div', { class: 'header' }, [logo, h('div', { class: 'heading' }, [titleText, statusText]), closeButton])

  const log = h('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': T.messages, tabindex: '0' })
  const typingLine = h('div', { class: 'typing', 'aria-live': 'polite', hidden: '' })
  const notice = h('div', { class: 'notice', role: 'status', hidden: '' })
  const form = /** @type {HTMLFormElement} */ (h('form', { class: 'prechat', novalidate: '' }))
  const fileInput = /** @type {HTMLInputElement} */ (
    h('input', {
      type: 'file',
      hidden: '',
      tabindex: '-1',
      accept: 'image/jpeg,image/png,image/webp,image/gif,application/pdf,audio/mpeg,audio/ogg,audio/mp4,audio/x-m4a,video/mp4',
    })
  )
  const attachButton = h('button', { class: 'icon attach', type: 'button', 'aria-label': T.attach, title: T.attach })
  attachButton.append(svg(ICON_CLIP))
  const input = /** @type {HTMLTextAreaElement} */ (h('textarea', { rows: '1', placeholder: T.placeholder, 'aria-label': T.input, maxlength: '4096' }))
  const sendButton = h('button', { class: 'icon send', type: 'button', 'aria-label': T.send, title: T.send })
  sendButton.append(svg(ICON_SEND))
  const composer = h('div', { class: 'composer' }, [attachButton, fileInput, input, sendButton])
  const panel = h('div', { class: 'panel', id: 'atende-panel', role: 'dialog', 'aria-labelledby': 'atende-title', hidden: '' }, [
    header,
    notice,
    log,
    typingLine,
    form,
    composer,
  ])
  root.append(panel, launcher)

  function paint() {
    const color = config && /^#[0-9a-fA-F]{6}$/.test(config.color) ? config.color : '#1976d2'
    style.textContent = css(color, contrast(color))
  }

  /** Black or white text on the channel's colour, whichever reads better. @param {string} hex */
  function contrast(hex) {
    const n = parseInt(hex.slice(1), 16)
    const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
      const s = c / 255
      return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4)
    })
    const l = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return l > 0.4 ? '#111' : '#fff'
  }

  /** @param {string} c @param {string} on */
  function css(c, on) {
    return `
:host { all: initial; }
* { box-sizing: border-box; font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
[hidden] { display: none !important; }
button { font: inherit; cursor: pointer; border: 0; background: none; color: inherit; padding: 0; margin: 0; }
svg { width: 22px; height: 22px; fill: currentColor; display: block; }
:focus-visible { outline: 3px solid ${c}; outline-offset: 2px; }
.launcher { position: fixed; right: 20px; bottom: 20px; width: 58px; height: 58px; border-radius: 50%; background: ${c}; color: ${on};
  box-shadow: 0 6px 18px rgba(0,0,0,.25); display: grid; place-items: center; transition: transform .15s; }
.launcher:hover { transform: scale(1.06); }
.launcher svg { width: 28px; height: 28px; }
.launcher:focus-visible { outline-color: #111; }
.badge { position: absolute; top: -2px; right: -2px; min-width: 20px; height: 20px; padding: 0 5px; border-radius: 10px; background: #d32f2f;
  color: #fff; font-size: 12px; line-height: 20px; font-weight: 600; text-align: center; }
.panel { position: fixed; right: 20px; bottom: 90px; width: 370px; max-width: calc(100vw - 24px); height: 560px; max-height: calc(100vh - 110px);
  background: #fff; color: #1c1c1c; border-radius: 14px; box-shadow: 0 12px 40px rgba(0,0,0,.28); display: flex; flex-direction: column;
  overflow: hidden; font-size: 14px; line-height: 1.4; }
@media (max-width: 480px) {
  .panel { right: 0; bottom: 0; width: 100vw; max-width: 100vw; height: 100%; max-height: 100%; border-radius: 0; }
  .launcher[aria-expanded="true"] { display: none; }
}
.header { background: ${c}; color: ${on}; display: flex; align-items: center; gap: 10px; padding: 14px 14px 14px 16px; }
.logo { width: 36px; height: 36px; border-radius: 50%; object-fit: cover; background: #fff; }
.heading { flex: 1; display: flex; flex-direction: column; min-width: 0; }
.title { font-weight: 600; font-size: 16px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.status { font-size: 12px; opacity: .9; display: flex; align-items: center; gap: 6px; }
.status::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: #9e9e9e; }
.status.on::before { background: #4caf50; box-shadow: 0 0 0 2px rgba(255,255,255,.6); }
.icon { width: 36px; height: 36px; border-radius: 50%; display: grid; place-items: center; flex: none; }
.close:hover { background: rgba(127,127,127,.25); }
.notice { background: #fff8e1; color: #5d4300; padding: 10px 16px; font-size: 13px; border-bottom: 1px solid #f3e2a9; }
.log { flex: 1; overflow-y: auto; padding: 14px 12px; background: #f5f6f8; display: flex; flex-direction: column; gap: 6px; }
.row { display: flex; flex-direction: column; max-width: 80%; }
.row.client { align-self: flex-end; align-items: flex-end; }
.row.agent, .row.system { align-self: flex-start; align-items: flex-start; }
.who { font-size: 12px; color: #5f6368; margin: 6px 4px 2px; }
.bubble { padding: 8px 12px; border-radius: 16px; white-space: pre-wrap; word-wrap: break-word; overflow-wrap: anywhere; }
.client .bubble { background: ${c}; color: ${on}; border-bottom-right-radius: 4px; }
.agent .bubble { background: #fff; border: 1px solid #e3e5e8; border-bottom-left-radius: 4px; }
.system .bubble { background: #fff; border: 1px solid #e3e5e8; }
.meta { font-size: 11px; color: #6b7075; margin: 2px 4px 0; display: flex; gap: 4px; align-items: center; }
.tick { font-weight: 700; letter-spacing: -3px; padding-right: 3px; }
.tick.read { color: #1e88e5; }
.failed .meta { color: #c62828; }
.bubble img { display: block; max-width: 220px; max-height: 220px; border-radius: 10px; margin: 2px 0; }
.bubble.media { padding: 3px; background: #fff !important; border: 1px solid #e3e5e8; }
.bubble.media img { border-radius: 13px; margin: 0; }
.bubble audio, .bubble video { display: block; max-width: 240px; }
.bubble a { color: inherit; text-decoration: underline; }
.file { display: inline-flex; gap: 6px; align-items: center; }
.typing { padding: 4px 16px 6px; font-size: 12px; color: #5f6368; font-style: italic; background: #f5f6f8; }
.prechat { padding: 16px; display: flex; flex-direction: column; gap: 10px; border-top: 1px solid #e3e5e8; }
.prechat p { margin: 0; color: #3c4043; }
.prechat label { display: flex; flex-direction: column; gap: 4px; font-size: 13px; font-weight: 600; color: #3c4043; }
.prechat input { font: inherit; font-weight: 400; padding: 9px 10px; border: 1px solid #c4c7cc; border-radius: 8px; color: #1c1c1c; background: #fff; }
.prechat input[aria-invalid="true"] { border-color: #c62828; }
.prechat .err { color: #c62828; font-weight: 400; font-size: 12px; }
.primary { background: ${c}; color: ${on}; border-radius: 8px; padding: 10px 14px; font-weight: 600; }
.composer { display: flex; align-items: flex-end; gap: 6px; padding: 8px 8px 10px; border-top: 1px solid #e3e5e8; background: #fff; }
.composer textarea { flex: 1; resize: none; font: inherit; border: 1px solid #c4c7cc; border-radius: 18px; padding: 8px 12px; max-height: 120px;
  min-height: 38px; color: #1c1c1c; background: #fff; }
.composer textarea:focus { outline: none; border-color: ${c}; box-shadow: 0 0 0 1px ${c}; }
.attach { color: #5f6368; }
.send { color: ${c}; }
.icon:disabled { opacity: .4; cursor: default; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`
  }

  // ---- rendering
  /** @param {string} text @param {Record<string, string | number>} [params] */
  function t(text, params) {
    return text.replace(/\{(\w+)\}/g, (_, k) => String((params || {})[k] ?? ''))
  }
  /** @param {string} iso */
  function time(iso) {
    const d = new Date(iso)
    return isNaN(d.getTime()) ? '' : d.toLocaleTimeString(LANG, { hour: '2-digit', minute: '2-digit' })
  }

  /** @param {string} type @param {string | null} url @param {string | null} name */
  function attachmentNode(type, url, name) {
    if (!url) return null
    if (type === 'photo') {
      const a = h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' })
      a.append(h('img', { src: url, alt: name || '', loading: 'lazy' }))
      return a
    }
    if (type === 'audio') return h('audio', { src: url, controls: '', preload: 'none' })
    if (type === 'video') return h('video', { src: url, controls: '', preload: 'metadata' })
    return h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', class: 'file', text: '📄 ' + (name || url.split('/').pop() || '') })
  }

  /**
   * @param {{ who: 'client' | 'agent' | 'system', content: string, type: string, url: string | null, name: string | null, datetime: string, status: string, author?: string, showAuthor?: boolean }} m
   */
  function bubbleRow(m) {
    const row = h('div', { class: 'row ' + m.who + (m.status === 'failed' ? ' failed' : '') })
    if (m.showAuthor && m.author) row.append(h('div', { class: 'who', text: m.author }))
    const bubble = h('div', { class: 'bubble' + (m.type === 'photo' && m.url && !m.content ? ' media' : '') })
    const file = attachmentNode(m.type, m.url, m.name)
    if (file) bubble.append(file)
    if (m.content) bubble.append(document.createTextNode(m.content))
    row.append(bubble)
    const meta = h('div', { class: 'meta' })
    if (m.who === 'client') {
      meta.append(h('span', { class: 'sr', text: T.you + ', ' }))
      if (m.datetime) meta.append(h('span', { text: time(m.datetime) }))
      const label = m.status === 'read' ? T.read : m.status === 'sent' ? T.sent : m.status === 'failed' ? T.failed : T.sending
      const tick = h('span', {
        class: 'tick ' + m.status,
        title: label,
        text: m.status === 'read' ? '✓✓' : m.status === 'sent' ? '✓' : m.status === 'failed' ? '!' : '…',
      })
      meta.append(tick, h('span', { class: 'sr', text: label }))
    } else if (m.datetime) {
      meta.append(h('span', { text: time(m.datetime) }))
    }
    row.append(meta)
    return row
  }

  function render() {
    if (!config) return
    titleText.textContent = config.title
    statusText.textContent = config.online ? T.online : T.offline
    statusText.className = 'status' + (config.online ? ' on' : '')
    if (config.logo) {
      logo.src = config.logo
      logo.hidden = false
    }
    attachButton.hidden = !config.send_attachment
    const offline = !config.online ? config.offline_message || T.offlineDefault : ''
    notice.textContent = ended ? T.ended : offline || (session && !connected && attempt > 1 ? T.reconnecting : '')
    notice.hidden = !notice.textContent
    const needsForm = !session && (config.require_name || config.require_email || config.require_phone)
    form.hidden = !needsForm
    composer.hidden = needsForm
    renderLog()
    typingLine.textContent = agentTyping ? t(T.typing, { name: agentName || T.someone }) : ''
    typingLine.hidden = !agentTyping
    badge.textContent = String(unread)
    badge.hidden = open || unread === 0
    launcher.setAttribute('aria-label', T.open + (unread && !open ? ' (' + t(T.newMessages, { n: unread }) + ')' : ''))
  }

  function renderLog() {
    if (!config) return
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40
    const rows = []
    if (config.welcome_message)
      rows.push(bubbleRow({ who: 'system', content: config.welcome_message, type: 'text', url: null, name: null, datetime: '', status: '' }))
    let lastAuthor = ''
    for (const m of [...messages.values()].sort((a, b) => a.id - b.id)) {
      const who = m.sent_by
      const author = who === 'agent' ? m.name || T.someone : ''
      rows.push(
        bubbleRow({
          who,
          content: m.content,
          type: m.type,
          url: m.attachment,
          name: m.attachment_name,
          datetime: m.datetime,
          status: m.status,
          author,
          showAuthor: who === 'agent' && author !== lastAuthor,
        }),
      )
      lastAuthor = who === 'agent' ? author : ''
    }
    for (const p of pending.values()) {
      rows.push(
        bubbleRow({
          who: 'client',
          content: p.content,
          type: p.file ? p.file.type : 'text',
          url: p.file ? p.file.url : null,
          name: p.file ? p.file.name : null,
          datetime: '',
          status: p.failed ? 'failed' : 'sending',
        }),
      )
    }
    // Rows are replaced only when they differ, so the live region announces new messages, not the whole log.
    const old = [...log.children]
    rows.forEach((row, i) => {
      const existing = old[i]
      if (!existing) log.append(row)
      else if (existing.outerHTML !== row.outerHTML) existing.replaceWith(row)
    })
    for (let i = rows.length; i < old.length; i++) old[i]?.remove()
    if (atBottom || rows.length !== old.length) log.scrollTop = log.scrollHeight
  }

  function buildForm() {
    if (!config) return
    form.replaceChildren(h('p', { text: T.formIntro }))
    /** @type {[keyof typeof fields, string, string, string][]} */
    const wantedFields = []
    const fields = { name: config.require_name, email: config.require_email, phone: config.require_phone }
    if (fields.name) wantedFields.push(['name', T.name, 'text', 'name'])
    if (fields.email) wantedFields.push(['email', T.email, 'email', 'email'])
    if (fields.phone) wantedFields.push(['phone', T.phone, 'tel', 'tel'])
    for (const [name, label, type, autocomplete] of wantedFields) {
      const id = 'atende-f-' + name
      form.append(
        h('label', { for: id }, [
          label,
          h('input', { id, name, type, autocomplete, required: '', 'aria-describedby': id + '-err', maxlength: name === 'email' ? '254' : '100' }),
          h('span', { class: 'err', id: id + '-err', 'aria-live': 'polite' }),
        ]),
      )
    }
    form.append(h('button', { class: 'primary', type: 'submit', text: T.start }))
  }

  // ---- network
  /** @param {string} path @param {RequestInit} [init] */
  async function api(path, init) {
    const headers = new Headers(init && init.headers)
    headers.set('Accept-Language', LANG)
    if (session) headers.set('X-Visitor-Token', session.token)
    const response = await fetch(base + path, { ...init, headers, credentials: 'omit', mode: 'cors' })
    const body = await response.json().catch(() => ({}))
    return { ok: response.ok, status: response.status, body }
  }

  async function loadConfig() {
    const answer = await api('/widget/config/' + encodeURIComponent(channel))
    if (!answer.ok) return false
    config = /** @type {Config} */ (answer.body)
    paint()
    buildForm()
    render()
    return true
  }

  /** @param {Record<string, string>} profile */
  async function createSession(profile) {
    const answer = await api('/widget/sessions/' + encodeURIComponent(channel), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(profile),
    })
    if (answer.ok) {
      save(/** @type {Session} */ (answer.body))
      messages.clear()
      ended = false
      connect()
    }
    return answer
  }

  function connect() {
    if (!session || ws) return
    clearTimeout(retryTimer)
    const url = base.replace(/^http/, 'ws') + '/widget/socket/' + encodeURIComponent(channel)
    const socket = new WebSocket(url)
    ws = socket
    socket.onopen = () => {
      attempt = 0
      connected = true
      const last = [...messages.keys()].reduce((a, b) => Math.max(a, b), 0)
      socket.send(JSON.stringify({ action: 'hello', token: session ? session.token : '', cursor: last || null }))
      clearInterval(pingTimer)
      pingTimer = window.setInterval(() => socket.readyState === 1 && socket.send('{"action":"ping"}'), 20000)
    }
    socket.onmessage = (event) => {
      try {
        receive(JSON.parse(String(event.data)))
      } catch (_) {
        // not for us
      }
    }
    socket.onclose = (event) => {
      ws = null
      connected = false
      clearInterval(pingTimer)
      if (event.code === 4401) {
        // The session is no good any more (expired, channel changed): start over.
        save(null)
        messages.clear()
        pending.clear()
        render()
        return
      }
      attempt++
      const delay = Math.min(30000, 1000 * Math.pow(2, Math.min(attempt - 1, 5))) * (0.75 + Math.random() / 2)
      retryTimer = window.setTimeout(connect, delay)
      render()
    }
  }

  /** @param {any} frame */
  function receive(frame) {
    switch (frame.action) {
      case 'ready':
        if (config) config.online = !!frame.online
        flushPending()
        break
      case 'messages':
        for (const m of frame.messages) accept(m)
        break
      case 'message':
        if (frame.message.sent_by !== 'client' && !open) unread++
        accept(frame.message)
        if (frame.message.sent_by === 'agent') agentTyping = false
        break
      case 'status':
        for (const id of frame.ids) {
          const m = messages.get(id)
          if (m) m.status = frame.status
        }
        break
      case 'agent':
        agentName = frame.name
        break
      case 'typing':
        // The agent side says when typing starts; it stops with their message, or after a quiet while.
        agentTyping = !!frame.typing
        clearTimeout(typingHide)
        if (agentTyping) typingHide = window.setTimeout(() => ((agentTyping = false), render()), 7000)
        break
      case 'ended':
        ended = true
        agentTyping = false
        break
      case 'ping':
        if (ws && ws.readyState === 1) ws.send('{"action":"pong"}')
        return
      case 'error':
        if (frame.request === 'message') for (const p of pending.values()) p.failed = true
        break
      default:
        return
    }
    render()
    markRead()
  }

  /** @param {Msg} m */
  function accept(m) {
    messages.set(m.id, m)
    pending.delete(m.uid)
    if (m.sent_by === 'agent' && m.name) agentName = m.name
    if (m.sent_by === 'client') ended = false
  }

  function flushPending() {
    for (const [uid, p] of pending) {
      p.failed = false
      ws && ws.readyState === 1 && ws.send(JSON.stringify({ action: 'message', uid, content: p.content, attachment: p.attachment }))
    }
  }

  function markRead() {
    if (!open || !ws || ws.readyState !== 1 || document.hidden) return
    let last = 0
    for (const m of messages.values()) if (m.sent_by !== 'client' && m.id > last) last = m.id
    if (last > readUpTo) {
      readUpTo = last
      ws.send(JSON.stringify({ action: 'read', up_to: last }))
    }
  }

  function uid() {
    return crypto.randomUUID ? crypto.randomUUID() : Date.now().toString(16) + '-' + Math.random().toString(16).slice(2, 14)
  }

  /** @param {string} content @param {{ id: string, url: string, name: string, type: string } | null} file */
  async function sendMessage(content, file) {
    if (!session) {
      const answer = await createSession({})
      if (!answer.ok) return showError(answer.body)
    }
    const id = uid()
    pending.set(id, { content, attachment: file ? file.id : null, file, failed: false })
    ended = false
    if (ws && ws.readyState === 1) ws.send(JSON.stringify({ action: 'message', uid: id, content, attachment: file ? file.id : null }))
    else connect()
    render()
    log.scrollTop = log.scrollHeight
  }

  /** @param {any} body */
  function showError(body) {
    const detail = body && (body.detail || (body.file && body.file[0]) || (body.content && body.content[0]))
    notice.textContent = detail || T.error
    notice.hidden = false
  }

  /** @param {boolean} typing */
  function sendTyping(typing) {
    if (!ws || ws.readyState !== 1) return
    ws.send(JSON.stringify({ action: 'typing', typing }))
  }

  // ---- events
  function toggle(next = !open) {
    open = next
    panel.hidden = !open
    launcher.setAttribute('aria-expanded', String(open))
    if (open) {
      unread = 0
      render()
      log.scrollTop = log.scrollHeight
      const first = /** @type {HTMLElement | null} */ (form.hidden ? input : form.querySelector('input'))
      first && first.focus()
      markRead()
    } else {
      launcher.focus()
    }
    render()
  }
  launcher.addEventListener('click', () => toggle())
  closeButton.addEventListener('click', () => toggle(false))
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') toggle(false)
  })
  document.addEventListener('visibilitychange', markRead)

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    /** @type {Record<string, string>} */
    const profile = {}
    let firstBad = /** @type {HTMLInputElement | null} */ (null)
    for (const field of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll('input'))) {
      const err = /** @type {HTMLElement} */ (form.querySelector('#' + field.id + '-err'))
      const value = field.value.trim()
      const badEmail = !!value && field.type === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
      const bad = !value || badEmail
      field.setAttribute('aria-invalid', String(bad))
      err.textContent = badEmail ? T.badEmail : bad ? T.required : ''
      if (bad && !firstBad) firstBad = field
      profile[field.name] = value
    }
    if (firstBad) return firstBad.focus()
    const answer = await createSession(profile)
    if (!answer.ok) {
      for (const [name, errors] of Object.entries(answer.body || {})) {
        const err = form.querySelector('#atende-f-' + name + '-err')
        if (err && Array.isArray(errors)) err.textContent = errors[0]
      }
      if (answer.body && answer.body.detail) showError(answer.body)
      return
    }
    render()
    input.focus()
  })

  function submitInput() {
    const content = input.value
    if (!content.trim()) return
    input.value = ''
    grow()
    clearTimeout(typingStop)
    typingSentAt = 0
    sendTyping(false)
    void sendMessage(content.trim(), null)
  }
  function grow() {
    input.style.height = 'auto'
    input.style.height = Math.min(120, input.scrollHeight + 2) + 'px'
  }
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault()
      submitInput()
    }
  })
  input.addEventListener('input', () => {
    grow()
    const now = Date.now()
    if (now - typingSentAt > 3000) {
      typingSentAt = now
      sendTyping(true)
    }
    clearTimeout(typingStop)
    typingStop = window.setTimeout(() => {
      typingSentAt = 0
      sendTyping(false)
    }, 4000)
  })
  sendButton.addEventListener('click', submitInput)
  attachButton.addEventListener('click', () => fileInput.click())
  fileInput.addEventListener('change', async () => {
    const file = fileInput.files && fileInput.files[0]
    fileInput.value = ''
    if (!file) return
    if (!session) {
      const created = await createSession({})
      if (!created.ok) return showError(created.body)
    }
    const body = new FormData()
    body.append('file', file, file.name)
    const answer = await api('/widget/attachments/' + encodeURIComponent(channel), { method: 'POST', body })
    if (!answer.ok) return showError(answer.body)
    await sendMessage('', answer.body)
  })

  // ---- start: nothing shows unless the channel answers (unknown token, or a site not among its allowed domains)
  paint()
  loadConfig().then((ok) => {
    if (!ok) return
    const show = () => document.body.append(host)
    if (document.body) show()
    else document.addEventListener('DOMContentLoaded', show)
    if (session) connect()
  })
})()
