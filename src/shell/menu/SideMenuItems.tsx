import { useEffect, useRef, useState } from 'react'
import Chip from '@mui/joy/Chip'
import List from '@mui/joy/List'
import ListItem from '@mui/joy/ListItem'
import ListItemButton from '@mui/joy/ListItemButton'
import ListItemContent from '@mui/joy/ListItemContent'
import ListItemDecorator from '@mui/joy/ListItemDecorator'
import Tooltip from '@mui/joy/Tooltip'
import { useRouterState } from '@tanstack/react-router'
import { ListItemButtonLink } from '../../components/links.tsx'
import { useLingui } from '@lingui/react'
import { useLocale } from '../../app/useLocale.ts'
import { localize } from '../../../contract/codes/localize.ts'
import { ExpandMoreIcon } from '../../components/icons/icons.tsx'
import type { MenuContext, MenuItem } from '../../components/menuTypes.ts'

type Props = { items: MenuItem[]; mini: boolean; ctx: MenuContext; onNavigate?: () => void }

/** Path of a menu target without the locale prefix, to compare with the current page. */
const plainPath = (item: MenuItem) =>
  (item.to ?? '')
    .replace('/{-$locale}', '')
    .replace(/\{-\$id\}|\$id/, item.params?.id ?? '')
    .replace(/\/$/, '')
    .replace(/\$$/, item.params?._splat ?? '') || '/'
/** Whether an entry is the current page; a settings list also stays selected on its create, edit and delete pages. */
const isCurrent = (item: MenuItem, pathname: string): boolean =>
  item.to !== undefined && (plainPath(item) === pathname || (item.params?._splat !== undefined && pathname.startsWith(`${plainPath(item)}/`)))
const containsPath = (item: MenuItem, pathname: string): boolean => isCurrent(item, pathname) || (item.children ?? []).some((c) => containsPath(c, pathname))

/** A menu label: a Lingui message, a registry text in the three languages, or a name the site gave. */
function labelOf(label: MenuItem['label'], i18n: ReturnType<typeof useLingui>['i18n']): string {
  if (typeof label === 'string') return label
  return 'pt-BR' in label ? localize(label, i18n.locale) : i18n._(label)
}
/**
 * A separator above an entry, drawn by the entry's own list item: a list may hold only list items (axe 'list'), so the
 * line is not an element of its own. Purely visual; the group's heading already says where a section starts.
 */
const dividerAbove = {
  position: 'relative',
  mt: 0.75,
  pt: 0.75,
  '&::before': { content: '""', position: 'absolute', top: 0, insetInline: 'var(--ListItem-paddingX, 12px)', borderTop: '1px solid', borderColor: 'divider' },
} as const

const stripLocale = (pathname: string) => pathname.replace(/^\/(en-us|es-es)(?=\/|$)/, '').replace(/\/$/, '') || '/'

function ItemBadge({ item, ctx, mini }: { item: MenuItem; ctx: MenuContext; mini: boolean }) {
  const badge = item.badge?.(ctx)
  if (!badge) return null
  return (
    <Chip
      size="sm"
      variant="solid"
      color={badge.color ?? 'primary'}
      sx={mini ? { position: 'absolute', top: 2, right: 6, minHeight: 16, px: 0.6, fontSize: 10 } : { minHeight: 20 }}
    >
      {badge.value}
    </Chip>
  )
}

function LeafItem({
  item,
  mini,
  ctx,
  onNavigate,
  nested,
  divider = item.divider,
}: { item: MenuItem; nested?: boolean; divider?: boolean } & Omit<Props, 'items'>) {
  const { i18n } = useLingui()
  const { params } = useLocale()
  const pathname = useRouterState({ select: (s) => stripLocale(s.location.pathname) })
  const label = labelOf(item.label, i18n)
  const Icon = item.icon
  const selected = isCurrent(item, pathname)
  // The current page's entry is brought into the menu's scroll area (a settings list deep in a long section would
  // otherwise sit below its fold); `nearest` leaves an entry already in sight where it is.
  const entry = useRef<HTMLLIElement>(null)
  useEffect(() => {
    if (selected) entry.current?.scrollIntoView?.({ block: 'nearest' })
  }, [selected])
  const button = (
    <ListItemButtonLink
      // Every menu target lives under {-$locale}, so they all take the same params.
      to={item.to as '/{-$locale}'}
      params={{ ...params, ...item.params }}
      selected={selected}
      onClick={onNavigate}
      aria-label={mini ? label : undefined}
      data-menu={item.id}
      sx={{ position: 'relative', ...(mini ? { justifyContent: 'center', px: 0 } : nested ? { pl: 1.25 } : {}) }}
    >
      <ListItemDecorator sx={mini ? { minInlineSize: 'auto' } : undefined}>
        <Icon />
      </ListItemDecorator>
      {!mini && (
        <ListItemContent sx={{ fontSize: nested ? 'sm' : 'md', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} title={label}>
          {label}
        </ListItemContent>
      )}
      <ItemBadge item={item} ctx={ctx} mini={mini} />
    </ListItemButtonLink>
  )
  return (
    <ListItem ref={entry} sx={divider ? dividerAbove : undefined}>
      {mini ? (
        <Tooltip title={label} placement="right" arrow>
          {button}
        </Tooltip>
      ) : (
        button
      )}
    </ListItem>
  )
}

function GroupItem({ item, mini, ctx, onNavigate }: { item: MenuItem } & Omit<Props, 'items'>) {
  const { i18n } = useLingui()
  const pathname = useRouterState({ select: (s) => stripLocale(s.location.pathname) })
  const containsCurrent = containsPath(item, pathname)
  const [open, setOpen] = useState(containsCurrent)
  const Icon = item.icon
  const children = item.children ?? []
  // In mini mode a group shows its children as icons (with tooltips), so every page stays one click away.
  if (mini) {
    return children.map((child, index) => (
      <LeafItem key={child.id} item={child} mini ctx={ctx} onNavigate={onNavigate} divider={index === 0 ? item.divider : child.divider} />
    ))
  }
  return (
    <ListItem nested sx={item.divider ? dividerAbove : undefined}>
      <ListItemButton onClick={() => setOpen(!open)} aria-expanded={open} data-menu={item.id}>
        <ListItemDecorator>
          <Icon />
        </ListItemDecorator>
        <ListItemContent>{labelOf(item.label, i18n)}</ListItemContent>
        <ItemBadge item={item} ctx={ctx} mini={false} />
        <ExpandMoreIcon sx={{ transform: open ? 'rotate(180deg)' : 'none', transition: 'transform 160ms', color: 'text.tertiary' }} />
      </ListItemButton>
      {open && (
        <List sx={{ '--List-gap': '2px', '--ListItemDecorator-size': '30px', pl: 0.75, ml: 2.25, borderLeft: '1px solid', borderColor: 'divider', mt: 0.25 }}>
          {children.map((child) =>
            child.children ? (
              <GroupItem key={child.id} item={child} mini={false} ctx={ctx} onNavigate={onNavigate} />
            ) : (
              <LeafItem key={child.id} item={child} mini={false} ctx={ctx} onNavigate={onNavigate} nested />
            ),
          )}
        </List>
      )}
    </ListItem>
  )
}

export function SideMenuItems({ items, mini, ctx, onNavigate }: Props) {
  return (
    <List
      size="md"
      sx={{
        '--List-gap': '4px',
        '--ListItem-radius': '10px',
        '--ListItemDecorator-size': '34px',
        '--List-nestedInsetStart': '0px',
        px: mini ? 1 : 1.5,
        '& .MuiListItemButton-root.Mui-selected': { bgcolor: 'primary.softBg', color: 'primary.softColor', fontWeight: 600 },
        '& .MuiListItemButton-root.Mui-selected .MuiListItemDecorator-root': { color: 'primary.500' },
        // Nested labels are longer; the selection colour is enough there, bold text would be cut.
        '& .MuiList-root .MuiListItemButton-root.Mui-selected': { fontWeight: 500 },
      }}
    >
      {items.map((item) =>
        item.children ? (
          <GroupItem key={item.id} item={item} mini={mini} ctx={ctx} onNavigate={onNavigate} />
        ) : (
          <LeafItem key={item.id} item={item} mini={mini} ctx={ctx} onNavigate={onNavigate} />
        ),
      )}
    </List>
  )
}
