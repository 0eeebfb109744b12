import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { serviceCalendars, serviceCalendarsHolidays, serviceCalendarsHours } from '../db/schema/index.ts'
import { isOpen } from './calendar.ts'

/** Whether the site's calendar is open at `at`; a calendar deleted or switched off keeps the route open. */
export async function calendarOpen(db: Db, siteId: number, calendarId: number, at: Date): Promise<boolean> {
  const [calendar] = await db
    .select()
    .from(serviceCalendars)
    .where(and(eq(serviceCalendars.siteId, siteId), eq(serviceCalendars.id, calendarId), eq(serviceCalendars.isActive, true)))
  if (!calendar) return true
  const hours = await db.select().from(serviceCalendarsHours).where(eq(serviceCalendarsHours.calendarId, calendar.id))
  const holidays = await db.select().from(serviceCalendarsHolidays).where(eq(serviceCalendarsHolidays.calendarId, calendar.id))
  return isOpen({ timezone: calendar.timezone, hours, holidays }, at)
}
