// Builds a Joy colour scale (50-900 plus variant tokens) from one brand colour, so the spec's theme colours and the
// site's own colours (site settings) can replace Joy's palettes.

type Rgb = [number, number, number]

export function parseHex(hex: string | null | undefined): Rgb | undefined {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec((hex ?? '').trim())
  if (!match) return undefined
  const h = match[1]!.length === 3 ? [...match[1]!].map((c) => c + c).join('') : match[1]!
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb
}

const toHex = (rgb: Rgb) =>
  '#' +
  rgb
    .map((c) =>
      Math.round(Math.max(0, Math.min(255, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
const mix = (a: Rgb, b: Rgb, amount: number): Rgb => [0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * amount) as Rgb

/** WCAG relative luminance. */
export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as Rgb
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(parseHex(a) ?? [0, 0, 0]), luminance(parseHex(b) ?? [0, 0, 0])].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/** Black or white, whichever reads better on the colour. */
export function readableOn(hex: string): string {
  return contrast(hex, '#fff') >= contrast(hex, '#000') ? '#fff' : '#111827'
}

const WHITE: Rgb = [255, 255, 255]
const BLACK: Rgb = [0, 0, 0]
const STEPS: Record<string, [Rgb, number]> = {
  50: [WHITE, 0.92],
  100: [WHITE, 0.82],
  200: [WHITE, 0.64],
  300: [WHITE, 0.44],
  400: [WHITE, 0.22],
  600: [BLACK, 0.12],
  700: [BLACK, 0.26],
  800: [BLACK, 0.4],
  900: [BLACK, 0.55],
}

export type Scale = Record<string, string>

/** The light scheme's page background (theme.ts), the lightest colour a chip or plain button stands on besides white. */
export const LIGHT_BODY = '#f4f6fa'

/** WCAG AA for normal text: what every text token of a palette must reach on the background it is drawn on. */
export const TEXT_CONTRAST = 4.5

/**
 * The colour itself when text in it reads on `background`, else the colour mixed toward black (light scheme) or white
 * (dark scheme) just enough to: a bright brand colour (the spec's green #00e676) keeps its hue in chips and buttons
 * but its text passes AA.
 */
function readableShade(hex: string, backgrounds: readonly string[], mode: 'light' | 'dark'): string {
  const rgb = parseHex(hex)!
  const target = mode === 'light' ? BLACK : WHITE
  for (let step = 0; step <= 50; step++) {
    const shade = toHex(mix(rgb, target, step / 50))
    if (backgrounds.every((background) => contrast(shade, background) >= TEXT_CONTRAST)) return shade
  }
  return toHex(target)
}

/** 50-900 around the brand colour (500), with the variant tokens Joy's components read (light or dark scheme). */
export function paletteFrom(hex: string, mode: 'light' | 'dark' = 'light'): Scale | undefined {
  const base = parseHex(hex)
  if (!base) return undefined
  const scale: Scale = { 500: toHex(base) }
  for (const [step, [target, amount]] of Object.entries(STEPS)) scale[step] = toHex(mix(base, target, amount))
  const solidColor = readableOn(scale[500]!)
  if (mode === 'dark') {
    // Text tokens are checked against the soft background, the lightest they sit on here (also the hover of plain and
    // outlined); the dark surfaces only add contrast.
    const text = (step: string) => readableShade(scale[step]!, [scale[800]!], 'dark')
    return {
      ...scale,
      mainChannel: base.join(' '),
      lightChannel: parseHex(scale[200])!.join(' '),
      darkChannel: parseHex(scale[700])!.join(' '),
      plainColor: text('300'),
      plainHoverBg: scale[800]!,
      plainActiveBg: scale[700]!,
      plainDisabledColor: scale[700]!,
      outlinedColor: text('200'),
      outlinedBorder: scale[700]!,
      outlinedHoverBg: scale[800]!,
      outlinedActiveBg: scale[700]!,
      outlinedDisabledColor: scale[800]!,
      outlinedDisabledBorder: scale[800]!,
      softColor: text('200'),
      softBg: scale[800]!,
      softHoverBg: scale[700]!,
      softActiveColor: scale[100]!,
      softActiveBg: scale[600]!,
      softDisabledColor: scale[800]!,
      softDisabledBg: scale[900]!,
      solidColor,
      solidBg: scale[500]!,
      solidHoverBg: scale[600]!,
      solidActiveBg: scale[700]!,
      solidDisabledColor: scale[700]!,
      solidDisabledBg: scale[900]!,
    }
  }
  // Light scheme: text tokens are checked against the soft background (also the hover of plain and outlined) and the
  // body, the darker of which is darker than the surface; the pressed soft text against its own background too.
  const text = (step: string, on = '100') => readableShade(scale[step]!, [scale[on]!, LIGHT_BODY], 'light')
  return {
    ...scale,
    mainChannel: base.join(' '),
    lightChannel: parseHex(scale[200])!.join(' '),
    darkChannel: parseHex(scale[700])!.join(' '),
    plainColor: text('600'),
    plainHoverBg: scale[100]!,
    plainActiveBg: scale[200]!,
    plainDisabledColor: scale[300]!,
    outlinedColor: text('600'),
    outlinedBorder: scale[300]!,
    outlinedHoverBg: scale[100]!,
    outlinedActiveBg: scale[200]!,
    outlinedDisabledColor: scale[300]!,
    outlinedDisabledBorder: scale[200]!,
    softColor: text('700'),
    softBg: scale[100]!,
    softHoverBg: scale[200]!,
    softActiveColor: text('800', '300'),
    softActiveBg: scale[300]!,
    softDisabledColor: scale[300]!,
    softDisabledBg: scale[50]!,
    solidColor,
    solidBg: scale[500]!,
    solidHoverBg: scale[600]!,
    solidActiveBg: scale[700]!,
    solidDisabledColor: '#fff',
    solidDisabledBg: scale[200]!,
  }
}
