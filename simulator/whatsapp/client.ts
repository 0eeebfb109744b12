// A small client for the simulator's control API, for tests and benches: create business numbers, make a customer
// send any inbound type, read a conversation with its statuses, expire a window, set chaos, reset. Only the control
// API: the Graph API side is what the product itself calls.

export type ClientChaos = { duplicate?: number; reorder?: boolean; delayMs?: number; multiEntry?: boolean }

export type ClientNumber = {
  phone_number_id: string
  waba_id: string
  access_token: string
  app_secret: string
  verify_token?: string
  webhook_url?: string
  display_phone_number: string
  verified_name?: string
  chaos?: ClientChaos
}

export type ClientMessage = {
  id: string
  direction: 'in' | 'out'
  type: string
  at: number
  status: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed'
  payload: Record<string, unknown>
  errors?: { code: number; title: string; message: string; error_data: { details: string }; href: string }[]
  rendered?: { header?: { format: string; text?: string }; body: string; footer?: string; buttons: string[] }
  history: { status: string; at: number }[]
}

export type ClientConversation = {
  phone_number_id: string
  wa_id: string
  name: string
  last_inbound_at: number | null
  window_open: boolean
  undeliverable: boolean
  messages: ClientMessage[]
}

export type ClientDelivery = {
  id: number
  url: string
  ok: boolean
  done: boolean
  duplicate: boolean
  attempts: { at: string; status: number | null; error: string | null; ms: number }[]
  body: { object: string; entry: { id: string; changes: { value: Record<string, unknown>; field: string }[] }[] }
}

/** Fields of one inbound message besides phone_number_id and from, e.g. `{ type: 'text', text: { body: 'Oi' } }`. */
export type ClientInbound = {
  type: 'text' | 'image' | 'video' | 'audio' | 'document' | 'sticker' | 'location' | 'contacts' | 'interactive' | 'button' | 'reaction' | 'system'
  name?: string
  context?: { id: string }
  /** Real bytes for media types (a small sample of the right kind is used without them). */
  file?: { data: Buffer | Uint8Array | string; mime_type: string; filename?: string }
  chaos?: ClientChaos
  /** Resolve only once the webhook was delivered (or given up): the answer then carries the delivery. */
  wait?: boolean
  [key: string]: unknown
}

export class SimulatorError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

export class SimulatorClient {
  readonly baseUrl: string

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '')
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    const data = text ? JSON.parse(text) : null
    if (!response.ok) throw new SimulatorError(response.status, (data && (data.error?.message ?? data.error)) || `HTTP ${response.status}`)
    return data as T
  }

  health() {
    return this.call<{ ok: boolean; numbers: number }>('GET', '/control/health')
  }

  numbers() {
    return this.call<Required<ClientNumber>[]>('GET', '/control/numbers')
  }

  createNumber(input: ClientNumber) {
    return this.call<Required<ClientNumber>>('POST', '/control/numbers', input)
  }

  updateNumber(phoneNumberId: string, changes: Partial<ClientNumber>) {
    return this.call<Required<ClientNumber>>('PATCH', `/control/numbers/${encodeURIComponent(phoneNumberId)}`, changes)
  }

  deleteNumber(phoneNumberId: string) {
    return this.call<{ ok: true }>('DELETE', `/control/numbers/${encodeURIComponent(phoneNumberId)}`)
  }

  /** Runs Meta's GET verification against the number's webhook URL. */
  verify(phoneNumberId: string) {
    return this.call<{ ok: boolean; status: number | null; body: string; error: string | null; url: string }>(
      'POST',
      `/control/numbers/${encodeURIComponent(phoneNumberId)}/verify`,
    )
  }

  /** The customer `from` sends a message to the business number. */
  send(phoneNumberId: string, from: string, message: ClientInbound) {
    const file = message.file && {
      ...message.file,
      data: typeof message.file.data === 'string' ? message.file.data : Buffer.from(message.file.data).toString('base64'),
    }
    return this.call<{ id: string; message: Record<string, unknown>; delivery: ClientDelivery | null }>('POST', '/control/inbound', {
      ...message,
      ...(file ? { file } : {}),
      phone_number_id: phoneNumberId,
      from,
    })
  }

  sendText(phoneNumberId: string, from: string, body: string, extra: Omit<ClientInbound, 'type'> = {}) {
    return this.send(phoneNumberId, from, { ...extra, type: 'text', text: { body } })
  }

  conversation(phoneNumberId: string, waId: string) {
    return this.call<ClientConversation>('GET', `/control/conversations?${new URLSearchParams({ phone_number_id: phoneNumberId, wa_id: waId })}`)
  }

  conversations(phoneNumberId?: string) {
    const query = phoneNumberId ? `?${new URLSearchParams({ phone_number_id: phoneNumberId })}` : ''
    return this.call<{ phone_number_id: string; wa_id: string; name: string; messages: number; last_inbound_at: number | null }[]>(
      'GET',
      `/control/conversations${query}`,
    )
  }

  /** Marks the customer as unreachable (sends then fail with 131026) or reachable again. */
  setCustomer(phoneNumberId: string, waId: string, changes: { name?: string; undeliverable?: boolean }) {
    return this.call<ClientConversation>('POST', '/control/customers', { phone_number_id: phoneNumberId, wa_id: waId, ...changes })
  }

  /** Moves the customer's last message back past the 24-hour window. */
  expireWindow(phoneNumberId: string, waId: string) {
    return this.call<ClientConversation>('POST', '/control/window/expire', { phone_number_id: phoneNumberId, wa_id: waId })
  }

  /** The customer opens the chat: delivered messages become read. */
  read(phoneNumberId: string, waId: string) {
    return this.call<ClientConversation>('POST', '/control/read', { phone_number_id: phoneNumberId, wa_id: waId })
  }

  /** Posts a status for an outbound message now (failed takes `errors`, 131026 by default). */
  status(id: string, status: 'sent' | 'delivered' | 'read' | 'failed', errors?: ClientMessage['errors']) {
    return this.call<{ ok: true }>('POST', '/control/status', { id, status, ...(errors ? { errors } : {}) })
  }

  chaos(changes?: ClientChaos) {
    return changes ? this.call<Required<ClientChaos>>('POST', '/control/chaos', changes) : this.call<Required<ClientChaos>>('GET', '/control/chaos')
  }

  setTemplates(wabaId: string, templates: unknown[]) {
    return this.call<{ ok: true; count: number }>('POST', '/control/templates', { waba_id: wabaId, templates })
  }

  webhooks() {
    return this.call<ClientDelivery[]>('GET', '/control/webhooks')
  }

  /** Clears conversations, media, counters, the webhook log and chaos; `numbers: true` also restores the configured numbers. */
  reset(options: { numbers?: boolean } = {}) {
    return this.call<{ ok: true }>('POST', '/control/reset', options)
  }
}
