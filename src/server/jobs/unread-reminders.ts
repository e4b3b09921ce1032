/**
 * Unread reminder mails (issue 10): a member with unread messages who has not been on the site since the
 * newest of them arrived, and that message is older than the quiet time, gets one mail saying how many
 * are waiting — not more than once a day, and not when they switched message notifications off. New
 * messages in a running conversation notify by push only; this mail is their e-mail.
 */
import { and, eq, gt, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { blocks, conversationMembers, mailOutbox, profiles, users } from '../../db/schema';
import { sendAccountMail } from '../mail/member-mail';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { PREFERENCE_FOR } from '../notify/notify';
import type { SiteDirectory } from '../sites/directory';

export const UNREAD_REMINDER_KIND = 'notify_unread_reminder';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReminderDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  mailer: Mailer;
  sites: SiteDirectory;
}

export async function sendUnreadReminders(deps: ReminderDeps, options: { quietMinutes: number; limit?: number }): Promise<{ sent: number }> {
  const now = deps.clock.now();
  const quietSince = new Date(now.getTime() - options.quietMinutes * 60_000);
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const waiting = await deps.db
    .select({
      id: users.id,
      siteId: users.siteId,
      email: users.email,
      language: users.language,
      name: profiles.name,
      unread: sql<number>`sum(${conversationMembers.unread})`.mapWith(Number),
      newest: sql<Date>`max(${conversationMembers.lastMessageAt})`.mapWith((v: string | Date) => new Date(v)),
      lastActiveAt: profiles.lastActiveAt,
    })
    .from(conversationMembers)
    .innerJoin(users, eq(users.id, conversationMembers.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(
      and(
        gt(conversationMembers.unread, 0),
        isNull(conversationMembers.removedAt),
        eq(users.role, 'member'),
        eq(users.status, 'active'),
        isNull(users.deletedAt),
        sql`not (${users.notificationsDisabled} @> ${JSON.stringify([PREFERENCE_FOR.new_message])}::jsonb)`,
        sql`not exists (select 1 from ${blocks} where (${blocks.blockerId} = ${conversationMembers.userId} and ${blocks.blockedId} = ${conversationMembers.otherId}) or (${blocks.blockerId} = ${conversationMembers.otherId} and ${blocks.blockedId} = ${conversationMembers.userId}))`,
        notInArray(
          users.id,
          deps.db
            .select({ id: sql<number>`${mailOutbox.userId}` })
            .from(mailOutbox)
            .where(and(eq(mailOutbox.kind, UNREAD_REMINDER_KIND), gt(mailOutbox.createdAt, dayAgo), sql`${mailOutbox.userId} is not null`)),
        ),
      ),
    )
    .groupBy(users.id, profiles.userId)
    // The bound goes in as text with its type: a Date beside a bare `max(…)` has no column to encode it,
    // and PostgreSQL's driver refuses a Date it must send as text (PGlite took it).
    .having(and(sql`max(${conversationMembers.lastMessageAt}) < ${quietSince.toISOString()}::timestamptz`, lt(profiles.lastActiveAt, sql`max(${conversationMembers.lastMessageAt})`)))
    .limit(options.limit ?? 500);
  let sent = 0;
  for (const member of waiting) {
    try {
      const site = await deps.sites.forId(member.siteId);
      const result = await sendAccountMail(deps, {
        site,
        user: { id: member.id, email: member.email, language: member.language, name: member.name },
        kind: UNREAD_REMINDER_KIND,
        url: `https://${site.settings.domain}/chats`,
        values: { count: member.unread },
      });
      if (result.type === 'ok') sent++;
    } catch (err) {
      deps.log.error({ err, userId: member.id }, 'unread reminder failed');
    }
  }
  if (sent > 0) deps.log.info({ sent }, 'unread reminders sent');
  return { sent };
}
