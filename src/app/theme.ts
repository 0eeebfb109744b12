import { extendTheme } from '@mui/joy/styles'
import type { PaletteRange } from '@mui/joy/styles'
import type { SiteSettings } from '../../contract/api/profile.ts'
import { paletteFrom } from './colors.ts'

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

type ThemeSettings = Partial<Pick<SiteSettings, 'primary_color' | 'secondary_color' | 'success_color' | 'error_color' | 'button_primary_color' | 'switch_color'>>

export function buildTheme(settings: ThemeSettings = {}) {
  const primary = paletteFrom(settings.primary_color ?? '') ?? paletteFrom(THEME_COLORS.primary)!
  const secondary = paletteFrom(settings.secondary_color ?? '') ?? paletteFrom(THEME_COLORS.secondary)!
  const success = paletteFrom(settings.success_color ?? '') ?? paletteFrom(THEME_COLORS.success)!
  const danger = paletteFrom(settings.error_color ?? '') ?? paletteFrom(THEME_COLORS.error)!
  const button = paletteFrom(settings.button_primary_color ?? '')
  const switchColor = paletteFrom(settings.switch_color ?? '')
  return extendTheme({
    fontFamily: {
      body: '"Inter", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
      display: '"Inter", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
    },
    colorSchemes: {
      light: {
        palette: {
          primary,
          secondary,
          success,
          danger,
          background: { body: '#f4f6fa', surface: '#ffffff' },
        },
      },
    },
    components: {
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
