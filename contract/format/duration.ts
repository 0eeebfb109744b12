/**
 * Seconds as 'HH:MM:SS' (spec 000 §9). Hours are not wrapped at 24 (90061 → '25:01:01'); fractions are dropped;
 * negative, NaN and infinite values read '00:00:00'.
 */
export function formatDuration(seconds: number | string | null | undefined): string {
  const total = Math.floor(Number(seconds ?? 0))
  if (!Number.isFinite(total) || total <= 0) return '00:00:00'
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  return [hours, minutes, total % 60].map((part) => String(part).padStart(2, '0')).join(':')
}
