/**
 * Staff accounts and their login (OPS-04): e-mail, password (argon2id, the members' rules) and a TOTP
 * code from an authenticator app (otpauth; 30-second steps, one step of clock drift either way, each code
 * good once). Failed logins are throttled on keys of their own, and nobody can lock a staff member out
 * (SEC-17; docs/decisions/058-staff-device-cookies-and-client-counters.md): a browser that logged in
 * gets a staff device cookie, and an attempt that presents it is judged on that browser's own counter;
 * every other attempt on the address from its client, on the address from all clients, and on its IP.
 */
import { randomBytes } from 'node:crypto';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { eq, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { Db } from '../../db/client';
import { staff, type StaffRole } from '../../db/schema';
import type { DeviceCookies } from '../auth/device-cookie';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../auth/passwords';
import { clearFailures, giveBackTry, loginTriesBlock, staffDeviceKey, takeLoginTries, trustedDeviceKeys, untrustedStaffKeys } from '../auth/throttle';
import type { Clock } from '../clock';
import { audit } from '../audit';
import type { RelyingParty } from '../auth/webauthn';
import { staffPasskeyFactor } from './passkeys';

export const STAFF_ROLES: readonly StaffRole[] = ['moderator', 'operator', 'admin'];
export const TOTP_ISSUER = 'Back office';
const TOTP_PERIOD = 30;

export interface StaffMember {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
}

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totpFor(email: string, secret: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer: TOTP_ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD, secret: OTPAuth.Secret.fromBase32(secret) });
}

/** The otpauth:// address an authenticator app reads (as a QR code or typed in). */
export function totpUri(email: string, secret: string): string {
  return totpFor(email, secret).toString();
}

/** The code an authenticator shows for `secret` at `at` (tests and the demo's own check). */
export function totpCode(secret: string, at: Date): string {
  return totpFor('x', secret).generate({ timestamp: at.getTime() });
}

/** The TOTP time step a code belongs to, or null when it is not valid around `at`. */
export function totpStep(secret: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor('x', secret).validate({ token: code, timestamp: at.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD) + delta;
}

export async function createStaff(
  deps: { db: Db },
  input: { email: string; name: string; role: StaffRole; password: string; totpSecret?: string; by?: number | null },
): Promise<StaffMember & { totpSecret: string }> {
  const totpSecret = input.totpSecret ?? newTotpSecret();
  const email = input.email.trim().toLowerCase();
  const [row] = await deps.db
    .insert(staff)
    .values({ email, name: input.name, role: input.role, passwordHash: await hashPassword(input.password), totpSecret })
    .returning({ id: staff.id, email: staff.email, name: staff.name, role: staff.role });
  await audit(deps.db, { staffId: input.by ?? null, action: 'staff.create', targetType: 'staff', targetId: row!.id, after: { email, role: input.role } });
  return { ...row!, totpSecret };
}

export type StaffLogin =
  /**
   * `deviceCookie`: the staff device cookie this browser keeps from now on (a fresh nonce, its counter empty);
   * `passkeyId`: the passkey that was the second factor (PASS-01), null for the code.
   */
  { type: 'ok'; staff: StaffMember; deviceCookie: string; passkeyId: number | null } | { type: 'refused'; reason: 'invalid_credentials' } | { type: 'blocked'; minutes: number };

/** One staff login attempt: the form, where it comes from and what the browser holds. */
export interface StaffLoginRequest {
  email: string;
  password: string;
  code: string;
  /** PASS-01: instead of the code, the browser's answer made with one of this staff member's passkeys, and the host's relying party. */
  passkey?: { rp: RelyingParty; response: AuthenticationResponseJSON } | null;
  ip?: string | null;
  /** The browser's staff device cookie, as sent (checked here; anything invalid counts as none). */
  deviceCookie?: string | null;
}

/** The longest address there is (RFC 5321): a longer one is nobody's, and throttle keys stay short. */
const MAX_ADDRESS_LENGTH = 254;

/**
 * Password and code (or, PASS-01, a passkey of this staff member instead of the code), both right, or nothing; which one was wrong is not said, and a wrong code counts
 * as a failure like a wrong password. A code is accepted once: its time step must be newer than the
 * last one used (a conditional update, so two logins racing with one code cannot both pass).
 */
export async function loginStaff(deps: { db: Db; clock: Clock; staffDevices: DeviceCookies }, input: StaffLoginRequest): Promise<StaffLogin> {
  const address = input.email.trim().toLowerCase();
  const [row] =
    address.length <= MAX_ADDRESS_LENGTH
      ? await deps.db
          .select()
          .from(staff)
          .where(eq(sql`lower(${staff.email})`, address))
          .limit(1)
      : [];
  // A staff device cookie counts only for the staff account it was issued for; a member's never does.
  const device = row ? deps.staffDevices.verify(input.deviceCookie, row.id) : null;
  const ip = input.ip || null;
  const keys = device ? trustedDeviceKeys(staffDeviceKey(device.nonce)) : untrustedStaffKeys(address.slice(0, MAX_ADDRESS_LENGTH), ip);
  // The attempt takes its try on each key before password and code are checked (SEC-19): during a block
  // it is refused without looking at them and is not counted, and however many attempts race, a key's
  // limit of them are checked. A wrong password or code leaves the tries counted as failures.
  const taken = await takeLoginTries(deps, keys);
  if (taken.type === 'blocked') return { type: 'blocked', minutes: taken.block.minutes };

  const now = deps.clock.now();
  const passwordOk = row ? await verifyPassword(row.passwordHash, input.password) : await burnPasswordCheck(input.password);
  const usePasskey = Boolean(input.passkey);
  const step = row && passwordOk && row.active && !usePasskey ? totpStep(row.totpSecret, input.code.trim(), now) : null;
  let claimed = false;
  let passkeyId: number | null = null;
  if (row && passwordOk && row.active && input.passkey) {
    passkeyId = await staffPasskeyFactor(deps, input.passkey.rp, row.id, input.passkey.response);
    if (passkeyId !== null) {
      await deps.db.update(staff).set({ lastLoginAt: now }).where(eq(staff.id, row.id));
      claimed = true;
    }
  }
  if (row && step !== null) {
    const [updated] = await deps.db
      .update(staff)
      .set({ totpLastStep: step, lastLoginAt: now })
      .where(sql`${staff.id} = ${row.id} and ${staff.totpLastStep} < ${step}`)
      .returning({ id: staff.id });
    claimed = updated !== undefined;
  }
  // What admins read in the audit log: from which client, and whether it was a known browser.
  const seen = { browser: device ? 'known' : 'new', ip, factor: usePasskey ? 'passkey' : 'code' };
  if (!row || !claimed) {
    if (row) await audit(deps.db, { staffId: row.id, action: 'staff.login_failed', targetType: 'staff', targetId: row.id, after: seen }, now);
    const blocked = loginTriesBlock(taken.tries);
    return blocked ? { type: 'blocked', minutes: blocked.minutes } : { type: 'refused', reason: 'invalid_credentials' };
  }
  // This client's (or known browser's) counter starts over; the address counter keeps other clients'
  // failures, but this attempt's try on it (and on the IP) is given back: a right login is no failure.
  await clearFailures(deps, keys.clearedBySuccess);
  for (const t of taken.tries) if (t.key !== keys.clearedBySuccess) await giveBackTry(deps, t);
  await audit(deps.db, { staffId: row.id, action: 'staff.login', targetType: 'staff', targetId: row.id, after: seen }, now);
  return { type: 'ok', staff: { id: row.id, email: row.email, name: row.name, role: row.role }, deviceCookie: deps.staffDevices.issue(row.id), passkeyId };
}

/** A random password for a new staff account (told once, changed by its owner). */
export function newStaffPassword(): string {
  return randomBytes(15).toString('base64url');
}
