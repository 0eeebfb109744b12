// Where the WhatsApp channel's background work (webhook processing, template sync) logs: the app's logger once the
// webhook routes are registered, silent before (the seed, unit tests).

export type ChannelLog = { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void }

let current: ChannelLog = { warn: () => {} }

export function setWhatsAppLog(log: ChannelLog): void {
  current = log
}

export function whatsappLog(): ChannelLog {
  return current
}
