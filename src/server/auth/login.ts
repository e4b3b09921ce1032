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
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { passkeys, users } from '../../db/schema';
import { DELETE_GRACE_MS } from '../../shared/account-deletion';
import type { Clock } from '../clock';
import { burnPasswordCheck, verifyPassword } from './passwords';
import type { DeviceCookies } from './device-cookie';
import { createSession, revokeSession, type CreatedSession } from './sessions';
import {
  accountKey,
  clearFailures,
  deviceKey,
  giveBackTry,
  IP_RULE,
  ipKey,
  loginTriesBlock,
  takeLoginTries,
  trustedDeviceKeys,
  unknownEmailKey,
  untrustedMemberKeys,
  type LoginKeys,
  type Try,
} from './throttle';
import { verifyAuthentication, type RelyingParty } from './webauthn';

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
  | { type: 'error'; reason: 'account_banned' }
  /** The member turned on "passkey required" (PASS-01): only with the right password, like a ban. */
  | { type: 'error'; reason: 'passkey_required' };

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
    .select({ id: users.id, passwordHash: users.passwordHash, status: users.status, deletedAt: users.deletedAt, passkeyRequired: users.passkeyRequired })
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
  const passwordOk = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : await burnPasswordCheck(input.password);
  // PASS-01: a member who requires a passkey is not logged in by the password; said only when it was right.
  if (passwordOk && user?.passkeyRequired && user.status !== 'deleted') {
    for (const t of taken.tries) await giveBackTry(deps, t);
    return { type: 'error', reason: 'passkey_required' };
  }
  return settleLogin(deps, user, passwordOk, keys, taken.tries, input, null);
}

/** The account a login is for, as the post-authentication path judges it. */
interface LoginAccount {
  id: number;
  status: string;
  deletedAt: Date | null;
}

/**
 * What every login does once its secret (a password, a passkey) was checked (`ok`): a deleted account in
 * its grace period and a banned one say so (only with the right secret), a wrong secret answers like an
 * unknown login (with the block its tries started, if any), and a right one clears the counter it was
 * judged on, gives its other tries back, rotates the session (the browser's old one is revoked) and issues
 * a new device cookie. `passkeyId`: the passkey the session logged in with (removing it ends the session).
 */
async function settleLogin(
  deps: LoginDeps,
  user: LoginAccount | undefined,
  ok: boolean,
  keys: LoginKeys,
  tries: Try[],
  input: Pick<LoginRequest, 'previousSessionId' | 'ip' | 'userAgent'>,
  passkeyId: number | null,
): Promise<LoginResult> {
  const giveBack = async () => {
    for (const t of tries) await giveBackTry(deps, t);
  };
  const now = deps.clock.now().getTime();
  if (ok && user?.status === 'deleted') {
    // Within the grace period the owner learns the account can still be reactivated; after it, the
    // account is final and answers like any unknown login (and counts as a failure).
    if (user.deletedAt && now - user.deletedAt.getTime() < DELETE_GRACE_MS) {
      await giveBack();
      return { type: 'error', reason: 'account_deletion_pending' };
    }
  }
  if (ok && user?.status === 'banned') {
    await giveBack();
    return { type: 'error', reason: 'account_banned' };
  }
  if (!ok || !user || user.status === 'deleted') {
    const blocked = loginTriesBlock(tries);
    if (blocked) return { type: 'error', reason: 'too_many_attempts', minutes: blocked.minutes };
    return { type: 'error', reason: 'invalid_credentials' };
  }

  // The counter this attempt was judged on starts over. A trusted device's success says nothing about
  // the untrusted clients, so the account's counter (and any block on it) stays; the IP's counter is
  // never reset by a success (a member's own logins must not launder an address guessing other accounts),
  // but this attempt's try on it is given back: a right password is no failure.
  await clearFailures(deps, keys.clearedBySuccess);
  for (const t of tries) if (t.key !== keys.clearedBySuccess) await giveBackTry(deps, t);
  // Rotate: the session a browser had before logging in is never reused (session fixation).
  if (input.previousSessionId) await revokeSession(deps.db, input.previousSessionId);
  const created = await createSession(deps.db, deps.clock, user.id, { ip: input.ip ?? null, userAgent: input.userAgent ?? null, passkeyId });
  return { type: 'ok', userId: user.id, created, deviceCookie: deps.devices.issue(user.id) };
}

/** One login attempt with a passkey alone (PASS-01): the browser's WebAuthn answer and where it comes from. */
export interface PasskeyLoginRequest extends Pick<LoginRequest, 'siteId' | 'previousSessionId' | 'ip' | 'userAgent' | 'deviceCookie'> {
  rp: RelyingParty;
  response: AuthenticationResponseJSON;
}

/**
 * Logs in with a passkey (PASS-01; docs/decisions/086-passkeys.md): the credential names the account
 * (discoverable credentials, no address typed), the answer is checked against its one-use challenge, this
 * host and the stored public key and counter, under the same throttle keys as a password for that account
 * (an unknown credential counts on the IP), and then goes the password login's own way (`settleLogin`).
 */
export async function loginWithPasskey(deps: LoginDeps, input: PasskeyLoginRequest): Promise<LoginResult> {
  const [found] = await deps.db
    .select({
      passkeyId: passkeys.id,
      credentialId: passkeys.credentialId,
      publicKey: passkeys.publicKey,
      counter: passkeys.counter,
      transports: passkeys.transports,
      id: users.id,
      status: users.status,
      deletedAt: users.deletedAt,
    })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(and(eq(passkeys.credentialId, input.response.id), eq(users.siteId, input.siteId), eq(users.role, 'member')))
    .limit(1);
  const device = found ? deps.devices.verify(input.deviceCookie, found.id) : null;
  const keys: LoginKeys = device
    ? trustedDeviceKeys(deviceKey(device.nonce))
    : found
      ? untrustedMemberKeys(accountKey(found.id), input.ip ?? null)
      : { trust: 'untrusted', counters: input.ip ? [{ key: ipKey(input.ip), rule: IP_RULE }] : [], clearedBySuccess: '' };
  const taken = await takeLoginTries(deps, keys);
  if (taken.type === 'blocked') return { type: 'error', reason: 'too_many_attempts', minutes: taken.block.minutes };

  const verified = found ? await verifyAuthentication(deps, input.rp, { purpose: 'login', credential: found, response: input.response }) : null;
  let ok = false;
  if (found && verified) {
    // The counter moves only forward from the value this check read: two logins racing with one answer cannot both pass.
    const moved = await deps.db
      .update(passkeys)
      .set({ counter: verified.counter, lastUsedAt: deps.clock.now() })
      .where(and(eq(passkeys.id, found.passkeyId), eq(passkeys.counter, found.counter)))
      .returning({ id: passkeys.id });
    ok = moved.length === 1;
  }
  return settleLogin(deps, found, ok, keys, taken.tries, input, found?.passkeyId ?? null);
}
