// Builds a Joy colour scale (50-900 plus variant tokens) from one brand colour, so the spec's theme colours and the
// site's own colours (site settings) can replace Joy's palettes.

type Rgb = [number, number, number]

export function parseHex(hex: string | null | undefined): Rgb | undefined {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec((hex ?? '').trim())
  if (!match) return undefined
  const h = match[1]!.length === 3 ? [...match[1]!].map((c) => c + c).join('') : match[1]!
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb
}

const toHex = (rgb: Rgb) => '#' + rgb.map((c) => Math.round(Math.max(0, Math.min(255, c))).toString(16).padStart(2, '0')).join('')
const mix = (a: Rgb, b: Rgb, amount: number): Rgb => [0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * amount) as Rgb

/** WCAG relative luminance. */
export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as Rgb
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** Black or white, whichever reads better on the colour. */
export function readableOn(hex: string): string {
  const rgb = parseHex(hex)
  if (!rgb) return '#fff'
  const l = luminance(rgb)
  return (1.05 / (l + 0.05)) >= ((l + 0.05) / 0.05) ? '#fff' : '#111827'
}

const WHITE: Rgb = [255, 255, 255]
const BLACK: Rgb = [0, 0, 0]
const STEPS: Record<string, [Rgb, number]> = {
  50: [WHITE, 0.92], 100: [WHITE, 0.82], 200: [WHITE, 0.64], 300: [WHITE, 0.44], 400: [WHITE, 0.22],
  600: [BLACK, 0.12], 700: [BLACK, 0.26], 800: [BLACK, 0.4], 900: [BLACK, 0.55],
}

export type Scale = Record<string, string>

/** 50-900 around the brand colour (500), with the variant tokens Joy's components read (light or dark scheme). */
export function paletteFrom(hex: string, mode: 'light' | 'dark' = 'light'): Scale | undefined {
  const base = parseHex(hex)
  if (!base) return undefined
  const scale: Scale = { 500: toHex(base) }
  for (const [step, [target, amount]] of Object.entries(STEPS)) scale[step] = toHex(mix(base, target, amount))
  const solidColor = readableOn(scale[500]!)
  if (mode === 'dark') {
    return {
      ...scale,
      mainChannel: base.join(' '), lightChannel: parseHex(scale[200])!.join(' '), darkChannel: parseHex(scale[700])!.join(' '),
      plainColor: scale[300]!, plainHoverBg: scale[800]!, plainActiveBg: scale[700]!, plainDisabledColor: scale[700]!,
      outlinedColor: scale[200]!, outlinedBorder: scale[700]!, outlinedHoverBg: scale[800]!, outlinedActiveBg: scale[700]!,
      outlinedDisabledColor: scale[800]!, outlinedDisabledBorder: scale[800]!,
      softColor: scale[200]!, softBg: scale[800]!, softHoverBg: scale[700]!, softActiveColor: scale[100]!, softActiveBg: scale[600]!,
      softDisabledColor: scale[800]!, softDisabledBg: scale[900]!,
      solidColor, solidBg: scale[500]!, solidHoverBg: scale[600]!, solidActiveBg: scale[700]!,
      solidDisabledColor: scale[700]!, solidDisabledBg: scale[900]!,
    }
  }
  return {
    ...scale,
    mainChannel: base.join(' '),
    lightChannel: parseHex(scale[200])!.join(' '),
    darkChannel: parseHex(scale[700])!.join(' '),
    plainColor: scale[600]!, plainHoverBg: scale[100]!, plainActiveBg: scale[200]!, plainDisabledColor: scale[300]!,
    outlinedColor: scale[600]!, outlinedBorder: scale[300]!, outlinedHoverBg: scale[100]!, outlinedActiveBg: scale[200]!,
    outlinedDisabledColor: scale[300]!, outlinedDisabledBorder: scale[200]!,
    softColor: scale[700]!, softBg: scale[100]!, softHoverBg: scale[200]!, softActiveColor: scale[800]!, softActiveBg: scale[300]!,
    softDisabledColor: scale[300]!, softDisabledBg: scale[50]!,
    solidColor, solidBg: scale[500]!, solidHoverBg: scale[600]!, solidActiveBg: scale[700]!,
    solidDisabledColor: '#fff', solidDisabledBg: scale[200]!,
  }
}
