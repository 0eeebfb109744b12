import type { ReactNode } from 'react'
import Tooltip from '@mui/joy/Tooltip'
import type { ButtonProps } from '@mui/joy/Button'
import { useNavigate } from '@tanstack/react-router'
import { useLocale } from '../app/useLocale.ts'
import { ButtonLink, IconButtonLink } from '../components/links.tsx'

// Links to settings pages: every entity page is `/{-$locale}/settings/$` with the path below /settings/ as the splat.

type Common = { path: string; search?: { duplicate_id?: number }; testId?: string }

export function SettingsButton({ path, search, testId, children, ...rest }: Common & { children: ReactNode } & Pick<ButtonProps, 'variant' | 'color' | 'startDecorator' | 'size'>) {
  const { params } = useLocale()
  return (
    <ButtonLink to="/{-$locale}/settings/$" params={{ ...params, _splat: path }} search={search ?? {}} data-testid={testId} {...rest}>
      {children}
    </ButtonLink>
  )
}

export function SettingsIconButton({ path, search, testId, label, children, color }: Common & { label: string; children: ReactNode; color?: 'neutral' | 'danger' | 'primary' }) {
  const { params } = useLocale()
  return (
    <Tooltip title={label} size="sm">
      <IconButtonLink
        to="/{-$locale}/settings/$"
        params={{ ...params, _splat: path }}
        search={search ?? {}}
        aria-label={label}
        data-testid={testId}
        size="sm"
        variant="plain"
        color={color ?? 'neutral'}
      >
        {children}
      </IconButtonLink>
    </Tooltip>
  )
}

/** Goes to a settings page by its path below /settings/. */
export function useSettingsNavigate() {
  const navigate = useNavigate()
  const { params } = useLocale()
  return (path: string) => navigate({ to: '/{-$locale}/settings/$', params: { ...params, _splat: path } })
}
