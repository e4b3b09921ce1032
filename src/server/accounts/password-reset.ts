/**
 * Password reset (PWD-01, PWD-02, SEC-11): a member asks for a link by e-mail address; the mailed link
 * (`/reset-password/do?token=…`, kind 'password_reset', 2 hours, single use, stored hashed) opens a
 * form for a new password. Setting it ends every session of the member, revokes the other open reset
 * links, lifts a login block on the account and logs this browser in with a fresh session (and a device
 * cookie, SEC-13).
 *
 * The request answers the same for every well-formed address, with or without an account
 * (docs/decisions/018-password-reset-without-enumeration.md): it counts the request per IP and per
 * address, then hands the look-up, the token and the mail to a background task, so neither the answer
 * nor its timing tells whether an account exists. 'E-mail not found' is no longer shown.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { profiles, users } from '../../db/schema';
import { isValidEmail } from '../../shared/email';
import type { DeviceCookies } from '../auth/device-cookie';
import { hashPassword } from '../auth/passwords';
import { createSession, revokeUserSessions, type CreatedSession } from '../auth/sessions';
import { accountKey, clearFailures, consumeAllowance, type ThrottleRule } from '../auth/throttle';
import type { BackgroundTasks } from '../background';
import type { Clock } from '../clock';
import type { MailDeps } from '../mail/mailer';
import type { Site } from '../sites/directory';
import { sendAccountMail } from '../mail/member-mail';
import { checkPassword, type PasswordProblem } from './rules';
import { consumeToken, countTokensSince, issueToken, peekToken, revokeTokens } from './tokens';

/** At most this many reset mails per account in 24 hours. */
export const RESET_MAILS_PER_DAY = 3;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Requests per address (with or without an account) in 24 hours: the daily mail limit, applied before
 * anyone knows whether the address has an account, so an account's fourth request and an unknown
 * address's fourth request get the same 'too many password resets'.
 */
export const RESET_ADDRESS_RULE: ThrottleRule = { limit: RESET_MAILS_PER_DAY, windowMs: DAY_MS, blockMs: DAY_MS };
/** Requests per client address in 24 hours, whatever e-mail addresses they name. */
export const RESET_IP_RULE: ThrottleRule = { limit: 20, windowMs: DAY_MS, blockMs: DAY_MS };
export const resetAddressKey = (siteId: number, email: string) => `reset-email:${siteId}:${email.trim().toLowerCase()}`;
export const resetIpKey = (ip: string) => `reset-ip:${ip}`;

/** What became of an accepted request, known only to the background task (and to tests). */
export type ResetDelivery = { type: 'mailed'; mailId: number } | { type: 'skipped'; reason: 'no_account' | 'daily_limit' } | { type: 'failed' };

export type ResetRequestResult =
  /** The same for every well-formed address; `delivery` settles after the answer has gone out. */
  { type: 'accepted'; delivery: Promise<ResetDelivery> } | { type: 'error'; reason: 'invalid_email' | 'too_many_password_resets' };

export type ResetRequestDeps = MailDeps & { background: BackgroundTasks };

/**
 * Accepts a reset request for `email` on `site` unless the address is malformed or the request goes
 * past the per-IP or per-address limit; the mail (when there is an account) is sent in the background,
 * after `responseDone` (the request's answer has gone out).
 */
export async function requestPasswordReset(app: ResetRequestDeps, input: { site: Site; email: string; origin: string; ip?: string | null; responseDone?: Promise<void> }): Promise<ResetRequestResult> {
  const email = input.email.trim();
  if (!isValidEmail(email)) return { type: 'error', reason: 'invalid_email' };
  const siteId = input.site.settings.id;
  // The IP first: a client over its own limit cannot use up an address's requests as well.
  const refused = await consumeAllowance(app, [...(input.ip ? [{ key: resetIpKey(input.ip), rule: RESET_IP_RULE }] : []), { key: resetAddressKey(siteId, email), rule: RESET_ADDRESS_RULE }]);
  if (refused) return { type: 'error', reason: 'too_many_password_resets' };
  const delivery = app.background
    .run('password-reset-mail', () => deliverPasswordReset(app, { site: input.site, email, origin: input.origin }), input.responseDone)
    .then((outcome): ResetDelivery => outcome ?? { type: 'failed' });
  return { type: 'accepted', delivery };
}

/**
 * Mails a reset link to the member with this address on `site`, if there is one. The count of the last
 * 24 hours and the new token are written under a lock on the member's row, so parallel requests cannot
 * pass the daily limit together.
 */
async function deliverPasswordReset(app: MailDeps, input: { site: Site; email: string; origin: string }): Promise<ResetDelivery> {
  const [member] = await app.db
    .select({ id: users.id, email: users.email, language: users.language, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.siteId, input.site.settings.id), sql`lower(${users.email}) = ${input.email.toLowerCase()}`, eq(users.role, 'member'), ne(users.status, 'deleted')))
    .limit(1);
  if (!member) return { type: 'skipped', reason: 'no_account' };

  const now = app.clock.now();
  const token = await app.db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, member.id)).for('update');
    const sent = await countTokensSince(tx, member.id, 'password_reset', new Date(now.getTime() - DAY_MS));
    if (sent >= RESET_MAILS_PER_DAY) return null;
    return issueToken(tx, app.clock, member.id, 'password_reset');
  });
  if (!token) return { type: 'skipped', reason: 'daily_limit' };
  const sent = await sendAccountMail(app, {
    site: input.site,
    user: member,
    kind: 'password_reset',
    url: `${input.origin}/reset-password/do?token=${token}`,
  });
  return sent.type === 'ok' ? { type: 'mailed', mailId: sent.id } : { type: 'failed' };
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
  /** `deviceCookie`: this browser is now a known device of the account (SEC-13). */
  | { type: 'ok'; userId: number; created: CreatedSession; deviceCookie: string }
  | { type: 'error'; reason: 'reset_link_expired' }
  | { type: 'error'; reason: 'validation_failed'; fields: { password?: ResetFieldError; password_repeat?: ResetFieldError } };

/**
 * Sets a new password through a live reset link. Bad input changes nothing (the link stays usable);
 * success uses the link, stores the new argon2 hash, revokes the other reset links, ends every session
 * of the member, clears the account's failed logins and creates a session and a device cookie for this browser.
 */
export async function resetPassword(deps: { db: Db; clock: Clock; devices: DeviceCookies }, form: ResetForm, meta: { ip?: string | null; userAgent?: string | null } = {}): Promise<ResetResult> {
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
  return { type: 'ok', userId, created, deviceCookie: deps.devices.issue(userId) };
}
