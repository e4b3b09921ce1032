/**
 * "Resend the activation mail" from the activation reminder (ACT-02): at most one activation mail per
 * 10 minutes per member, counting the one sent at signup.
 *
 * Two checks: the newest activation token (whoever issued it) must be at least 10 minutes old, and an
 * atomic upsert on a per-member key in `login_throttle` admits one resend per window even when two
 * requests arrive together (the conflicting row is locked and its window re-checked).
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { accountTokens, loginThrottle } from '../../db/schema';
import { sendActivationMail } from '../accounts/activation';
import type { MailDeps } from '../mail/mailer';
import type { Site } from '../sites/directory';

export const ACTIVATION_RESEND_INTERVAL_MS = 10 * 60 * 1000;

export type ResendResult = { type: 'ok' } | { type: 'error'; reason: 'already_confirmed' | 'mail_failed' } | { type: 'error'; reason: 'too_soon'; minutes: number };

const throttleKey = (userId: number) => `activation_mail:${userId}`;

const minutesLeft = (since: Date, now: Date) => Math.max(1, Math.ceil((since.getTime() + ACTIVATION_RESEND_INTERVAL_MS - now.getTime()) / 60_000));

/** Mails a new activation link when the member is still unconfirmed and the last one is 10+ minutes old. */
export async function resendActivationMail(app: MailDeps, site: Site, userId: number, origin: string): Promise<ResendResult> {
  const now = app.clock.now();
  const [latest] = await app.db
    .select({ createdAt: accountTokens.createdAt })
    .from(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, 'activation')))
    .orderBy(desc(accountTokens.createdAt))
    .limit(1);
  if (latest && now.getTime() - latest.createdAt.getTime() < ACTIVATION_RESEND_INTERVAL_MS) {
    return { type: 'error', reason: 'too_soon', minutes: minutesLeft(latest.createdAt, now) };
  }
  const windowOpen = new Date(now.getTime() - ACTIVATION_RESEND_INTERVAL_MS);
  const admitted = await app.db
    .insert(loginThrottle)
    .values({ key: throttleKey(userId), failures: 1, windowStart: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: { failures: sql`${loginThrottle.failures} + 1`, windowStart: now },
      setWhere: sql`${loginThrottle.windowStart} <= ${windowOpen.toISOString()}::timestamptz`,
    })
    .returning({ key: loginThrottle.key });
  if (admitted.length === 0) {
    const [row] = await app.db
      .select({ windowStart: loginThrottle.windowStart })
      .from(loginThrottle)
      .where(eq(loginThrottle.key, throttleKey(userId)))
      .limit(1);
    return { type: 'error', reason: 'too_soon', minutes: minutesLeft(row?.windowStart ?? now, now) };
  }
  const sent = await sendActivationMail(app, site, userId, origin);
  if (!sent) return { type: 'error', reason: 'already_confirmed' };
  return sent.type === 'ok' ? { type: 'ok' } : { type: 'error', reason: 'mail_failed' };
}
