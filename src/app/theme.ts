import { extendTheme } from '@mui/joy/styles'
import type { PaletteRange } from '@mui/joy/styles'
import type { SiteSettings } from '../../contract/api/profile.ts'
import { LIGHT_BODY, paletteFrom, readableOn } from './colors.ts'

// Joy theme with the spec's colours (000 §9), overridden by the site's colours when the site settings set them.
export const THEME_COLORS = { primary: '#1976d2', secondary: '#ff8f00', success: '#00e676', error: '#dd2c00' } as const

declare module '@mui/joy/styles' {
  interface ColorPalettePropOverrides {
    secondary: true
  }
  interface Palette {
    secondary: PaletteRange
  }
}

type ThemeSettings = Partial<
  Pick<SiteSettings, 'primary_color' | 'secondary_color' | 'success_color' | 'error_color' | 'button_primary_color' | 'switch_color'>
>

/** Texts the theme gives components by default, in the page's language. */
export type ThemeLabels = { loading: string }

export function buildTheme(settings: ThemeSettings = {}, labels: ThemeLabels = { loading: 'Carregando' }) {
  const palettes = (mode: 'light' | 'dark') => {
    const pick = (site: string | null | undefined, fallback: string) => paletteFrom(site ?? '', mode) ?? paletteFrom(fallback, mode)!
    return {
      primary: pick(settings.primary_color, THEME_COLORS.primary),
      secondary: pick(settings.secondary_color, THEME_COLORS.secondary),
      success: pick(settings.success_color, THEME_COLORS.success),
      danger: pick(settings.error_color, THEME_COLORS.error),
    }
  }
  const button = paletteFrom(settings.button_primary_color ?? '')
  const switchColor = paletteFrom(settings.switch_color ?? '')
  return extendTheme({
    fontFamily: {
      body: '"Inter", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
      display: '"Inter", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
    },
    colorSchemes: {
      light: { palette: { ...palettes('light'), background: { body: LIGHT_BODY, surface: '#ffffff' } } },
      // Areas the site paints dark (menu, header) switch to the dark scheme; they keep the site's colours.
      dark: { palette: palettes('dark') },
    },
    components: {
      // A progress bar or spinner is a progressbar to assistive technology and needs a name (axe
      // aria-progressbar-name); every loading indicator of the app gets it here rather than at each use.
      JoyLinearProgress: { defaultProps: { 'aria-label': labels.loading } },
      JoyCircularProgress: { defaultProps: { 'aria-label': labels.loading } },
      JoyButton: {
        styleOverrides: {
          root: ({ ownerState }) => ({
            fontWeight: 600,
            ...(button && ownerState.color === 'primary' && ownerState.variant === 'solid'
              ? { backgroundColor: button.solidBg, color: button.solidColor, '&:hover': { backgroundColor: button.solidHoverBg } }
              : {}),
          }),
        },
      },
      JoySwitch: switchColor
        ? { styleOverrides: { root: { '--Switch-trackBackground': undefined, '&.Mui-checked': { '--Switch-trackBackground': switchColor.solidBg } } } }
        : {},
    },
  })
}

/** Colours of the shell areas (menu, header, body, footer, login), as CSS variables the layouts read. */
export function shellColorVars(settings: Partial<SiteSettings> | undefined): Record<string, string> {
  const vars: Record<string, string> = {}
  const set = (name: string, value: string | null | undefined) => {
    if (value && /^#|^rgb|^hsl/i.test(value.trim())) vars[name] = value.trim()
  }
  set('--atende-menu-bg', settings?.menu_primary_color)
  set('--atende-header-bg', settings?.header_color)
  set('--atende-body-bg', settings?.body_color)
  set('--atende-footer-bg', settings?.footer_color)
  set('--atende-login-bg', settings?.login_color)
  return vars
}

/** 'dark' when a site colour is dark enough that the area must switch to Joy's dark scheme (light text, icons). */
export function schemeOn(color: string | null | undefined): 'dark' | undefined {
  return color && /^#/.test(color.trim()) && readableOn(color.trim()) === '#fff' ? 'dark' : undefined
}
