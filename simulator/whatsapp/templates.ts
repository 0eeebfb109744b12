// Message templates as Meta's WABA endpoint lists them (GET /{version}/{waba}/message_templates), the demo set every
// business account starts with, and the checks Meta makes when a template is sent: the name must exist in the
// requested language (132001) and the parameters must match the placeholders (132000).

export type TemplateComponent =
  | { type: 'HEADER'; format: 'TEXT'; text: string; example?: { header_text: string[] } }
  | { type: 'HEADER'; format: 'IMAGE' | 'VIDEO' | 'DOCUMENT'; example?: { header_handle: string[] } }
  | { type: 'BODY'; text: string; example?: { body_text: string[][] } }
  | { type: 'FOOTER'; text: string }
  | { type: 'BUTTONS'; buttons: { type: 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER'; text: string; url?: string; phone_number?: string }[] }

export type Template = {
  id: string
  name: string
  language: string
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED'
  category: 'UTILITY' | 'MARKETING' | 'AUTHENTICATION'
  parameter_format?: 'POSITIONAL'
  components: TemplateComponent[]
}

const DEMO_IMAGE = 'https://scontent.whatsapp.net/demo/fibra.jpg'

/** A fresh copy of the demo templates (pt_BR, en_US, es_ES; text, image and video headers; with and without params). */
export function demoTemplates(): Template[] {
  const quick = (...texts: string[]): TemplateComponent => ({ type: 'BUTTONS', buttons: texts.map((text) => ({ type: 'QUICK_REPLY' as const, text })) })
  const list: Omit<Template, 'id'>[] = [
    {
      name: 'boas_vindas',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [
        { type: 'BODY', text: 'Olá {{1}}, aqui é da {{2}}. Podemos continuar o seu atendimento por aqui?', example: { body_text: [['Maria', 'Atende']] } },
        quick('Sim', 'Não'),
      ],
    },
    {
      name: 'boas_vindas',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [
        { type: 'BODY', text: 'Hello {{1}}, this is {{2}}. May we carry on with your request here?', example: { body_text: [['Mary', 'Atende']] } },
        quick('Yes', 'No'),
      ],
    },
    {
      name: 'boas_vindas',
      language: 'es_ES',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [
        { type: 'BODY', text: 'Hola {{1}}, somos {{2}}. ¿Podemos continuar con su atención por aquí?', example: { body_text: [['María', 'Atende']] } },
        quick('Sí', 'No'),
      ],
    },
    {
      name: 'promocao_fibra',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: [DEMO_IMAGE] } },
        { type: 'BODY', text: 'Olá {{1}}! A Internet Fibra 500 Mb sai por {{2}} ao mês. Quer saber mais?', example: { body_text: [['Maria', 'R$ 99,90']] } },
        { type: 'FOOTER', text: 'Responda SAIR para não receber ofertas' },
        quick('Quero saber mais', 'Agora não'),
      ],
    },
    {
      name: 'pedido_enviado',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['A12345'] } },
        { type: 'BODY', text: 'Seu pedido {{1}} foi enviado e chega até {{2}}.', example: { body_text: [['A12345', '28/11']] } },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Acompanhar', url: 'https://example.com/pedidos/{{1}}' }] },
      ],
    },
    {
      name: 'order_shipped',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'VIDEO', example: { header_handle: ['https://scontent.whatsapp.net/demo/unboxing.mp4'] } },
        { type: 'BODY', text: 'Your order is on its way. Watch how to set it up.' },
      ],
    },
    {
      name: 'lembrete_contato',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Olá! Ainda precisa de ajuda? Responda esta mensagem para voltar a falar com a gente.' }],
    },
    {
      name: 'recordatorio_contacto',
      language: 'es_ES',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: '¡Hola! ¿Todavía necesita ayuda? Responda este mensaje para volver a hablar con nosotros.' }],
    },
  ]
  return list.map((template, index) => ({ id: String(1_000_000_000_000_000 + index * 7919 + 42), parameter_format: 'POSITIONAL', ...template }))
}

/** The number of distinct {{n}} placeholders in a text. */
export function placeholderCount(text: string): number {
  return new Set([...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => m[1])).size
}

/** Parameters a send must give per component: header (0 or 1 media, or the header text's placeholders) and body. */
export function expectedParams(template: Template): { header: number; headerFormat: string | null; body: number; urlButtons: number[] } {
  let header = 0
  let headerFormat: string | null = null
  let body = 0
  const urlButtons: number[] = []
  for (const component of template.components) {
    if (component.type === 'HEADER') {
      headerFormat = component.format
      header = component.format === 'TEXT' ? placeholderCount(component.text) : 1
    } else if (component.type === 'BODY') body = placeholderCount(component.text)
    else if (component.type === 'BUTTONS')
      component.buttons.forEach((button, index) => {
        if (button.type === 'URL' && button.url && placeholderCount(button.url) > 0) urlButtons.push(index)
      })
  }
  return { header, headerFormat, body, urlButtons }
}

type SentParam = { type?: string; text?: string; currency?: { fallback_value?: string }; date_time?: { fallback_value?: string }; [key: string]: unknown }
type SentComponent = { type?: string; sub_type?: string; index?: string | number; parameters?: SentParam[] }

/** The parameters of the sent components by kind (Meta lower-cases them: header, body, button). */
export function sentParams(components: unknown): { header: SentParam[]; body: SentParam[]; buttons: Map<number, SentParam[]> } {
  const out = { header: [] as SentParam[], body: [] as SentParam[], buttons: new Map<number, SentParam[]>() }
  if (!Array.isArray(components)) return out
  for (const raw of components as SentComponent[]) {
    const params = Array.isArray(raw?.parameters) ? raw.parameters : []
    const type = String(raw?.type ?? '').toLowerCase()
    if (type === 'header') out.header.push(...params)
    else if (type === 'body') out.body.push(...params)
    else if (type === 'button') out.buttons.set(Number(raw.index ?? 0), params)
  }
  return out
}

export function paramText(param: SentParam): string {
  if (typeof param.text === 'string') return param.text
  if (param.currency?.fallback_value) return param.currency.fallback_value
  if (param.date_time?.fallback_value) return param.date_time.fallback_value
  return ''
}

export function fill(text: string, params: SentParam[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => {
    const param = params[Number(n) - 1]
    return param ? paramText(param) : whole
  })
}

/** What the customer sees of a sent template: header (text or media), body, footer and button labels. */
export function renderTemplate(
  template: Template,
  components: unknown,
): { header?: { format: string; text?: string; media?: SentParam }; body: string; footer?: string; buttons: string[] } {
  const sent = sentParams(components)
  const out: ReturnType<typeof renderTemplate> = { body: '', buttons: [] }
  for (const component of template.components) {
    if (component.type === 'HEADER') {
      out.header =
        component.format === 'TEXT' ? { format: 'TEXT', text: fill(component.text, sent.header) } : { format: component.format, media: sent.header[0] }
    } else if (component.type === 'BODY') out.body = fill(component.text, sent.body)
    else if (component.type === 'FOOTER') out.footer = component.text
    else if (component.type === 'BUTTONS') out.buttons = component.buttons.map((button) => button.text)
  }
  return out
}
