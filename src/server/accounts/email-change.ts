/**
 * Changing the e-mail address (MAIL-01): the member gives the new address and their current password;
 * the new address gets a confirmation link (`/mail-change/do?token=…`, kind 'email_change', 24 hours)
 * and the old address a notice. The link applies the change, marks the address confirmed, and is
 * refused when the address got an account on the site in the meantime (the unique index decides races).
 */
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accountTokens, profiles, users } from '../../db/schema';
import { isValidEmail } from '../../shared/email';
import type { Clock } from '../clock';
import type { MailDeps } from '../mail/mailer';
import type { Site } from '../sites/directory';
import { sendAccountMail } from '../mail/member-mail';
import { isDisposableEmail } from './rules';
import { consumeToken, countTokensSince, issueToken, revokeTokens } from './tokens';
import { checkCurrentPassword } from './preferences';

/** At most this many change requests (mails to new addresses) per member in 24 hours. */
export const EMAIL_CHANGES_PER_DAY = 5;
const DAY_MS = 24 * 3600 * 1000;

export const emailChangeSchema = z.object({
  email: z.string().trim().max(254),
  current_password: z.string().max(1024),
});
export type EmailChangeForm = z.input<typeof emailChangeSchema>;

export type EmailChangeFieldError = 'invalid_email' | 'email_disposable' | 'email_taken' | 'email_unchanged' | 'wrong_password';

export type EmailChangeRequestResult =
  | { type: 'ok'; newEmail: string }
  | { type: 'error'; reason: 'validation_failed'; fields: { email?: EmailChangeFieldError; current_password?: EmailChangeFieldError } }
  | { type: 'error'; reason: 'too_many_attempts'; minutes: number }
  | { type: 'error'; reason: 'too_many_email_changes' };

/** Whether another account on the site already uses `email` (any letter case). */
async function emailTaken(db: Db, siteId: number, email: string, exceptUserId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.siteId, siteId), sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, exceptUserId)))
    .limit(1);
  return row !== undefined;
}

/** Checks the request and mails the link to the new address and a notice to the old one. */
export async function requestEmailChange(app: MailDeps, input: { site: Site; userId: number; origin: string; form: EmailChangeForm }): Promise<EmailChangeRequestResult> {
  const parsed = emailChangeSchema.safeParse(input.form);
  if (!parsed.success) return { type: 'error', reason: 'validation_failed', fields: { email: 'invalid_email' } };
  const { email: newEmail, current_password: password } = parsed.data;
  const [member] = await app.db
    .select({ id: users.id, siteId: users.siteId, email: users.email, language: users.language, passwordHash: users.passwordHash, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, input.userId))
    .limit(1);
  if (!member) return { type: 'error', reason: 'validation_failed', fields: { current_password: 'wrong_password' } };

  if (!isValidEmail(newEmail)) return { type: 'error', reason: 'validation_failed', fields: { email: 'invalid_email' } };
  if (isDisposableEmail(newEmail)) return { type: 'error', reason: 'validation_failed', fields: { email: 'email_disposable' } };
  if (newEmail.toLowerCase() === member.email.toLowerCase()) return { type: 'error', reason: 'validation_failed', fields: { email: 'email_unchanged' } };
  const passwordCheck = await checkCurrentPassword(app, member, password);
  if (passwordCheck.type === 'blocked') return { type: 'error', reason: 'too_many_attempts', minutes: passwordCheck.minutes };
  if (passwordCheck.type === 'wrong') return { type: 'error', reason: 'validation_failed', fields: { current_password: 'wrong_password' } };
  if (await emailTaken(app.db, member.siteId, newEmail, member.id)) return { type: 'error', reason: 'validation_failed', fields: { email: 'email_taken' } };

  const now = app.clock.now();
  const token = await app.db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, member.id)).for('update');
    if ((await countTokensSince(tx, member.id, 'email_change', new Date(now.getTime() - DAY_MS))) >= EMAIL_CHANGES_PER_DAY) return null;
    // Only the latest request counts: an earlier link stops working.
    await revokeTokens(tx, app.clock, member.id, 'email_change');
    return issueToken(tx, app.clock, member.id, 'email_change', { newEmail });
  });
  if (!token) return { type: 'error', reason: 'too_many_email_changes' };
  await sendAccountMail(app, { site: input.site, user: member, kind: 'email_change', to: newEmail, url: `${input.origin}/mail-change/do?token=${token}`, values: { email: newEmail } });
  await sendAccountMail(app, { site: input.site, user: member, kind: 'email_change_notice', values: { email: newEmail } });
  return { type: 'ok', newEmail };
}

export type EmailChangeConfirmResult = { type: 'ok'; userId: number; email: string } | { type: 'error'; reason: 'invalid' | 'expired' | 'used' | 'email_taken' };

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return String(e.cause?.code ?? e.code) === '23505';
}

/**
 * Applies the change of a mailed link: the address becomes the member's, confirmed. An account that
 * was still unconfirmed becomes active (the member has proved an address, as the activation link does);
 * its open activation links end. If the address has an account on the site by now, nothing changes.
 */
export async function confirmEmailChange(deps: { db: Db; clock: Clock }, token: string): Promise<EmailChangeConfirmResult> {
  try {
    return await deps.db.transaction(async (tx) => {
      const used = await consumeToken(tx, deps.clock, token, 'email_change');
      if (used.type === 'error') return used;
      const [member] = await tx.select({ siteId: users.siteId, status: users.status }).from(users).where(eq(users.id, used.userId)).for('update');
      if (!member || member.status === 'deleted' || !used.newEmail) return { type: 'error', reason: 'invalid' } as const;
      if (await emailTaken(tx, member.siteId, used.newEmail, used.userId)) return { type: 'error', reason: 'email_taken' } as const;
      const now = deps.clock.now();
      await tx
        .update(users)
        .set({ email: used.newEmail, emailConfirmedAt: now, ...(member.status === 'not_confirmed' ? { status: 'active' as const } : {}) })
        .where(eq(users.id, used.userId));
      if (member.status === 'not_confirmed') {
        await tx.update(profiles).set({ status: 'active' }).where(eq(profiles.userId, used.userId));
        await revokeTokens(tx, deps.clock, used.userId, 'activation');
      }
      return { type: 'ok', userId: used.userId, email: used.newEmail } as const;
    });
  } catch (err) {
    // Another account took the address between our check and the update: the unique index refuses it.
    if (isUniqueViolation(err)) {
      // The transaction rolled back, so the link was not used; use it now so it cannot be retried.
      await consumeToken(deps.db, deps.clock, token, 'email_change');
      return { type: 'error', reason: 'email_taken' };
    }
    throw err;
  }
}

/** The new address of the member's open change request, if any (shown on the settings screen). */
export async function pendingEmailChange(deps: { db: Db; clock: Clock }, userId: number): Promise<string | null> {
  const [row] = await deps.db
    .select({ newEmail: accountTokens.newEmail })
    .from(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, 'email_change'), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, deps.clock.now())))
    .orderBy(desc(accountTokens.id))
    .limit(1);
  return row?.newEmail ?? null;
}

/** What the settings screen shows about the address: whether it is confirmed, and a change waiting for its link. */
export async function emailStatus(deps: { db: Db; clock: Clock }, userId: number): Promise<{ confirmed: boolean; pending: string | null }> {
  const [row] = await deps.db.select({ confirmedAt: users.emailConfirmedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return { confirmed: Boolean(row?.confirmedAt), pending: await pendingEmailChange(deps, userId) };
}
