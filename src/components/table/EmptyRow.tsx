import Typography from '@mui/joy/Typography'

/** The one row a list table shows when it has none ('Sem resultados', spec 001 §2, or the list's own words). */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: string }) {
  return (
    <tr>
      <td colSpan={colSpan}>
        <Typography level="body-sm" textColor="text.tertiary" sx={{ textAlign: 'center', py: 3 }} data-testid="list-empty">
          {children}
        </Typography>
      </td>
    </tr>
  )
}
