/** E-mail confirmation (ACT-01): the mailed link confirms the address and makes the profile visible. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profiles, users } from '../../db/schema';
import type { Clock } from '../clock';
import type { MailDeps } from '../mail/mailer';
import type { Site } from '../sites/directory';
import { sendAccountMail } from '../mail/member-mail';
import { consumeToken, issueToken } from './tokens';

/** Mails a fresh activation link to a member who has not confirmed yet. */
export async function sendActivationMail(app: MailDeps, site: Site, userId: number, origin: string) {
  const [row] = await app.db
    .select({ id: users.id, email: users.email, language: users.language, status: users.status, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row || row.status !== 'not_confirmed') return null;
  const token = await issueToken(app.db, app.clock, userId, 'activation');
  return sendAccountMail(app, { site, user: row, kind: 'activation', url: `${origin}/activate/done?token=${token}` });
}

export type ActivationResult = { type: 'ok'; userId: number } | { type: 'error'; reason: 'invalid' | 'expired' | 'used' };

/** Uses an activation token: the account becomes active and its profile visible. */
export async function activate(deps: { db: Db; clock: Clock }, token: string): Promise<ActivationResult> {
  const used = await consumeToken(deps.db, deps.clock, token, 'activation');
  if (used.type === 'error') return used;
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ status: 'active', emailConfirmedAt: deps.clock.now() }).where(eq(users.id, used.userId));
    await tx.update(profiles).set({ status: 'active' }).where(eq(profiles.userId, used.userId));
  });
  return { type: 'ok', userId: used.userId };
}

/** Whether others may reply to this member yet (ACT-01, CHT-09): only once the e-mail is confirmed. */
export function canBeRepliedTo(user: { status: string; emailConfirmedAt: Date | null }): boolean {
  return user.status === 'active' && user.emailConfirmedAt !== null;
}
