/**
 * Staff accounts and their login (OPS-04): e-mail, password (argon2id, the members' rules) and a TOTP
 * code from an authenticator app (otpauth; 30-second steps, one step of clock drift either way, each code
 * good once). Failed logins are throttled like members' (AUTH-03) on their own keys.
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { Db } from '../../db/client';
import { staff, type StaffRole } from '../../db/schema';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { ACCOUNT_RULE, clearFailures, takeTry } from '../auth/throttle';
import type { Clock } from '../clock';
import { audit } from './audit';

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

export async function createStaff(deps: { db: Db }, input: { email: string; name: string; role: StaffRole; password: string; totpSecret?: string; by?: number | null }): Promise<StaffMember & { totpSecret: string }> {
  const totpSecret = input.totpSecret ?? newTotpSecret();
  const email = input.email.trim().toLowerCase();
  const [row] = await deps.db
    .insert(staff)
    .values({ email, name: input.name, role: input.role, passwordHash: await hashPassword(input.password), totpSecret })
    .returning({ id: staff.id, email: staff.email, name: staff.name, role: staff.role });
  await audit(deps.db, { staffId: input.by ?? null, action: 'staff.create', targetType: 'staff', targetId: row!.id, after: { email, role: input.role } });
  return { ...row!, totpSecret };
}

export type StaffLogin = { type: 'ok'; staff: StaffMember } | { type: 'refused'; reason: 'invalid_credentials' } | { type: 'blocked'; minutes: number };

const staffKey = (email: string) => `staff:${email.trim().toLowerCase()}`;

/**
 * Password and code, both right, or nothing; which one was wrong is not said. A code is accepted once:
 * its time step must be newer than the last one used (a conditional update, so two logins racing with
 * one code cannot both pass).
 */
export async function loginStaff(deps: { db: Db; clock: Clock }, input: { email: string; password: string; code: string }): Promise<StaffLogin> {
  const key = staffKey(input.email);
  // The try is taken before password and code are checked (SEC-19): a burst of logins checks the limit's worth.
  const taken = await takeTry(deps, key, ACCOUNT_RULE);
  if (taken.type === 'blocked') return { type: 'blocked', minutes: taken.block.minutes };
  const [row] = await deps.db.select().from(staff).where(eq(sql`lower(${staff.email})`, input.email.trim().toLowerCase())).limit(1);
  const now = deps.clock.now();
  const passwordOk = row ? await verifyPassword(row.passwordHash, input.password) : await hashPassword(input.password).then(() => false);
  const step = row && passwordOk && row.active ? totpStep(row.totpSecret, input.code.trim(), now) : null;
  let claimed = false;
  if (row && step !== null) {
    const [updated] = await deps.db
      .update(staff)
      .set({ totpLastStep: step, lastLoginAt: now })
      .where(sql`${staff.id} = ${row.id} and ${staff.totpLastStep} < ${step}`)
      .returning({ id: staff.id });
    claimed = updated !== undefined;
  }
  if (!row || !claimed) {
    if (row) await audit(deps.db, { staffId: row.id, action: 'staff.login_failed', targetType: 'staff', targetId: row.id }, now);
    return taken.try.block ? { type: 'blocked', minutes: taken.try.block.minutes } : { type: 'refused', reason: 'invalid_credentials' };
  }
  await clearFailures(deps, key);
  await audit(deps.db, { staffId: row.id, action: 'staff.login', targetType: 'staff', targetId: row.id }, now);
  return { type: 'ok', staff: { id: row.id, email: row.email, name: row.name, role: row.role } };
}

/** A random password for a new staff account (told once, changed by its owner). */
export function newStaffPassword(): string {
  return randomBytes(15).toString('base64url');
}
