import { createFileRoute } from '@tanstack/react-router'
import Skeleton from '@mui/joy/Skeleton'
import { PERMISSIONS } from '../../../../contract/permissions.ts'
import { useProfile } from '../../../api/useProfile.ts'
import { BuilderPageView } from '../../../features/builder/BuilderPageView.tsx'
import { useBuilderHome } from '../../../features/builder/builderMenu.ts'
import { HomeDashboard } from '../../../features/home/HomeDashboard.tsx'

/** The home: the builder page an administrator chose for this user, team or everyone (homepages), else the default. */
function Home() {
  const profile = useProfile()
  const home = useBuilderHome(profile.roles)
  if (home === undefined) return <Skeleton variant="rectangular" height={320} />
  if (home) return <BuilderPageView kind="dashboards" id={String(home.id)} home />
  return <HomeDashboard />
}

export const Route = createFileRoute('/{-$locale}/_app/')({
  staticData: { permission: PERMISSIONS.viewDashboard },
  component: Home,
})
