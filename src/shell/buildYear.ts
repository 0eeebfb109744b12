/** The local year of the build date baked in by vite.config.ts (the copyright line), without loading dayjs. */
export function buildYear(iso: string = __BUILD_DATE__): number {
  return new Date(iso).getFullYear()
}
