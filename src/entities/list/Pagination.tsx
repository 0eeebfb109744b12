import { useId } from 'react'
import Box from '@mui/joy/Box'
import IconButton from '@mui/joy/IconButton'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { PAGE_SIZE_ALL, PAGE_SIZE_OPTIONS } from '../../../contract/constants.ts'
import { ChevronLeftIcon, ChevronRightIcon } from '../../components/icons/icons.tsx'

type Props = {
  count: number
  page: number
  pageSize: number
  onPage: (page: number) => void
  onPageSize: (size: number) => void
  /** Offer "all" (limit 99999) after 5–25; reports leave it out. */
  allowAll?: boolean
}

/** Page sizes 5/10/15/20/25 or all (limit 99999), the range shown and previous/next. */
export function Pagination({ count, page, pageSize, onPage, onPageSize, allowAll = true }: Props) {
  const { t } = useLingui()
  const id = useId()
  const all = pageSize === PAGE_SIZE_ALL
  const first = count === 0 ? 0 : all ? 1 : page * pageSize + 1
  const last = all ? count : Math.min(count, (page + 1) * pageSize)
  const lastPage = all ? 0 : Math.max(0, Math.ceil(count / pageSize) - 1)
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'flex-end',
        gap: 1.5,
        px: 1.5,
        py: 1,
        borderTop: '1px solid',
        borderColor: 'divider',
        flexWrap: 'wrap',
      }}
    >
      <Typography level="body-sm" id={`${id}-label`}>
        {t`Itens por página`}
      </Typography>
      <Select
        size="sm"
        value={pageSize}
        onChange={(_, value) => value !== null && onPageSize(value)}
        slotProps={{ button: { 'aria-labelledby': `${id}-label` } }}
        data-testid="page-size"
        sx={{ minWidth: 80 }}
      >
        {PAGE_SIZE_OPTIONS.map((size) => (
          <Option key={size} value={size}>
            {size}
          </Option>
        ))}
        {allowAll && <Option value={PAGE_SIZE_ALL}>{t`Todos`}</Option>}
      </Select>
      <Typography level="body-sm" data-testid="page-range">
        {t`${first}–${last} de ${count}`}
      </Typography>
      <IconButton size="sm" variant="outlined" color="neutral" disabled={page === 0} onClick={() => onPage(page - 1)} aria-label={t`Página anterior`}>
        <ChevronLeftIcon />
      </IconButton>
      <IconButton size="sm" variant="outlined" color="neutral" disabled={page >= lastPage} onClick={() => onPage(page + 1)} aria-label={t`Próxima página`}>
        <ChevronRightIcon />
      </IconButton>
    </Box>
  )
}
