import { createFileRoute, notFound, Outlet, redirect } from '@tanstack/react-router'
import { browserLocaleSources, localeFromPrefix, localeRedirect, switchLocalePath, writeLocaleCookie } from '../../app/locale.ts'

// pt-BR has no prefix; /en-us/… and /es-es/… are the others. Any other first segment that reaches here is a 404.
export const Route = createFileRoute('/{-$locale}')({
  staticData: { permission: 'layout' },
  beforeLoad: ({ params, location }) => {
    if (params.locale !== undefined && !localeFromPrefix(params.locale)) throw notFound()
    if (params.locale === undefined) {
      const target = localeRedirect(location.pathname, browserLocaleSources(location.pathname))
      if (target) {
        writeLocaleCookie(target)
        throw redirect({ href: switchLocalePath(location.pathname, target) + location.searchStr + (location.hash ? `#${location.hash}` : ''), replace: true })
      }
    }
  },
  component: Outlet,
})
