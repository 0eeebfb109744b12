import Button from '@mui/joy/Button'
import Box from '@mui/joy/Box'
import { useLingui } from '@lingui/react/macro'
import { LOCALES } from '../../contract/locales.ts'
import { useLocale } from '../app/useLocale.ts'
import { LANGUAGE_LABEL, useChooseLocale } from './languages.ts'

/** The sign-in page's language switch: the other two languages as plain buttons (no popup code on that page). */
export function LanguageLinks() {
  const { t } = useLingui()
  const { locale } = useLocale()
  const choose = useChooseLocale()
  return (
    <Box component="nav" aria-label={t`Idioma`} data-testid="language-links" sx={{ display: 'flex', gap: 0.5 }}>
      {LOCALES.filter((l) => l !== locale).map((l) => (
        <Button
          key={l}
          size="sm"
          variant="plain"
          color="neutral"
          lang={l}
          data-locale={l}
          onClick={() => choose(l)}
          startDecorator={<span aria-hidden>{LANGUAGE_LABEL[l].flag}</span>}
        >
          {LANGUAGE_LABEL[l].short}
        </Button>
      ))}
    </Box>
  )
}
