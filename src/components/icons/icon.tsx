import SvgIcon from '@mui/joy/SvgIcon'
import type { SvgIconProps } from '@mui/joy/SvgIcon'

// A handful of Material Design icon paths (Apache-2.0), drawn with Joy's SvgIcon so they follow size and colour.
export function icon(path: string, name: string) {
  const Icon = (props: SvgIconProps) => (
    <SvgIcon {...props}>
      <path d={path} />
    </SvgIcon>
  )
  Icon.displayName = name
  return Icon
}
