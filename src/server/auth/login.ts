/**
 * Logging in with e-mail and password (AUTH-01), throttled (AUTH-03; docs/decisions/006-login-throttling.md),
 * with the session rotated at login (AUTH-04). A deleted account that is still within its grace period
 * says so (DEL-01) when the password is right; afterwards it is just an unknown login.
 *
 * Device cookies (SEC-13; docs/decisions/019-device-cookies-against-lockout.md): the caller passes the
 * browser's device cookie, if any, and gets a new one with every successful login. An attempt with a
 * valid cookie for the account it tries is judged on that device's own counter, so failures from
 * elsewhere never lock the owner's known browser out; every other attempt is throttled per account and per IP.
 */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { DELETE_GRACE_MS } from '../../shared/account-deletion';
import type { Clock } from '../clock';
import { burnPasswordCheck, verifyPassword } from './passwords';
import type { DeviceCookies } from './device-cookie';
import { createSession, revokeSession, type CreatedSession } from './sessions';
import { accountKey, clearFailures, deviceKey, giveBackTry, loginTriesBlock, takeLoginTries, trustedDeviceKeys, unknownEmailKey, untrustedMemberKeys, type LoginKeys } from './throttle';

export const loginSchema = z.object({
  email: z.string().trim().min(3).max(254),
  password: z.string().min(1).max(1024),
});
export type LoginInput = z.infer<typeof loginSchema>;

export type LoginResult =
  /** `deviceCookie`: the value the browser keeps from now on (a fresh nonce, its counter empty). */
  | { type: 'ok'; userId: number; created: CreatedSession; deviceCookie: string }
  | { type: 'error'; reason: 'invalid_credentials' }
  | { type: 'error'; reason: 'too_many_attempts'; minutes: number }
  | { type: 'error'; reason: 'account_deletion_pending' }
  /** Banned by the back office (OPS-01): only with the right password, so the ban tells a guesser nothing. */
  | { type: 'error'; reason: 'account_banned' };

export interface LoginDeps {
  db: Db;
  clock: Clock;
  devices: DeviceCookies;
}

/** What one login attempt brings besides the form: where it comes from and what the browser holds. */
export interface LoginRequest extends LoginInput {
  siteId: number;
  previousSessionId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  /** The browser's device cookie, as sent (checked here; anything invalid counts as none). */
  deviceCookie?: string | null;
}

/**
 * Checks e-mail and password under the throttle rules and, when they are right, creates a session and
 * a new device cookie for this browser.
 */
export async function login(deps: LoginDeps, input: LoginRequest): Promise<LoginResult> {
  const [user] = await deps.db
    .select({ id: users.id, passwordHash: users.passwordHash, status: users.status, deletedAt: users.deletedAt })
    .from(users)
    .where(and(eq(users.siteId, input.siteId), sql`lower(${users.email}) = ${input.email.toLowerCase()}`, eq(users.role, 'member')))
    .limit(1);
  // A device cookie counts only for the account it was issued for; a forged, expired or foreign one is ignored.
  const device = user ? deps.devices.verify(input.deviceCookie, user.id) : null;
  const keys: LoginKeys = device ? trustedDeviceKeys(deviceKey(device.nonce)) : untrustedMemberKeys(user ? accountKey(user.id) : unknownEmailKey(input.siteId, input.email), input.ip ?? null);

  // The attempt takes its try on each key before the password is checked (SEC-19): during a block it is
  // refused without looking at the password and is not counted, and however many attempts race, a key's
  // limit of them are checked. A wrong password leaves the tries counted as failures.
  const taken = await takeLoginTries(deps, keys);
  if (taken.type === 'blocked') return { type: 'error', reason: 'too_many_attempts', minutes: taken.block.minutes };
  const giveBack = async () => {
    for (const t of taken.tries) await giveBackTry(deps, t);
  };

  const passwordOk = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : await burnPasswordCheck(input.password);
  const now = deps.clock.now().getTime();
  if (passwordOk && user?.status === 'deleted') {
    // Within the grace period the owner learns the account can still be reactivated; after it, the
    // account is final and answers like any unknown login (and counts as a failure).
    if (user.deletedAt && now - user.deletedAt.getTime() < DELETE_GRACE_MS) {
      await giveBack();
      return { type: 'error', reason: 'account_deletion_pending' };
    }
  }
  if (passwordOk && user?.status === 'banned') {
    await giveBack();
    return { type: 'error', reason: 'account_banned' };
  }
  if (!passwordOk || !user || user.status === 'deleted') {
    const blocked = loginTriesBlock(taken.tries);
    if (blocked) return { type: 'error', reason: 'too_many_attempts', minutes: blocked.minutes };
    return { type: 'error', reason: 'invalid_credentials' };
  }

  // The counter this attempt was judged on starts over. A trusted device's success says nothing about
  // the untrusted clients, so the account's counter (and any block on it) stays; the IP's counter is
  // never reset by a success (a member's own logins must not launder an address guessing other accounts),
  // but this attempt's try on it is given back: a right password is no failure.
  await clearFailures(deps, keys.clearedBySuccess);
  for (const t of taken.tries) if (t.key !== keys.clearedBySuccess) await giveBackTry(deps, t);
  // Rotate: the session a browser had before logging in is never reused (session fixation).
  if (input.previousSessionId) await revokeSession(deps.db, input.previousSessionId);
  const created = await createSession(deps.db, deps.clock, user.id, { ip: input.ip ?? null, userAgent: input.userAgent ?? null });
  return { type: 'ok', userId: user.id, created, deviceCookie: deps.devices.issue(user.id) };
}
