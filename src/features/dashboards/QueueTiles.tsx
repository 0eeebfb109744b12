import Box from '@mui/joy/Box'
import Sheet from '@mui/joy/Sheet'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import type { WallboardQueue } from '../../../contract/realtime/wallboard.ts'
import type { QueueCaller } from '../../../contract/realtime/queue-callers.ts'
import { secondsSince, shortDuration } from './wallboardView.ts'

// One tile per queue (calls and chats): who waits and for how long (the longest wait ticks locally), today's answered
// and abandoned, the service level against the queue's target, and agents free of those signed in. A queue with
// somebody waiting and nobody free is drawn in danger colours: that is what a supervisor must see first. Under a
// telephony queue, its first waiting callers (the media app's live list): number and how long each has waited.

const SHOWN_CALLERS = 5

export function QueueTiles({ queues, callers, now }: { queues: WallboardQueue[]; callers: ReadonlyMap<number, QueueCaller[]>; now: number }) {
  const { t } = useLingui()
  if (!queues.length) return null
  return (
    <Box component="section" aria-label={t`Filas`} sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' }}>
      {queues.map((queue) => {
        const alarm = queue.waiting > 0 && queue.agents_free === 0
        const sl = queue.service_level
        const waiting = queue.kind === 'calls' ? (callers.get(queue.id) ?? []) : []
        return (
          <Sheet
            key={queue.key}
            variant={alarm ? 'soft' : 'outlined'}
            color={alarm ? 'danger' : 'neutral'}
            data-testid="wallboard-queue"
            data-queue={queue.name}
            sx={{ borderRadius: 'sm', p: 1, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, alignItems: 'center' }}
          >
            <Box sx={{ textAlign: 'center', minWidth: 56 }}>
              <Typography level="h2" component="p" sx={{ fontVariantNumeric: 'tabular-nums', lineHeight: 1 }} data-testid="wallboard-queue-waiting">
                {queue.waiting}
              </Typography>
              <Typography level="body-xs">{t`aguardando`}</Typography>
            </Box>
            <Box sx={{ minWidth: 0 }}>
              <Typography level="title-sm" noWrap title={queue.name}>
                {queue.name}{' '}
                <Typography level="body-xs" textColor="text.secondary">
                  {queue.kind === 'calls' ? t`ligações` : t`chats`}
                </Typography>
              </Typography>
              <Typography level="body-xs" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {t`Maior espera`} {queue.longest_since ? shortDuration(secondsSince(queue.longest_since, now)) : '—'}
              </Typography>
              <Typography level="body-xs" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {t`Atendidas`} {queue.answered} · {t`Abandonadas`} {queue.abandoned}
              </Typography>
              <Typography level="body-xs" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {t`NS`} {sl === null ? '—' : `${sl}%`} ({queue.target}s) · {t`Livres`} {queue.agents_free}/{queue.agents_logged}
              </Typography>
            </Box>
            {waiting.length > 0 && (
              <Box component="ol" aria-label={t`Chamadas aguardando`} data-testid="wallboard-queue-callers" sx={{ gridColumn: '1 / -1', m: 0, mt: 0.5, pl: 3 }}>
                {waiting.slice(0, SHOWN_CALLERS).map((caller) => (
                  <Typography key={caller.call_id} component="li" level="body-xs" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                    {caller.phone || '—'} · {shortDuration(secondsSince(caller.since, now))}
                  </Typography>
                ))}
                {waiting.length > SHOWN_CALLERS && (
                  <Typography component="li" level="body-xs" sx={{ listStyle: 'none' }}>
                    +{waiting.length - SHOWN_CALLERS}
                  </Typography>
                )}
              </Box>
            )}
          </Sheet>
        )
      })}
    </Box>
  )
}
