/** Reading and storing alert dismissals (ALR-04) in users.dismissals. */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { NOTIFICATIONS_LIST_KEY, type AlertKey, type Dismissals } from './rules';

/** The member's dismissals ({} when there are none or the member is gone). */
export async function loadDismissals(db: Db, userId: number): Promise<Dismissals> {
  const [row] = await db.select({ dismissals: users.dismissals }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.dismissals ?? {};
}

/**
 * Stores the time `alert` was dismissed, in one statement (concurrent dismissals of other alerts are
 * kept). Dismissing `notifications_disabled` also keeps the list as it is now, so the alert returns
 * when the list changes. Returns the dismissals after the change.
 */
export async function dismissAlert(db: Db, userId: number, alert: AlertKey, now: Date): Promise<Dismissals> {
  const stamp = now.toISOString();
  const addition =
    alert === 'notifications_disabled'
      ? sql`jsonb_build_object(${alert}::text, ${stamp}::text, ${NOTIFICATIONS_LIST_KEY}::text, (select coalesce(string_agg(x, ',' order by x collate "C"), '') from jsonb_array_elements_text(${users.notificationsDisabled}) as x))`
      : sql`jsonb_build_object(${alert}::text, ${stamp}::text)`;
  const [row] = await db
    .update(users)
    .set({ dismissals: sql`coalesce(${users.dismissals}, '{}'::jsonb) || ${addition}` })
    .where(eq(users.id, userId))
    .returning({ dismissals: users.dismissals });
  return row?.dismissals ?? {};
}
