import Box from '@mui/joy/Box'
import type { BoxProps } from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import type { ButtonProps } from '@mui/joy/Button'
import Card from '@mui/joy/Card'
import type { CardProps } from '@mui/joy/Card'
import IconButton from '@mui/joy/IconButton'
import type { IconButtonProps } from '@mui/joy/IconButton'
import ListItemButton from '@mui/joy/ListItemButton'
import type { ListItemButtonProps } from '@mui/joy/ListItemButton'
import { createLink } from '@tanstack/react-router'

// Joy components that are router links: typed `to`/`params`, preloading and active state from TanStack Router.
export const ButtonLink = createLink((props: Omit<ButtonProps<'a'>, 'component'>) => <Button {...props} component="a" />)
export const ListItemButtonLink = createLink((props: Omit<ListItemButtonProps<'a'>, 'component'>) => <ListItemButton {...props} component="a" />)
export const CardLink = createLink((props: Omit<CardProps<'a'>, 'component'>) => <Card {...props} component="a" />)
export const BoxLink = createLink((props: Omit<BoxProps<'a'>, 'component'>) => <Box {...props} component="a" />)
export const IconButtonLink = createLink((props: Omit<IconButtonProps<'a'>, 'component'>) => <IconButton {...props} component="a" />)
