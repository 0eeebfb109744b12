// The page where a person plays the customer (GET / on the simulator): plain HTML and a little vanilla JS over the
// control API. Pick a business number, a customer number and name; write, send a photo or a file, share a location;
// the agent's replies arrive live (server-sent events) with their ticks. While the page is open and visible the
// customer "has the chat open": replies are read at once, as on a phone.

const STRINGS = {
  'pt-BR': {
    title: 'Simulador do WhatsApp',
    business: 'Número da empresa',
    customer: 'Seu número',
    name: 'Seu nome',
    type: 'Mensagem',
    send: 'Enviar',
    photo: 'Enviar foto ou arquivo',
    location: 'Enviar localização',
    locationPrompt: 'Latitude, longitude',
    noNumbers: 'Nenhum número de empresa. Crie um pela API de controle (POST /control/numbers).',
    empty: 'Nenhuma mensagem ainda. Diga olá!',
    windowOpen: 'Janela de 24 h aberta',
    windowClosed: 'Janela de 24 h fechada: a empresa só pode enviar templates',
    failed: 'Falhou',
    connected: 'conectado',
    offline: 'sem conexão',
    settings: 'Configurações',
    contact: 'Contato',
    reacted: 'reagiu',
    changedNumber: 'mudou de número',
    language: 'Idioma',
    sendError: 'Não foi possível enviar',
    voice: 'Mensagem de voz',
    document: 'Documento',
    myLocation: 'Minha localização',
  },
  'en-US': {
    title: 'WhatsApp simulator',
    business: 'Business number',
    customer: 'Your number',
    name: 'Your name',
    type: 'Message',
    send: 'Send',
    photo: 'Send a photo or file',
    location: 'Send location',
    locationPrompt: 'Latitude, longitude',
    noNumbers: 'No business numbers. Create one with the control API (POST /control/numbers).',
    empty: 'No messages yet. Say hello!',
    windowOpen: '24-hour window open',
    windowClosed: '24-hour window closed: the business may only send templates',
    failed: 'Failed',
    connected: 'connected',
    offline: 'offline',
    settings: 'Settings',
    contact: 'Contact',
    reacted: 'reacted',
    changedNumber: 'changed number',
    language: 'Language',
    sendError: 'Could not send',
    voice: 'Voice message',
    document: 'Document',
    myLocation: 'My location',
  },
  'es-ES': {
    title: 'Simulador de WhatsApp',
    business: 'Número de la empresa',
    customer: 'Tu número',
    name: 'Tu nombre',
    type: 'Mensaje',
    send: 'Enviar',
    photo: 'Enviar foto o archivo',
    location: 'Enviar ubicación',
    locationPrompt: 'Latitud, longitud',
    noNumbers: 'No hay números de empresa. Cree uno con la API de control (POST /control/numbers).',
    empty: 'Aún no hay mensajes. ¡Saluda!',
    windowOpen: 'Ventana de 24 h abierta',
    windowClosed: 'Ventana de 24 h cerrada: la empresa solo puede enviar plantillas',
    failed: 'Falló',
    connected: 'conectado',
    offline: 'sin conexión',
    settings: 'Configuración',
    contact: 'Contacto',
    reacted: 'reaccionó',
    changedNumber: 'cambió de número',
    language: 'Idioma',
    sendError: 'No se pudo enviar',
    voice: 'Mensaje de voz',
    document: 'Documento',
    myLocation: 'Mi ubicación',
  },
}

const CSS = `
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{font:15px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;background:#d1d7db;color:#111b21;display:flex;justify-content:center}
.app{display:flex;flex-direction:column;width:100%;max-width:760px;height:100%;background:#efeae2;box-shadow:0 0 12px rgba(0,0,0,.15)}
header{background:#008069;color:#fff;padding:10px 14px;display:flex;align-items:center;gap:12px}
.avatar{width:40px;height:40px;border-radius:50%;background:#dfe5e7;color:#008069;display:grid;place-items:center;font-weight:600;flex:none}
.who{flex:1;min-width:0}
.who b{display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.who small{opacity:.85}
header button{background:none;border:0;color:#fff;font-size:22px;cursor:pointer;padding:4px 8px;border-radius:50%}
header button:hover{background:rgba(255,255,255,.15)}
.settings{background:#f0f2f5;padding:10px 14px;display:grid;grid-template-columns:repeat(auto-fit,minmax(160px,1fr));gap:8px 12px;border-bottom:1px solid #d1d7db}
.settings[hidden]{display:none}
.settings label{display:flex;flex-direction:column;font-size:12px;color:#54656f;gap:3px}
.settings input,.settings select{font:inherit;padding:6px 8px;border:1px solid #d1d7db;border-radius:6px;background:#fff;color:#111b21}
.banner{font-size:12.5px;text-align:center;padding:5px 10px;background:#fff3c4;color:#54656f}
.banner.open{background:#d9fdd3}
main{flex:1;overflow-y:auto;padding:14px 6%;display:flex;flex-direction:column;gap:4px;background-color:#efeae2;background-image:radial-gradient(rgba(0,0,0,.035) 1px,transparent 1px);background-size:18px 18px}
.empty{margin:auto;background:#fff;padding:8px 14px;border-radius:8px;color:#54656f;font-size:13.5px;box-shadow:0 1px .5px rgba(11,20,26,.13)}
.msg{max-width:min(78%,460px);padding:6px 8px 4px;border-radius:8px;box-shadow:0 1px .5px rgba(11,20,26,.13);position:relative;word-wrap:break-word;white-space:pre-wrap}
.msg.in{align-self:flex-end;background:#d9fdd3;border-top-right-radius:0}
.msg.out{align-self:flex-start;background:#fff;border-top-left-radius:0}
.msg.failed{background:#fde2e1}
.placeholder{display:grid;place-items:center;width:220px;max-width:100%;height:120px;background:#dfe5e7;border-radius:6px;margin-bottom:4px;font-size:34px;color:#8696a0}
.msg img,.msg video{display:block;max-width:100%;max-height:320px;border-radius:6px;margin-bottom:4px}
.msg audio{display:block;max-width:100%;margin:2px 0 4px}
.msg .meta{float:right;margin:6px 0 0 10px;font-size:11px;color:#667781;display:flex;gap:3px;align-items:center;white-space:nowrap}
.ticks{font-size:13px;font-weight:700;letter-spacing:-5px;padding-right:5px;color:#8696a0}
.ticks.read{color:#1fa3ec}
.ticks.failed{color:#d93025;letter-spacing:0}
.quote{border-left:4px solid #06cf9c;background:rgba(0,0,0,.05);padding:4px 8px;border-radius:4px;margin-bottom:4px;font-size:13px;color:#54656f;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.tpl-header{font-weight:600;margin-bottom:4px}
.tpl-footer{font-size:12.5px;color:#667781;margin-top:4px}
.buttons{display:flex;flex-direction:column;gap:1px;margin:6px -8px -4px;border-top:1px solid #e9edef}
.buttons button{background:none;border:0;border-top:1px solid #e9edef;color:#027eb5;font:inherit;padding:8px;cursor:pointer}
.buttons button:first-child{border-top:0}
.buttons button:hover{background:#f5f6f6}
.card{display:flex;gap:8px;align-items:center;text-decoration:none;color:inherit}
.card .icon{font-size:28px}
.system{align-self:center;background:#fff;color:#54656f;font-size:12.5px;padding:4px 10px;border-radius:8px;margin:4px 0;box-shadow:0 1px .5px rgba(11,20,26,.13)}
.error{clear:both;color:#d93025;font-size:12px;padding-top:2px}
footer{display:flex;align-items:flex-end;gap:6px;padding:8px 10px;background:#f0f2f5}
footer textarea{flex:1;resize:none;font:inherit;padding:9px 12px;border:0;border-radius:8px;max-height:120px;min-height:40px;outline:none;background:#fff}
.round{flex:none;width:40px;height:40px;border-radius:50%;border:0;cursor:pointer;font-size:19px;display:grid;place-items:center;background:transparent;color:#54656f}
.round:hover{background:#e4e7e9}
.round.send{background:#008069;color:#fff}
.round.send:hover{background:#017561}
.round:disabled{opacity:.5;cursor:default}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
@media (max-width:560px){main{padding:10px 3%}.msg{max-width:88%}}
`

const SCRIPT = `
const STRINGS = __STRINGS__;
const $ = (s) => document.querySelector(s);
const pick = (l) => (STRINGS[l] ? l : l && l.startsWith('es') ? 'es-ES' : l && l.startsWith('en') ? 'en-US' : 'pt-BR');
const params = new URLSearchParams(location.search);
let lang = pick(params.get('lang') || localStorage.getItem('wa-sim-lang') || navigator.language);
let numbers = [];
let conv = null;
let source = null;
const T = (k) => STRINGS[lang][k];
const el = (tag, props, ...children) => {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const c of children) if (c != null) node.append(c);
  return node;
};
const cfg = () => ({ phone_number_id: $('#business').value, wa_id: $('#customer').value.replace(/\\D/g, ''), name: $('#name').value.trim() });

function applyLanguage() {
  document.documentElement.lang = lang;
  document.title = T('title');
  for (const node of document.querySelectorAll('[data-t]')) node.textContent = T(node.dataset.t);
  for (const node of document.querySelectorAll('[data-tt]')) { node.title = T(node.dataset.tt); node.setAttribute('aria-label', T(node.dataset.tt)); }
  $('#text').placeholder = T('type');
  $('#lang').value = lang;
  render();
}

async function loadNumbers() {
  numbers = await (await fetch('/control/numbers')).json();
  const select = $('#business');
  select.replaceChildren(...numbers.map((n) => el('option', { value: n.phone_number_id, textContent: '+' + n.display_phone_number + ' · ' + n.verified_name })));
  const saved = params.get('phone_number_id') || localStorage.getItem('wa-sim-business');
  if (numbers.some((n) => n.phone_number_id === saved)) select.value = saved;
  if (!numbers.length) $('#settings').hidden = false;
}

function connect() {
  if (source) source.close();
  source = null;
  const c = cfg();
  localStorage.setItem('wa-sim-business', c.phone_number_id);
  localStorage.setItem('wa-sim-customer', c.wa_id);
  localStorage.setItem('wa-sim-name', c.name);
  const business = numbers.find((n) => n.phone_number_id === c.phone_number_id);
  $('#who').textContent = business ? business.verified_name : T('title');
  $('#avatar').textContent = business ? business.verified_name.slice(0, 1).toUpperCase() : '?';
  if (!business || c.wa_id.length < 8 || document.visibilityState !== 'visible') { conv = null; render(); return; }
  const q = new URLSearchParams({ ...c, open: '1' });
  source = new EventSource('/control/events?' + q);
  source.onmessage = (e) => { conv = JSON.parse(e.data); render(); };
  source.onopen = () => { $('#state').textContent = '+' + business.display_phone_number + ' · ' + T('connected'); };
  source.onerror = () => { $('#state').textContent = T('offline'); };
}

function time(ms) { return new Date(ms).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' }); }

function ticks(status) {
  if (status === 'failed') return el('span', { className: 'ticks failed', textContent: '!', title: T('failed') });
  const n = status === 'delivered' || status === 'read' ? '✓✓' : status === 'sent' ? '✓' : '🕓';
  return el('span', { className: 'ticks' + (status === 'read' ? ' read' : ''), textContent: n, title: status });
}

function mediaSrc(obj) { return obj.id ? '/control/media/' + encodeURIComponent(obj.id) : obj.link; }

function findText(id) {
  const m = conv && conv.messages.find((x) => x.id === id);
  if (!m) return '…';
  const p = m.payload;
  return (p.text && p.text.body) || (m.rendered && m.rendered.body) || (p[m.type] && p[m.type].caption) || m.type;
}

function mediaNode(type, obj) {
  const src = mediaSrc(obj);
  if (type === 'image' || type === 'sticker') {
    const img = el('img', { src, alt: obj.caption || type });
    img.onload = stick;
    img.onerror = () => img.replaceWith(el('div', { className: 'placeholder', textContent: '🖼' }));
    return img;
  }
  if (type === 'video') return el('video', { src, controls: true, preload: 'metadata', onloadedmetadata: stick });
  if (type === 'audio') return el('div', {}, obj.voice ? el('small', { textContent: '🎤 ' + T('voice') }) : null, el('audio', { src, controls: true }));
  return el('a', { className: 'card', href: src, target: '_blank', rel: 'noopener' }, el('span', { className: 'icon', textContent: '📄' }), el('span', { textContent: obj.filename || T('document') }));
}

function body(m) {
  const p = m.payload;
  const parts = [];
  const ctx = p.context && (p.context.message_id || p.context.id);
  if (ctx) parts.push(el('div', { className: 'quote', textContent: findText(ctx) }));
  switch (m.type) {
    case 'text': parts.push(el('span', { textContent: p.text.body })); break;
    case 'image': case 'video': case 'audio': case 'document': case 'sticker': {
      const obj = p[m.type];
      parts.push(mediaNode(m.type, obj));
      if (obj.caption) parts.push(el('span', { textContent: obj.caption }));
      break;
    }
    case 'location': {
      const l = p.location;
      const href = 'https://www.openstreetmap.org/?mlat=' + l.latitude + '&mlon=' + l.longitude + '#map=16/' + l.latitude + '/' + l.longitude;
      parts.push(el('a', { className: 'card', href, target: '_blank', rel: 'noopener' }, el('span', { className: 'icon', textContent: '📍' }),
        el('span', {}, el('b', { textContent: l.name || T('myLocation') }), el('br'), el('small', { textContent: l.address || (l.latitude + ', ' + l.longitude) }))));
      break;
    }
    case 'contacts':
      for (const c of p.contacts) parts.push(el('div', { className: 'card' }, el('span', { className: 'icon', textContent: '👤' }),
        el('span', {}, el('b', { textContent: c.name.formatted_name }), el('br'), el('small', { textContent: (c.phones || []).map((x) => x.phone).join(', ') }))));
      break;
    case 'template': {
      const r = m.rendered || { body: p.template.name, buttons: [] };
      if (r.header && r.header.text) parts.push(el('div', { className: 'tpl-header', textContent: r.header.text }));
      if (r.header && r.header.media) { const k = r.header.format.toLowerCase(); const obj = r.header.media[k]; if (obj) parts.push(mediaNode(k, obj)); }
      parts.push(el('span', { textContent: r.body }));
      if (r.footer) parts.push(el('div', { className: 'tpl-footer', textContent: r.footer }));
      if (r.buttons.length) parts.push(el('div', { className: 'buttons' }, ...r.buttons.map((b) => el('button', { textContent: b, onclick: () => send({ type: 'button', button: { text: b, payload: b }, context: { id: m.id } }) }))));
      break;
    }
    case 'interactive': {
      const i = p.interactive;
      if (i.header && i.header.text) parts.push(el('div', { className: 'tpl-header', textContent: i.header.text }));
      parts.push(el('span', { textContent: i.body ? i.body.text : i[i.type] ? i[i.type].title : '' }));
      if (i.footer) parts.push(el('div', { className: 'tpl-footer', textContent: i.footer.text }));
      if (m.direction === 'out' && i.action) {
        const opts = (i.action.buttons || []).map((b) => ({ kind: 'button_reply', id: b.reply.id, title: b.reply.title }))
          .concat((i.action.sections || []).flatMap((s) => (s.rows || []).map((r) => ({ kind: 'list_reply', id: r.id, title: r.title, description: r.description }))));
        parts.push(el('div', { className: 'buttons' }, ...opts.map((o) => el('button', { textContent: o.title, onclick: () => send({ type: 'interactive', interactive: { type: o.kind, [o.kind]: { id: o.id, title: o.title, ...(o.description ? { description: o.description } : {}) } }, context: { id: m.id } }) }))));
      }
      break;
    }
    case 'button': parts.push(el('span', { textContent: p.button.text })); break;
    case 'reaction': parts.push(el('span', { textContent: p.reaction.emoji + ' ' + T('reacted') + ': ' + findText(p.reaction.message_id) })); break;
    default: parts.push(el('span', { textContent: m.type }));
  }
  return parts;
}

function render() {
  const main = $('#messages');
  const banner = $('#banner');
  if (!conv) { main.replaceChildren(el('div', { className: 'empty', textContent: numbers.length ? T('empty') : T('noNumbers') })); banner.hidden = true; return; }
  banner.hidden = false;
  banner.className = 'banner' + (conv.window_open ? ' open' : '');
  banner.textContent = conv.window_open ? T('windowOpen') : T('windowClosed');
  const nodes = conv.messages.map((m) => {
    if (m.type === 'system') return el('div', { className: 'system', textContent: (conv.name || conv.wa_id) + ' ' + T('changedNumber') + ' → +' + m.payload.system.wa_id });
    const meta = el('span', { className: 'meta' }, time(m.at), ticks(m.status));
    const node = el('div', { className: 'msg ' + m.direction + (m.status === 'failed' ? ' failed' : ''), id: 'm-' + m.id }, ...body(m), meta);
    node.dataset.status = m.status;
    node.dataset.type = m.type;
    if (m.errors) node.append(el('div', { className: 'error', textContent: m.errors.map((e) => e.code + ' ' + e.title).join('; ') }));
    return node;
  });
  main.replaceChildren(...(nodes.length ? nodes : [el('div', { className: 'empty', textContent: T('empty') })]));
  stick();
}

// Follows new messages (and images that finish loading) unless the person scrolled up to read.
let atBottom = true;
function stick() { const main = $('#messages'); if (atBottom) main.scrollTop = main.scrollHeight; }
$('#messages').addEventListener('scroll', () => { const m = $('#messages'); atBottom = m.scrollHeight - m.scrollTop - m.clientHeight < 80; });

async function send(extra) {
  const c = cfg();
  const response = await fetch('/control/inbound', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone_number_id: c.phone_number_id, from: c.wa_id, name: c.name, ...extra }) });
  if (!response.ok) { const e = await response.json().catch(() => ({})); alert(T('sendError') + ': ' + (e.error || response.status)); }
}

$('#composer').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('#text').value.trim();
  if (!text) return;
  $('#text').value = '';
  send({ type: 'text', text: { body: text } });
});
$('#text').addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); $('#composer').requestSubmit(); } });
$('#file').addEventListener('change', async () => {
  const file = $('#file').files[0];
  $('#file').value = '';
  if (!file) return;
  const data = await new Promise((resolve) => { const r = new FileReader(); r.onload = () => resolve(String(r.result).split(',')[1] || ''); r.readAsDataURL(file); });
  const mime = file.type || 'application/octet-stream';
  const type = mime.startsWith('image/') ? (mime === 'image/webp' ? 'sticker' : 'image') : mime.startsWith('video/') ? 'video' : mime.startsWith('audio/') ? 'audio' : 'document';
  const caption = $('#text').value.trim();
  if (caption && type !== 'audio' && type !== 'sticker') $('#text').value = '';
  send({ type, file: { data, mime_type: mime, filename: file.name }, [type]: type === 'document' ? { filename: file.name, ...(caption ? { caption } : {}) } : caption && type !== 'audio' && type !== 'sticker' ? { caption } : {} });
});
$('#locate').addEventListener('click', () => {
  // The browser's position when it gives one soon (a permission prompt left unanswered never times out), else São Paulo.
  let asked = false;
  const ask = (lat, lng) => {
    if (asked) return;
    asked = true;
    const answer = prompt(T('locationPrompt'), lat.toFixed(6) + ', ' + lng.toFixed(6));
    if (!answer) return;
    const [a, b] = answer.split(',').map((x) => Number(x.trim()));
    if (Number.isFinite(a) && Number.isFinite(b)) send({ type: 'location', location: { latitude: a, longitude: b, name: T('myLocation') } });
  };
  const fallback = () => ask(-23.561414, -46.655881);
  if (navigator.geolocation) {
    navigator.geolocation.getCurrentPosition((p) => ask(p.coords.latitude, p.coords.longitude), fallback, { timeout: 3000 });
    setTimeout(fallback, 3500);
  } else fallback();
});
$('#toggle').addEventListener('click', () => { $('#settings').hidden = !$('#settings').hidden; });
$('#lang').addEventListener('change', () => { lang = $('#lang').value; localStorage.setItem('wa-sim-lang', lang); applyLanguage(); });
for (const id of ['#business', '#customer', '#name']) $(id).addEventListener('change', connect);
document.addEventListener('visibilitychange', connect);

// ?phone_number_id=&wa_id=&name=&lang= preselect (handy for e2e); otherwise the last choice, kept in localStorage.
$('#customer').value = params.get('wa_id') || localStorage.getItem('wa-sim-customer') || '5511987650001';
$('#name').value = params.get('name') || localStorage.getItem('wa-sim-name') || 'Maria Cliente';
applyLanguage();
loadNumbers().then(connect);
`

export function customerPage(): string {
  const s = STRINGS['pt-BR']
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${s.title}</title>
<style>${CSS}</style>
</head>
<body>
<div class="app">
  <header>
    <div class="avatar" id="avatar" aria-hidden="true">?</div>
    <div class="who"><b id="who">${s.title}</b><small id="state"></small></div>
    <button id="toggle" type="button" data-tt="settings" title="${s.settings}" aria-label="${s.settings}">⚙</button>
  </header>
  <section class="settings" id="settings" hidden>
    <label><span data-t="business">${s.business}</span><select id="business"></select></label>
    <label><span data-t="customer">${s.customer}</span><input id="customer" inputmode="tel" autocomplete="off"></label>
    <label><span data-t="name">${s.name}</span><input id="name" autocomplete="off"></label>
    <label><span data-t="language">${s.language}</span><select id="lang"><option value="pt-BR">Português (Brasil)</option><option value="en-US">English (US)</option><option value="es-ES">Español</option></select></label>
  </section>
  <div class="banner" id="banner" hidden></div>
  <main id="messages" aria-live="polite"></main>
  <form id="composer">
    <footer>
      <label class="round" data-tt="photo" title="${s.photo}">📎<input id="file" class="visually-hidden" type="file" accept="image/*,video/*,audio/*,application/pdf,text/plain"></label>
      <button class="round" id="locate" type="button" data-tt="location" title="${s.location}">📍</button>
      <textarea id="text" rows="1" placeholder="${s.type}"></textarea>
      <button class="round send" type="submit" data-tt="send" title="${s.send}">➤</button>
    </footer>
  </form>
</div>
<script>${SCRIPT.replace('__STRINGS__', JSON.stringify(STRINGS))}</script>
</body>
</html>`
}
