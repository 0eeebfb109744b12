// Cross-site WebSocket hijacking: a browser sends its cookies with an upgrade from any page, so a socket authenticated
// by the session cookie is accepted only from the app's own origin (the request's Host) or one listed in
// WS_ALLOWED_ORIGINS. A request without Origin does not come from a browser page (browsers always send it on an
// upgrade) and carries no ambient risk; the opaque origin "null" (sandboxed frames, file:) is refused.

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' }

export function originAllowed(origin: string | undefined, host: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.origin === 'null') return false
  if (allowed.includes(url.origin)) return true
  if (!host) return false
  return url.host === stripDefaultPort(host.toLowerCase(), url.protocol)
}

function stripDefaultPort(host: string, protocol: string): string {
  const port = DEFAULT_PORTS[protocol]
  return port && host.endsWith(`:${port}`) ? host.slice(0, -(port.length + 1)) : host
}
