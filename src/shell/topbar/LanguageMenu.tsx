import Box from '@mui/joy/Box'
import Dropdown from '@mui/joy/Dropdown'
import ListItemDecorator from '@mui/joy/ListItemDecorator'
import Menu from '@mui/joy/Menu'
import MenuButton from '@mui/joy/MenuButton'
import MenuItem from '@mui/joy/MenuItem'
import { useLingui } from '@lingui/react/macro'
import { LOCALES } from '../../../contract/locales.ts'
import { useLocale } from '../../app/useLocale.ts'
import { LANGUAGE_LABEL, useChooseLocale } from '../languages.ts'

/** Lists the other two languages; choosing one keeps the page and its search params under the new prefix. */
export function LanguageMenu({ variant = 'plain' }: { variant?: 'plain' | 'outlined' | 'soft' }) {
  const { t } = useLingui()
  const { locale } = useLocale()
  const choose = useChooseLocale()
  return (
    <Dropdown>
      <MenuButton
        variant={variant}
        color="neutral"
        size="sm"
        aria-label={t`Idioma`}
        data-testid="language-menu"
        sx={{ gap: 1, fontWeight: 500, whiteSpace: 'nowrap' }}
      >
        <span aria-hidden style={{ fontSize: 18, lineHeight: 1 }}>
          {LANGUAGE_LABEL[locale].flag}
        </span>
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
          {locale}
        </Box>
      </MenuButton>
      <Menu placement="bottom-end" size="sm" sx={{ minWidth: 200, zIndex: 'var(--joy-zIndex-popup)' }}>
        {LOCALES.filter((l) => l !== locale).map((l) => (
          <MenuItem key={l} onClick={() => choose(l)} data-locale={l} lang={l}>
            <ListItemDecorator sx={{ fontSize: 18 }}>{LANGUAGE_LABEL[l].flag}</ListItemDecorator>
            {LANGUAGE_LABEL[l].name}
          </MenuItem>
        ))}
      </Menu>
    </Dropdown>
  )
}
