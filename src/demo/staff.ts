/**
 * The demo's back-office accounts (README): one per role, the demo password, and one TOTP secret the
 * README prints so the demo can be tried with any authenticator app. Only into an empty staff table,
 * and only where the demo is seeded (never a production database: SEED_DEMO decides).
 */
import { count } from 'drizzle-orm';
import type { Db } from '../db/client';
import { staff, type StaffRole } from '../db/schema';
import { createStaff } from '../server/staff/accounts';

/** Base32; add it to an authenticator app by hand ("enter a setup key") to get the demo's codes. */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const DEMO_STAFF: ReadonlyArray<{ email: string; name: string; role: StaffRole }> = [
  { email: 'admin@demo.test', name: 'Demo admin', role: 'admin' },
  { email: 'moderator@demo.test', name: 'Demo moderator', role: 'moderator' },
  { email: 'operator@demo.test', name: 'Demo operator', role: 'operator' },
];
export const DEMO_STAFF_PASSWORD = 'demo-password-1';

export async function seedDemoStaff(db: Db): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(staff);
  if ((existing?.n ?? 0) > 0) return false;
  for (const member of DEMO_STAFF) {
    try {
      await createStaff({ db }, { ...member, password: DEMO_STAFF_PASSWORD, totpSecret: DEMO_TOTP_SECRET });
    } catch (err) {
      // Another process starting at the same moment made it first (the e-mail is unique).
      if (!isUniqueViolation(err)) throw err;
    }
  }
  return true;
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}
