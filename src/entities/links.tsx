import type { ReactNode } from 'react'
import Tooltip from '@mui/joy/Tooltip'
import type { ButtonProps } from '@mui/joy/Button'
import { useNavigate } from '@tanstack/react-router'
import { useLocale } from '../app/useLocale.ts'
import { ButtonLink, IconButtonLink } from '../components/links.tsx'
import { homeRoute } from './homes.ts'

// Links to entity pages: every page of a home is `/{-$locale}/<home>/$` with the path below the home as the splat
// (settings by default).

type Common = { home?: string; path: string; search?: { duplicate_id?: number }; testId?: string }

export function EntityButton({
  home = 'settings',
  path,
  search,
  testId,
  children,
  ...rest
}: Common & { children: ReactNode } & Pick<ButtonProps, 'variant' | 'color' | 'startDecorator' | 'size'>) {
  const { params } = useLocale()
  return (
    <ButtonLink to={homeRoute(home)} params={{ ...params, _splat: path }} search={search ?? {}} data-testid={testId} {...rest}>
      {children}
    </ButtonLink>
  )
}

export function EntityIconButton({
  home = 'settings',
  path,
  search,
  testId,
  label,
  children,
  color,
}: Common & { label: string; children: ReactNode; color?: 'neutral' | 'danger' | 'primary' }) {
  const { params } = useLocale()
  return (
    <Tooltip title={label} size="sm">
      <IconButtonLink
        to={homeRoute(home)}
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

/** Goes to an entity page by its path below its home. */
export function useEntityNavigate(home = 'settings') {
  const navigate = useNavigate()
  const { params } = useLocale()
  return (path: string) => navigate({ to: homeRoute(home), params: { ...params, _splat: path } })
}
