import { describe, expect, it } from 'vitest'
import { contrast, paletteFrom, readableOn, TEXT_CONTRAST } from '../../src/app/colors.ts'
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

  it('gives every palette text that reads at WCAG AA on its backgrounds, keeping the brand colour itself', () => {
    // The spec's green (#00e676) had 2.2:1 as plain text and 2.7:1 in soft chips and the 'Registrado' button.
    for (const colour of [...Object.values(THEME_COLORS), '#ffeb3b', '#7b1fa2', '#00bcd4']) {
      const p = paletteFrom(colour)!
      expect(p[500], colour).toBe(colour)
      for (const background of ['#ffffff', '#f4f6fa', p.softBg!, p.plainHoverBg!]) {
        expect(contrast(p.plainColor!, background), `${colour} plain on ${background}`).toBeGreaterThanOrEqual(TEXT_CONTRAST)
        expect(contrast(p.outlinedColor!, background), `${colour} outlined on ${background}`).toBeGreaterThanOrEqual(TEXT_CONTRAST)
      }
      expect(contrast(p.softColor!, p.softBg!), `${colour} soft`).toBeGreaterThanOrEqual(TEXT_CONTRAST)
      expect(contrast(p.softActiveColor!, p.softActiveBg!), `${colour} soft active`).toBeGreaterThanOrEqual(TEXT_CONTRAST)
    }
    // A colour dark enough already is left as the scale has it.
    expect(paletteFrom('#1976d2')!.softColor).toBe(paletteFrom('#1976d2')![700])
  })

  it('names every loading indicator in the page language', () => {
    const { components } = buildTheme({}, { loading: 'Loading' }) as { components?: Record<string, { defaultProps?: object }> }
    expect(components?.JoyLinearProgress?.defaultProps).toMatchObject({ 'aria-label': 'Loading' })
    expect(components?.JoyCircularProgress?.defaultProps).toMatchObject({ 'aria-label': 'Loading' })
  })
})
