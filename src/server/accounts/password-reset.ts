/**
 * Password reset (PWD-01, PWD-02): a member asks for a link by e-mail address; the mailed link
 * (`/reset-password/do?token=…`, kind 'password_reset', 2 hours, single use, stored hashed) opens a
 * form for a new password. Setting it ends every session of the member, revokes the other open reset
 * links, lifts a login block on the account and logs this browser in with a fresh session.
 *
 * An unknown address is told 'e-mail not found' because the specification asks for that message; the
 * trade-off (it tells whether an address has an account) is recorded in docs/decisions/006-login-throttling.md.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { profiles, users } from '../../db/schema';
import { isValidEmail } from '../../shared/email';
import { hashPassword } from '../auth/passwords';
import { createSession, revokeUserSessions, type CreatedSession } from '../auth/sessions';
import { accountKey, clearFailures } from '../auth/throttle';
import type { Clock } from '../clock';
import type { AppContext } from '../context';
import type { Site } from '../sites/directory';
import { sendAccountMail } from './mails';
import { checkPassword, type PasswordProblem } from './rules';
import { consumeToken, countTokensSince, issueToken, peekToken, revokeTokens } from './tokens';

/** At most this many reset mails per account in 24 hours. */
export const RESET_MAILS_PER_DAY = 3;
const DAY_MS = 24 * 3600 * 1000;

export type ResetRequestResult =
  | { type: 'ok'; mailId: number }
  | { type: 'error'; reason: 'invalid_email' | 'email_not_found' | 'too_many_password_resets' };

/**
 * Mails a reset link to the member with this address on `site`. The count of the last 24 hours and
 * the new token are written under a lock on the member's row, so parallel requests cannot pass the
 * daily limit together.
 */
export async function requestPasswordReset(
  app: Pick<AppContext, 'db' | 'clock' | 'mailer'>,
  input: { site: Site; email: string; origin: string },
): Promise<ResetRequestResult> {
  const email = input.email.trim();
  if (!isValidEmail(email)) return { type: 'error', reason: 'invalid_email' };
  const [member] = await app.db
    .select({ id: users.id, email: users.email, language: users.language, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.siteId, input.site.settings.id), sql`lower(${users.email}) = ${email.toLowerCase()}`, eq(users.role, 'member'), ne(users.status, 'deleted')))
    .limit(1);
  if (!member) return { type: 'error', reason: 'email_not_found' };

  const now = app.clock.now();
  const token = await app.db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, member.id)).for('update');
    const sent = await countTokensSince(tx, member.id, 'password_reset', new Date(now.getTime() - DAY_MS));
    if (sent >= RESET_MAILS_PER_DAY) return null;
    return issueToken(tx, app.clock, member.id, 'password_reset');
  });
  if (!token) return { type: 'error', reason: 'too_many_password_resets' };
  const sent = await sendAccountMail(app, {
    site: input.site,
    user: member,
    kind: 'password_reset',
    url: `${input.origin}/reset-password/do?token=${token}`,
  });
  return { type: 'ok', mailId: sent.id };
}

export type ResetLinkState = { type: 'ok'; userId: number } | { type: 'error'; reason: 'reset_link_expired' };

/** Whether a reset link is live (shown as the form) or not ('reset link expired' for expired, used or unknown links). */
export async function checkResetLink(deps: { db: Db; clock: Clock }, token: string): Promise<ResetLinkState> {
  const peeked = await peekToken(deps.db, deps.clock, token, 'password_reset');
  return peeked.type === 'ok' ? { type: 'ok', userId: peeked.userId } : { type: 'error', reason: 'reset_link_expired' };
}

export const resetFormSchema = z.object({
  token: z.string().max(200),
  password: z.string().max(1024),
  password_repeat: z.string().max(1024),
});
export type ResetForm = z.infer<typeof resetFormSchema>;

export type ResetFieldError = PasswordProblem | 'passwords_differ';

export type ResetResult =
  | { type: 'ok'; userId: number; created: CreatedSession }
  | { type: 'error'; reason: 'reset_link_expired' }
  | { type: 'error'; reason: 'validation_failed'; fields: { password?: ResetFieldError; password_repeat?: ResetFieldError } };

/**
 * Sets a new password through a live reset link. Bad input changes nothing (the link stays usable);
 * success uses the link, stores the new argon2 hash, revokes the other reset links, ends every session
 * of the member, clears the account's failed logins and creates a session for this browser.
 */
export async function resetPassword(
  deps: { db: Db; clock: Clock },
  form: ResetForm,
  meta: { ip?: string | null; userAgent?: string | null } = {},
): Promise<ResetResult> {
  const link = await peekToken(deps.db, deps.clock, form.token, 'password_reset');
  if (link.type === 'error') return { type: 'error', reason: 'reset_link_expired' };
  const [member] = await deps.db.select({ email: users.email, status: users.status }).from(users).where(eq(users.id, link.userId)).limit(1);
  if (!member || member.status === 'deleted') return { type: 'error', reason: 'reset_link_expired' };
  const problem = checkPassword(form.password, member.email);
  if (problem) return { type: 'error', reason: 'validation_failed', fields: { password: problem } };
  if (form.password !== form.password_repeat) return { type: 'error', reason: 'validation_failed', fields: { password_repeat: 'passwords_differ' } };

  const passwordHash = await hashPassword(form.password);
  const userId = await deps.db.transaction(async (tx) => {
    // The conditional update inside consumeToken makes the link single use even when submitted twice at once.
    const used = await consumeToken(tx, deps.clock, form.token, 'password_reset');
    if (used.type === 'error') return null;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, used.userId));
    await revokeTokens(tx, deps.clock, used.userId, 'password_reset');
    await revokeUserSessions(tx, used.userId);
    await clearFailures({ db: tx }, accountKey(used.userId));
    return used.userId;
  });
  if (userId === null) return { type: 'error', reason: 'reset_link_expired' };
  const created = await createSession(deps.db, deps.clock, userId, meta);
  return { type: 'ok', userId, created };
}
