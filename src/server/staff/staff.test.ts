import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { auditLog, loginThrottle, staff } from '../../db/schema';
import { createStaff, loginStaff, totpCode } from './accounts';
import { readAudit } from './audit';
import { createStaffSession, STAFF_SESSION_IDLE_MS, staffForToken } from './sessions';

describe('staff accounts, second factor, sessions and the audit log (OPS-04)', () => {
  let seeded: SeededDatabase;
  let clock: FakeClock;
  let secret: string;
  let id: number;
  const deps = () => ({ db: seeded.db, clock });

  beforeAll(async () => {
    clock = new FakeClock();
    seeded = await seededDatabase({ clock });
    const created = await createStaff({ db: seeded.db }, { email: 'Mod@Example.com', name: 'Mo', role: 'moderator', password: 'a-staff-password-9' });
    secret = created.totpSecret;
    id = created.id;
  });
  afterAll(() => seeded.close());

  it('OPS-04 a login needs the password and a current code; a code is good once; which part was wrong is not said', async () => {
    const code = totpCode(secret, clock.now());
    expect(await loginStaff(deps(), { email: 'mod@example.com', password: 'wrong', code })).toEqual({ type: 'refused', reason: 'invalid_credentials' });
    expect(await loginStaff(deps(), { email: 'mod@example.com', password: 'a-staff-password-9', code: '000000' === code ? '111111' : '000000' })).toEqual({ type: 'refused', reason: 'invalid_credentials' });
    expect(await loginStaff(deps(), { email: 'nobody@example.com', password: 'a-staff-password-9', code })).toEqual({ type: 'refused', reason: 'invalid_credentials' });
    const ok = await loginStaff(deps(), { email: 'MOD@example.com', password: 'a-staff-password-9', code });
    expect(ok).toEqual({ type: 'ok', staff: { id, email: 'mod@example.com', name: 'Mo', role: 'moderator' } });
    // The same code again (someone who saw it): refused.
    expect((await loginStaff(deps(), { email: 'mod@example.com', password: 'a-staff-password-9', code })).type).toBe('refused');
    // A code from the next step works; one from five minutes ago does not.
    clock.advance(30_000);
    expect((await loginStaff(deps(), { email: 'mod@example.com', password: 'a-staff-password-9', code: totpCode(secret, clock.now()) })).type).toBe('ok');
    expect((await loginStaff(deps(), { email: 'mod@example.com', password: 'a-staff-password-9', code: totpCode(secret, new Date(clock.now().getTime() - 300_000)) })).type).toBe('refused');
    const actions = (await readAudit(seeded.db, { staffId: id })).map((r) => r.action);
    expect(actions).toContain('staff.login');
    expect(actions).toContain('staff.login_failed');
  });

  it('OPS-04 too many failures block the account for a while; an inactive account cannot log in', async () => {
    const other = await createStaff({ db: seeded.db }, { email: 'op@example.com', name: 'Op', role: 'operator', password: 'another-password-7' });
    for (let i = 0; i < 5; i++) await loginStaff(deps(), { email: 'op@example.com', password: 'nope', code: '123456' });
    clock.advance(30_000);
    expect((await loginStaff(deps(), { email: 'op@example.com', password: 'another-password-7', code: totpCode(other.totpSecret, clock.now()) })).type).toBe('blocked');
    clock.advance(16 * 60_000);
    await seeded.db.update(staff).set({ active: false }).where(eq(staff.id, other.id));
    expect((await loginStaff(deps(), { email: 'op@example.com', password: 'another-password-7', code: totpCode(other.totpSecret, clock.now()) })).type).toBe('refused');
  });

  it('SEC-19 a burst of 20 wrong staff logins at once checks five: each takes its try before password and code are checked', async () => {
    const created = await createStaff({ db: seeded.db }, { email: 'burst@example.com', name: 'Burst', role: 'operator', password: 'a-burst-password-3' });
    const results = await Promise.all(Array.from({ length: 20 }, () => loginStaff(deps(), { email: 'burst@example.com', password: 'nope', code: '123456' })));
    expect(results.filter((r) => r.type === 'refused')).toHaveLength(4);
    expect(results.filter((r) => r.type === 'blocked')).toHaveLength(16);
    const [row] = await seeded.db.select().from(loginThrottle).where(eq(loginThrottle.key, 'staff:burst@example.com'));
    expect(row?.failures).toBe(5);
    // Five failed logins in the audit log: the ones that were checked.
    expect((await readAudit(seeded.db, { staffId: created.id })).filter((r) => r.action === 'staff.login_failed')).toHaveLength(5);
    clock.advance(30_000);
    expect((await loginStaff(deps(), { email: 'burst@example.com', password: 'a-burst-password-3', code: totpCode(created.totpSecret, clock.now()) })).type).toBe('blocked');
  });

  it('OPS-04 a staff session ends after 30 minutes unused and after 8 hours in any case', async () => {
    const token = await createStaffSession(deps(), id, '192.0.2.1');
    expect((await staffForToken(deps(), token))?.id).toBe(id);
    clock.advance(STAFF_SESSION_IDLE_MS - 1000);
    expect((await staffForToken(deps(), token))?.id).toBe(id);
    clock.advance(STAFF_SESSION_IDLE_MS + 1000);
    expect(await staffForToken(deps(), token)).toBeNull();
    const long = await createStaffSession(deps(), id, null);
    for (let i = 0; i < 17; i++) {
      clock.advance(29 * 60_000);
      if (i < 16) expect((await staffForToken(deps(), long))?.id).toBe(id);
    }
    expect(await staffForToken(deps(), long)).toBeNull();
    expect(await staffForToken(deps(), 'not-a-token')).toBeNull();
    expect((await seeded.db.select().from(auditLog).where(eq(auditLog.action, 'staff.create'))).length).toBeGreaterThanOrEqual(2);
  });
});
