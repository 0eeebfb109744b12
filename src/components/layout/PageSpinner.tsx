import Box from '@mui/joy/Box'
import CircularProgress from '@mui/joy/CircularProgress'

export function PageSpinner() {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 240, width: '100%' }}>
      <CircularProgress size="md" />
    </Box>
  )
}
