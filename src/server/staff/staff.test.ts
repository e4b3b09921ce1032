import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../../tests/setup/databases';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { auditLog, loginThrottle, profiles, staff, users } from '../../db/schema';
import { STAFF_DEVICE_COOKIE_TTL_MS } from '../auth/device-cookie';
import { login } from '../auth/login';
import { hashPassword } from '../auth/passwords';
import { createStaff, loginStaff, totpCode, type StaffLogin } from './accounts';
import { readAudit } from '../audit';
import { createStaffSession, STAFF_SESSION_IDLE_MS, staffForToken } from './sessions';

describe('staff accounts, second factor, sessions and the audit log (OPS-04)', () => {
  let seeded: SeededDatabase;
  let clock: FakeClock;
  let secret: string;
  let id: number;
  const deps = () => ({ db: seeded.db, clock, staffDevices: seeded.staffDevices });

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
    expect(await loginStaff(deps(), { email: 'mod@example.com', password: 'a-staff-password-9', code: '000000' === code ? '111111' : '000000' })).toEqual({
      type: 'refused',
      reason: 'invalid_credentials',
    });
    expect(await loginStaff(deps(), { email: 'nobody@example.com', password: 'a-staff-password-9', code })).toEqual({ type: 'refused', reason: 'invalid_credentials' });
    const ok = await loginStaff(deps(), { email: 'MOD@example.com', password: 'a-staff-password-9', code });
    expect(ok).toEqual({ type: 'ok', staff: { id, email: 'mod@example.com', name: 'Mo', role: 'moderator' }, deviceCookie: expect.any(String), passkeyId: null });
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

describe.each(await databaseKinds())('staff lockout (SEC-17) on %s', (kind) => {
  const MINUTE = 60_000;
  const PASSWORD = 'a-staff-password-9';
  const clock = new FakeClock();
  let database: TestDatabase;
  let kit: SeededDatabase;
  let n = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    kit = await seededDatabase({ clock, url: database.url });
  });
  afterAll(async () => {
    await kit?.close();
    await database?.drop();
  });
  // Every test starts with its windows over and a TOTP step no login has used.
  beforeEach(() => clock.advance(24 * 3600 * 1000));

  const deps = () => ({ db: kit.db, clock, staffDevices: kit.staffDevices });
  type Account = { id: number; email: string; secret: string };
  async function account(): Promise<Account> {
    const created = await createStaff({ db: kit.db }, { email: `lock-${kind}-${++n}@staff.test`, name: `Lock ${n}`, role: 'admin', password: PASSWORD });
    return { id: created.id, email: created.email, secret: created.totpSecret };
  }
  /** One login attempt; by default the right password and the current code, from a browser without a device cookie. */
  const attempt = (a: Account, ip: string | null, over: { password?: string; code?: string; device?: string | null } = {}) =>
    loginStaff(deps(), { email: a.email, password: over.password ?? PASSWORD, code: over.code ?? totpCode(a.secret, clock.now()), ip, deviceCookie: over.device ?? null });
  /** A code that is not valid now. */
  const wrongCode = (a: Account) => {
    const right = totpCode(a.secret, clock.now());
    return `${(Number(right[0]) + 5) % 10}${right.slice(1)}`;
  };
  /** A successful login; the clock then moves to the next TOTP step (a code is good once). */
  async function loggedIn(a: Account, ip: string | null, device?: string | null): Promise<string> {
    const result = await attempt(a, ip, { device });
    expect(result.type, `login of ${a.email} from ${ip}`).toBe('ok');
    clock.advance(30_000);
    return result.type === 'ok' ? result.deviceCookie : '';
  }
  /** `count` failures from one client: wrong passwords, and every third the right password with a wrong code. */
  async function fails(a: Account, ip: string, count: number): Promise<StaffLogin[]> {
    const results: StaffLogin[] = [];
    for (let i = 0; i < count; i++) results.push(await attempt(a, ip, i % 3 === 2 ? { code: wrongCode(a) } : { password: `guess-${i}`, code: wrongCode(a) }));
    return results;
  }
  const REFUSED: StaffLogin = { type: 'refused', reason: 'invalid_credentials' };
  const BLOCKED: StaffLogin = { type: 'blocked', minutes: 15 };
  const FIVE = [REFUSED, REFUSED, REFUSED, REFUSED, BLOCKED];

  it('SEC-17 after 5 and after 50 failures from a stranger (a wrong code answered like a wrong password), the known browser logs in with the right password and a valid code, from the stranger’s own address too; the stranger stays blocked for its 15 minutes', async () => {
    const a = await account();
    const known = await loggedIn(a, '198.51.100.1');
    const stranger = '203.0.113.1';
    expect(await fails(a, stranger, 5)).toEqual(FIVE);
    const first = await loggedIn(a, stranger, known);
    expect(await fails(a, stranger, 45)).toEqual(Array(45).fill({ type: 'blocked', minutes: 15 }));
    await loggedIn(a, stranger, first);
    // The stranger's client: refused even with the right password and code, until its block is over
    // (two logins, a TOTP step each, after the failure that started it).
    expect(await attempt(a, stranger)).toEqual({ type: 'blocked', minutes: 14 });
    clock.advance(14 * MINUTE - 1000);
    expect((await attempt(a, stranger)).type).toBe('blocked');
    clock.advance(1000);
    expect(await attempt(a, stranger, { password: 'guess-again' })).toEqual(REFUSED);
  });

  it('SEC-17 one client’s failures never block the address for others; four clients’ 20 failures within 15 minutes block new browsers, not the known browser; an address without an account answers the same', async () => {
    const a = await account();
    const known = await loggedIn(a, '198.51.100.2');
    const fifty = await fails(a, '203.0.113.2', 50);
    expect(fifty.slice(0, 5)).toEqual(FIVE);
    expect(fifty.slice(5).every((r) => r.type === 'blocked')).toBe(true);
    for (const ip of ['203.0.113.3', '203.0.113.4']) expect(await fails(a, ip, 5)).toEqual(FIVE);
    // Fifteen failures from three clients: a new browser elsewhere still logs in.
    await loggedIn(a, '192.0.2.2');
    // A fourth client's fifth failure is the address's 20th: the address is blocked for new browsers.
    expect(await fails(a, '203.0.113.5', 5)).toEqual(FIVE);
    expect(await attempt(a, '192.0.2.3')).toEqual(BLOCKED);
    await loggedIn(a, '198.51.100.2', known);
    // Nobody learns whether an address has a staff account.
    const nobody = { id: 0, email: `nobody-${kind}@staff.test`, secret: a.secret };
    expect(await fails(nobody, '203.0.113.6', 5)).toEqual(FIVE);
  });

  it('SEC-17 two clients at their worst (3 failures at the end of one of their own windows, 5 at the start of the next: 16 in one window of the address) do not block a new browser; a third client does', async () => {
    const a = await account();
    const [x, y] = ['203.0.113.21', '203.0.113.22'];
    // A first failure opens the address's window; a minute later the two clients open theirs.
    expect(await fails(a, '203.0.113.20', 1)).toEqual([REFUSED]);
    clock.advance(MINUTE);
    for (const ip of [x, y]) expect(await fails(a, ip, 1)).toEqual([REFUSED]);
    // The address's window is over, theirs not yet: three more each, counted in the address's new window.
    clock.advance(14 * MINUTE);
    for (const ip of [x, y]) expect(await fails(a, ip, 3)).toEqual([REFUSED, REFUSED, REFUSED]);
    // A minute on, their own windows start over: five more each, until each is blocked.
    clock.advance(MINUTE);
    for (const ip of [x, y]) expect(await fails(a, ip, 5)).toEqual(FIVE);
    await loggedIn(a, '192.0.2.21');
    // A third client's fourth failure is the window's 20th.
    expect(await fails(a, '203.0.113.23', 4)).toEqual([REFUSED, REFUSED, REFUSED, BLOCKED]);
    expect(await attempt(a, '192.0.2.22')).toEqual(BLOCKED);
  });

  it('SEC-17 the known browser’s own counter: five failures block that browser for 15 minutes, not the address nor the other known browser; an IP block does not bind a known browser', async () => {
    const a = await account();
    const laptop = await loggedIn(a, '198.51.100.3');
    const phone = await loggedIn(a, '198.51.100.4');
    const results: StaffLogin[] = [];
    for (let i = 0; i < 5; i++) results.push(await attempt(a, '198.51.100.3', { password: `typo-${i}`, device: laptop }));
    expect(results).toEqual(FIVE);
    expect(await attempt(a, '198.51.100.3', { device: laptop })).toEqual(BLOCKED);
    await loggedIn(a, '198.51.100.4', phone);
    await loggedIn(a, '192.0.2.4');
    // A shared address that failed 30 members' logins is blocked for new browsers, not for the known one.
    const siteId = (await kit.site()).settings.id;
    for (let i = 0; i < 30; i++) await login({ db: kit.db, clock, devices: kit.devices }, { email: `ghost-${i}@example.com`, password: 'x', siteId, ip: '192.0.2.99' });
    expect(await attempt(a, '192.0.2.99')).toEqual(BLOCKED);
    await loggedIn(a, '192.0.2.99', phone);
    clock.advance(15 * MINUTE);
    await loggedIn(a, '198.51.100.3', laptop);
  });

  it('SEC-17 members’ and staff device cookies are apart: a member’s cookie for the same id counts for nothing at the staff login, a staff cookie nothing at the members’ login; a tampered or expired staff cookie neither', async () => {
    const a = await account();
    const own = await loggedIn(a, '198.51.100.5');
    const blockAddress = async () => {
      for (const ip of ['203.0.113.7', '203.0.113.8', '203.0.113.9', '203.0.113.10']) await fails(a, ip, 5);
      expect(await attempt(a, '192.0.2.5')).toEqual(BLOCKED);
    };
    await blockAddress();
    const [id, expires, nonce, signature] = own.split('.') as [string, string, string, string];
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    for (const cookie of [
      kit.devices.issue(a.id),
      `${id}.${Number(expires) + 60}.${nonce}.${signature}`,
      `${id}.${expires}.${flip(nonce)}.${signature}`,
      `${id}.${expires}.${nonce}.${flip(signature)}`,
      'garbage',
    ]) {
      expect(await attempt(a, '192.0.2.5', { device: cookie }), cookie).toEqual(BLOCKED);
    }
    const renewed = await loggedIn(a, '192.0.2.5', own);

    // A member whose account a stranger blocked: a staff cookie issued for the member's id does not help.
    const siteId = (await kit.site()).settings.id;
    const [member] = await kit.db
      .insert(users)
      .values({ siteId, email: `member-${kind}-${n}@example.com`, passwordHash: await hashPassword(PASSWORD), status: 'active', language: 'en', emailConfirmedAt: clock.now() })
      .returning({ id: users.id, email: users.email });
    await kit.db.insert(profiles).values({ userId: member!.id, siteId, name: `Member${n}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
    const memberLogin = (password: string, deviceCookie: string | null) =>
      login({ db: kit.db, clock, devices: kit.devices }, { email: member!.email, password, siteId, ip: '203.0.113.11', deviceCookie });
    for (let i = 0; i < 5; i++) await memberLogin('wrong', null);
    expect(await memberLogin(PASSWORD, kit.staffDevices.issue(member!.id))).toEqual({ type: 'error', reason: 'too_many_attempts', minutes: 15 });
    expect((await memberLogin(PASSWORD, kit.devices.issue(member!.id))).type).toBe('ok');

    // A staff cookie counts for 90 days after the login that issued it.
    clock.advance(STAFF_DEVICE_COOKIE_TTL_MS);
    await blockAddress();
    expect(await attempt(a, '192.0.2.5', { device: renewed })).toEqual(BLOCKED);
  });
});
