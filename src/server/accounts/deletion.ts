/**
 * Deleting an account (DEL-01); the alternatives offered first (invisible mode, all e-mail off) are the
 * settings screen's services (preferences.ts). A deleted account disappears at once
 * (status 'deleted', profile disabled, every session ended) but stays restorable for 14 days through
 * the mailed reactivation link; after that the erase job (src/server/jobs/erase-deleted.ts) removes the
 * personal data for good.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profiles, users, type UserStatus } from '../../db/schema';
import { createSession, revokeUserSessions, type CreatedSession } from '../auth/sessions';
import type { Clock } from '../clock';
import type { EventBus } from '../realtime/bus';
import type { MailDeps } from '../mail/mailer';
import type { Site } from '../sites/directory';
import { DELETE_GRACE_DAYS, DELETE_GRACE_MS, erasedEmail } from '../../shared/account-deletion';
import { sendAccountMail } from '../mail/member-mail';
import { checkCurrentPassword } from './preferences';
import { consumeToken, issueToken, peekToken, revokeTokens } from './tokens';

export { DELETE_GRACE_DAYS, DELETE_GRACE_MS, erasedEmail };

export type DeleteResult = { type: 'ok' } | { type: 'error'; reason: 'wrong_password' | 'not_found' } | { type: 'error'; reason: 'too_many_attempts'; minutes: number };

export interface DeleteInput {
  userId: number;
  password: string;
  /** Origin for the reactivation link (the one the member used). */
  origin: string;
}

/**
 * Deletes the account after checking the password: hidden at once, logged out everywhere, and a mail
 * with the reactivation link (valid 14 days). A wrong password changes nothing.
 */
export async function deleteAccount(app: MailDeps & { bus: EventBus }, site: Site, input: DeleteInput): Promise<DeleteResult> {
  const [row] = await app.db
    .select({ id: users.id, email: users.email, language: users.language, status: users.status, passwordHash: users.passwordHash, siteId: users.siteId, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, input.userId))
    .limit(1);
  if (!row || row.status === 'deleted' || row.siteId !== site.settings.id) return { type: 'error', reason: 'not_found' };
  // The same throttled check as the settings screen: a borrowed session cannot guess the password.
  const password = await checkCurrentPassword(app, row, input.password.slice(0, 1024));
  if (password.type === 'blocked') return { type: 'error', reason: 'too_many_attempts', minutes: password.minutes };
  if (password.type === 'wrong') return { type: 'error', reason: 'wrong_password' };
  const now = app.clock.now();
  await app.db.transaction(async (tx) => {
    await tx.update(users).set({ status: 'deleted', deletedAt: now }).where(eq(users.id, row.id));
    await tx.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, row.id));
  });
  // Gone from the site's shared answers (search pages, teasers, cached landers) in every process at once.
  await app.bus.publish('site.content_changed', { siteId: row.siteId });
  await revokeUserSessions(app.db, row.id);
  // Open links of the account (activation, e-mail change, an older reactivation) stop working.
  for (const kind of ['activation', 'password_reset', 'email_change', 'reactivation'] as const) await revokeTokens(app.db, app.clock, row.id, kind);
  const token = await issueToken(app.db, app.clock, row.id, 'reactivation', { ttlMs: DELETE_GRACE_MS });
  await sendAccountMail(app, {
    site,
    user: row,
    kind: 'account_deleted',
    url: `${input.origin}/account/reactivate?token=${token}`,
    values: { days: DELETE_GRACE_DAYS, count: DELETE_GRACE_DAYS },
  });
  return { type: 'ok' };
}

export type ReactivationCheck = { type: 'ok'; userId: number; name: string } | { type: 'error'; reason: 'invalid' | 'expired' | 'used' };

/** Whether a reactivation link can still restore its account (shown before the member confirms). */
export async function checkReactivation(deps: { db: Db; clock: Clock }, token: string, siteId: number): Promise<ReactivationCheck> {
  const peeked = await peekToken(deps.db, deps.clock, token, 'reactivation');
  if (peeked.type === 'error') return peeked;
  const [row] = await deps.db
    .select({ status: users.status, siteId: users.siteId, deletedAt: users.deletedAt, email: users.email, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, peeked.userId))
    .limit(1);
  if (!row || row.siteId !== siteId) return { type: 'error', reason: 'invalid' };
  if (row.status !== 'deleted') return { type: 'error', reason: 'used' };
  if (!row.deletedAt || row.deletedAt.getTime() + DELETE_GRACE_MS <= deps.clock.now().getTime() || row.email === erasedEmail(peeked.userId)) {
    return { type: 'error', reason: 'expired' };
  }
  return { type: 'ok', userId: peeked.userId, name: row.name };
}

export type ReactivationResult = { type: 'ok'; userId: number; created: CreatedSession } | { type: 'error'; reason: 'invalid' | 'expired' | 'used' };

/**
 * Restores a deleted account from its link and logs the member in: the status it had before ('active'
 * when the e-mail address was confirmed, otherwise 'not_confirmed'), the profile visible again when
 * confirmed. The token works once.
 */
export async function reactivateAccount(
  deps: { db: Db; clock: Clock; bus: EventBus },
  token: string,
  meta: { siteId: number; ip?: string | null; userAgent?: string | null },
): Promise<ReactivationResult> {
  const check = await checkReactivation(deps, token, meta.siteId);
  if (check.type === 'error') return check;
  const used = await consumeToken(deps.db, deps.clock, token, 'reactivation');
  if (used.type === 'error') return used;
  const restored = await deps.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ deletedAt: null, status: sql<UserStatus>`case when ${users.emailConfirmedAt} is not null then 'active' else 'not_confirmed' end` })
      .where(and(eq(users.id, used.userId), eq(users.status, 'deleted')))
      .returning({ emailConfirmedAt: users.emailConfirmedAt });
    if (!user) return false;
    const confirmed = user.emailConfirmedAt !== null;
    await tx
      .update(profiles)
      .set({ status: confirmed ? 'active' : 'disabled' })
      .where(eq(profiles.userId, used.userId));
    return true;
  });
  if (!restored) return { type: 'error', reason: 'used' };
  // Back in the site's shared answers (teasers, search pages, cached landers) in every process.
  await deps.bus.publish('site.content_changed', { siteId: meta.siteId });
  const created = await createSession(deps.db, deps.clock, used.userId, { ip: meta.ip ?? null, userAgent: meta.userAgent ?? null });
  return { type: 'ok', userId: used.userId, created };
}
