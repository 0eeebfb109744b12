import type { ReactNode } from 'react'
import Card from '@mui/joy/Card'
import { PageHeader } from '../../components/layout/PageHeader.tsx'

/** Header and card shared by the profile forms. */
export function ProfileFormCard({ title, subtitle, children }: { title: ReactNode; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <Card variant="outlined" sx={{ maxWidth: 640, boxShadow: 'xs', p: { xs: 2, sm: 3 } }}>
        {children}
      </Card>
    </>
  )
}
