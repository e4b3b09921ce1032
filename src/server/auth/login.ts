/**
 * Logging in with e-mail and password (AUTH-01), throttled (AUTH-03; docs/decisions/006-login-throttling.md),
 * with the session rotated at login (AUTH-04). A deleted account that is still within its grace period
 * says so (DEL-01) when the password is right; afterwards it is just an unknown login.
 */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { DELETE_GRACE_MS } from '../accounts/deletion';
import type { Clock } from '../clock';
import { burnPasswordCheck, verifyPassword } from './passwords';
import { createSession, revokeSession, type CreatedSession } from './sessions';
import { accountKey, clearFailures, ipKey, loginBlock, recordLoginFailure, unknownEmailKey, type LoginKeys } from './throttle';

export const loginSchema = z.object({
  email: z.string().trim().min(3).max(254),
  password: z.string().min(1).max(1024),
});
export type LoginInput = z.infer<typeof loginSchema>;

export type LoginResult =
  | { type: 'ok'; userId: number; created: CreatedSession }
  | { type: 'error'; reason: 'invalid_credentials' }
  | { type: 'error'; reason: 'too_many_attempts'; minutes: number }
  | { type: 'error'; reason: 'account_deletion_pending' };

export async function login(
  deps: { db: Db; clock: Clock },
  input: LoginInput & { siteId: number; previousSessionId?: string | null; ip?: string | null; userAgent?: string | null },
): Promise<LoginResult> {
  const [user] = await deps.db
    .select({ id: users.id, passwordHash: users.passwordHash, status: users.status, deletedAt: users.deletedAt })
    .from(users)
    .where(and(eq(users.siteId, input.siteId), sql`lower(${users.email}) = ${input.email.toLowerCase()}`, eq(users.role, 'member')))
    .limit(1);
  const keys: LoginKeys = {
    account: user ? accountKey(user.id) : unknownEmailKey(input.siteId, input.email),
    ip: input.ip ? ipKey(input.ip) : null,
  };

  // During a block every attempt is refused without looking at the password, and is not counted.
  const block = await loginBlock(deps, keys);
  if (block) return { type: 'error', reason: 'too_many_attempts', minutes: block.minutes };

  const passwordOk = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : await burnPasswordCheck(input.password);
  const now = deps.clock.now().getTime();
  if (passwordOk && user?.status === 'deleted') {
    // Within the grace period the owner learns the account can still be reactivated; after it, the
    // account is final and answers like any unknown login (and counts as a failure).
    if (user.deletedAt && now - user.deletedAt.getTime() < DELETE_GRACE_MS) return { type: 'error', reason: 'account_deletion_pending' };
  }
  if (!passwordOk || !user || user.status === 'deleted') {
    const blocked = await recordLoginFailure(deps, keys);
    if (blocked) return { type: 'error', reason: 'too_many_attempts', minutes: blocked.minutes };
    return { type: 'error', reason: 'invalid_credentials' };
  }

  // The account's counter starts over; the IP's does not (a member's own logins must not launder an
  // address that is guessing other accounts).
  await clearFailures(deps, keys.account);
  // Rotate: the session a browser had before logging in is never reused (session fixation).
  if (input.previousSessionId) await revokeSession(deps.db, input.previousSessionId);
  const created = await createSession(deps.db, deps.clock, user.id, { ip: input.ip ?? null, userAgent: input.userAgent ?? null });
  return { type: 'ok', userId: user.id, created };
}
