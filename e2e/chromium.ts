// Debian's Chromium (never a downloaded browser), started as the machine allows: headless, as root without a sandbox,
// and with nothing reaching out to Google's hosts (the closed network refuses them). Shared by Playwright and the
// benches that drive a browser.
export const CHROMIUM_PATH = '/usr/bin/chromium'
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** What the browser tests add: fake camera and microphone (a periodic beep) granted without a prompt, autoplay, and
 * WebRTC to rtpengine on loopback (loopback candidates, no mDNS hostnames). */
export const FAKE_MEDIA_ARGS: readonly string[] = [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
]
