import { describe, expect, it } from 'vitest'
import { paletteFrom, readableOn } from '../../src/app/colors.ts'
import { buildTheme, shellColorVars, THEME_COLORS } from '../../src/app/theme.ts'

describe('theme colours', () => {
  it('uses the spec colours by default', () => {
    const palette = buildTheme().colorSchemes.light.palette
    expect(palette.primary[500]).toBe(THEME_COLORS.primary)
    expect(palette.secondary[500]).toBe(THEME_COLORS.secondary)
    expect(palette.success[500]).toBe(THEME_COLORS.success)
    expect(palette.danger[500]).toBe(THEME_COLORS.error)
  })

  it('lets the site settings replace them, ignoring values that are not colours', () => {
    const palette = buildTheme({ primary_color: '#7b1fa2', error_color: 'not-a-colour' }).colorSchemes.light.palette
    expect(palette.primary[500]).toBe('#7b1fa2')
    expect(palette.primary.solidBg).toBe('#7b1fa2')
    expect(palette.danger[500]).toBe(THEME_COLORS.error)
  })

  it('builds a full scale with readable text on the solid colour', () => {
    const scale = paletteFrom('#00e676')!
    expect(Object.keys(scale)).toEqual(expect.arrayContaining(['50', '100', '500', '900', 'solidBg', 'softBg', 'outlinedBorder']))
    expect(readableOn('#00e676')).not.toBe('#fff')
    expect(readableOn('#1976d2')).toBe('#fff')
  })

  it('turns the shell colours of the site into CSS variables', () => {
    expect(shellColorVars({ menu_primary_color: '#102030', header_color: null, login_color: 'rgb(1,2,3)', body_color: 'url(x)' })).toEqual({
      '--atende-menu-bg': '#102030',
      '--atende-login-bg': 'rgb(1,2,3)',
    })
  })
})
