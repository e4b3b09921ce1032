/**
 * Nobody can lock a staff member out (SEC-17; docs/decisions/058-staff-device-cookies-and-client-counters.md),
 * over HTTP against the built app, as the audit tried it: wrong passwords for
 * a staff address from a stranger's client, then the staff member's own browser. Each test sends its
 * own client addresses (X-Forwarded-For behind TRUST_PROXY) and, but for the first, uses a staff
 * account of its own, so no counter leaks from one test into another.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../../src/db/schema';
import { createStaff, totpCode } from '../../src/server/staff/accounts';
import { readAudit } from '../../src/server/audit';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = 'staff-lockout-password-5';

describe.each(await databaseKinds())('staff lockout (SEC-17) on %s', (kind) => {
  let server: TestServer;
  let ipCounter = 0;
  let accounts = 0;

  beforeAll(async () => {
    server = await startTestServer({ db: kind, env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A client address no other test uses (a network of its own). */
  const nextIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  /**
   * The code for a staff account's n-th successful login in a test (a code is good once and only the
   * steps around now are valid): this step, then the next one.
   */
  const codeFor = (secret: string, n: number) => totpCode(secret, new Date(Date.now() + 30_000 * n));
  /** A code that is not valid now (the current one with its first digit changed). */
  const wrongCode = (secret: string) => {
    const right = totpCode(secret, new Date());
    return `${(Number(right[0]) + 5) % 10}${right.slice(1)}`;
  };

  /** One post of the staff login form from `ip`, with the cookies the browser holds. */
  const staffLogin = (fields: { email: string; password: string; code: string }, ip: string, cookies: Record<string, string | undefined> = {}) => {
    const held: Record<string, string> = { lang: 'en' };
    for (const [name, value] of Object.entries(cookies)) if (value !== undefined) held[name] = value;
    return server.request('/admin/login', {
      method: 'POST',
      headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
      cookies: held,
      body: new URLSearchParams(fields).toString(),
    });
  };

  /** A staff account of this test's own (an admin), with its own authenticator key. */
  async function staffAccount() {
    const email = `lockout-${kind}-${++accounts}@staff.test`;
    const created = await createStaff(server.booted.app, { email, name: `Lockout ${accounts}`, role: 'admin', password: PASSWORD });
    return { id: created.id, email, secret: created.totpSecret };
  }

  /** `count` failed logins for `email` from one client: wrong passwords, and every third a right password with a wrong code. */
  async function strangerFails(email: string, password: string, secret: string, ip: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const attempt = i % 3 === 2 ? { email, password, code: wrongCode(secret) } : { email, password: `guess-${i}`, code: wrongCode(secret) };
      statuses.push((await staffLogin(attempt, ip)).status);
    }
    return statuses;
  }

  it('SEC-17 five and then fifty wrong passwords for admin@demo.test from a stranger’s client: the admin’s known browser with the right password and a valid code is logged in; the stranger stays blocked; the audit log shows it', async () => {
    const { db } = server.booted.app;
    const [admin] = await db.select({ id: staff.id }).from(staff).where(eq(staff.email, 'admin@demo.test'));
    const lastAudit = (await readAudit(db, { limit: 1 }))[0]?.id ?? 0;
    const adminBrowser = nextIp();
    // The admin logged in on this browser before: the answer set the staff device cookie.
    const first = await staffLogin({ email: 'admin@demo.test', password: DEMO_STAFF_PASSWORD, code: codeFor(DEMO_TOTP_SECRET, 0) }, adminBrowser);
    expect(first.status).toBe(303);
    const known = first.setCookies.staff_device;

    const stranger = nextIp();
    const five = await strangerFails('admin@demo.test', DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET, stranger, 5);
    expect(five).toEqual([401, 401, 401, 401, 429]);
    const fortyFiveMore = await strangerFails('admin@demo.test', DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET, stranger, 45);
    expect(fortyFiveMore.every((s) => s === 429)).toBe(true);

    const back = await staffLogin({ email: 'admin@demo.test', password: DEMO_STAFF_PASSWORD, code: codeFor(DEMO_TOTP_SECRET, 1) }, adminBrowser, { staff_device: known?.value });
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe('/admin');
    expect(back.setCookies.staff_session?.value).toBeTruthy();
    expect((await server.request('/admin', { cookies: { lang: 'en', staff_session: back.setCookies.staff_session!.value } })).text).toContain('Welcome, Demo admin');
    // Its own cookie: only for /admin, never sent to the member area, renewed with every login.
    expect(known!.raw).toMatch(/;\s*Path=\/admin(;|$)/i);
    expect(known!.raw).toMatch(/;\s*HttpOnly/i);
    expect(known!.raw).toMatch(/;\s*SameSite=Strict/i);
    expect(known!.raw).toMatch(/;\s*Max-Age=7776000/i);
    expect(known!.raw).not.toMatch(/;\s*Secure/i);
    expect(back.setCookies.staff_device!.value).not.toBe(known!.value);

    // The stranger's client stays blocked, even with the right password and a valid code.
    const strangerRight = await staffLogin({ email: 'admin@demo.test', password: DEMO_STAFF_PASSWORD, code: codeFor(DEMO_TOTP_SECRET, 1) }, stranger);
    expect(strangerRight.status).toBe(429);
    expect(strangerRight.text).toContain('Too many attempts. Your account is blocked for 15 minutes.');
    expect(strangerRight.setCookies.staff_session).toBeUndefined();

    // Admins read what happened: the stranger's five counted failures (not the 45 refused during the
    // block) with the client they came from, and the login through the known browser.
    const entries = (await readAudit(db, { staffId: admin!.id, limit: 200 })).filter((r) => r.id > lastAudit);
    const failed = entries.filter((r) => r.action === 'staff.login_failed');
    expect(failed).toHaveLength(5);
    for (const row of failed) expect(row.after).toEqual({ browser: 'new', ip: stranger, factor: 'code' });
    expect(entries.filter((r) => r.action === 'staff.login').map((r) => r.after)).toEqual([
      { browser: 'known', ip: adminBrowser, factor: 'code' },
      { browser: 'new', ip: adminBrowser, factor: 'code' },
    ]);
  });

  it('SEC-17 one stranger’s failures (fifty) block only that client: the staff member’s new browser on another network logs in; a new browser behind the stranger’s address is that client', async () => {
    const account = await staffAccount();
    const stranger = nextIp();
    const statuses = await strangerFails(account.email, PASSWORD, account.secret, stranger, 50);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 429]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    expect((await staffLogin({ email: account.email, password: PASSWORD, code: codeFor(account.secret, 0) }, stranger)).status).toBe(429);

    const elsewhere = await staffLogin({ email: account.email, password: PASSWORD, code: codeFor(account.secret, 0) }, nextIp());
    expect(elsewhere.status).toBe(303);
    expect(elsewhere.setCookies.staff_session?.value).toBeTruthy();
    expect(elsewhere.setCookies.staff_device?.value).toBeTruthy();
  });

  it('SEC-17 failures from many clients (20 in 15 minutes) block the address for new browsers, never the known browser', async () => {
    const account = await staffAccount();
    const knownIp = nextIp();
    const known = (await staffLogin({ email: account.email, password: PASSWORD, code: codeFor(account.secret, 0) }, knownIp)).setCookies.staff_device?.value;
    for (let c = 0; c < 3; c++) expect(await strangerFails(account.email, PASSWORD, account.secret, nextIp(), 5)).toEqual([401, 401, 401, 401, 429]);
    // Fifteen failures from three clients: a new browser is still judged on its own (a wrong code: 401, the 16th).
    expect((await staffLogin({ email: account.email, password: PASSWORD, code: wrongCode(account.secret) }, nextIp())).status).toBe(401);
    // A fourth client: its fourth failure is the address's 20th, which blocks the address.
    expect(await strangerFails(account.email, PASSWORD, account.secret, nextIp(), 4)).toEqual([401, 401, 401, 429]);
    const fresh = await staffLogin({ email: account.email, password: PASSWORD, code: codeFor(account.secret, 1) }, nextIp());
    expect(fresh.status).toBe(429);
    expect(fresh.setCookies.staff_session).toBeUndefined();

    const back = await staffLogin({ email: account.email, password: PASSWORD, code: codeFor(account.secret, 1) }, knownIp, { staff_device: known });
    expect(back.status).toBe(303);
    expect(back.setCookies.staff_session?.value).toBeTruthy();
  });

  it('SEC-17 the known browser’s own five failures block that browser, not the address for the staff member’s other browsers', async () => {
    const account = await staffAccount();
    const ip = nextIp();
    const known = (await staffLogin({ email: account.email, password: PASSWORD, code: codeFor(account.secret, 0) }, ip)).setCookies.staff_device?.value;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await staffLogin({ email: account.email, password: `typo-${i}`, code: wrongCode(account.secret) }, ip, { staff_device: known })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const right = await staffLogin({ email: account.email, password: PASSWORD, code: codeFor(account.secret, 1) }, ip, { staff_device: known });
    expect(right.status).toBe(429);
    expect(right.setCookies.staff_session).toBeUndefined();

    const other = await staffLogin({ email: account.email, password: PASSWORD, code: codeFor(account.secret, 1) }, nextIp());
    expect(other.status).toBe(303);
  });

  it('SEC-17 a member’s device cookie gives nothing at the staff login, under either name, and a staff device cookie nothing at the members’ login', async () => {
    const account = await staffAccount();
    const staffDevice = (await staffLogin({ email: account.email, password: PASSWORD, code: codeFor(account.secret, 0) }, nextIp())).setCookies.staff_device?.value;
    const memberLogin = (device?: string) =>
      server.request('/api/user.php', {
        method: 'POST',
        headers: { ...XHR, 'x-forwarded-for': nextIp() },
        cookies: { lang: 'en', ...(device ? { device } : {}) },
        body: { email: 'free@demo.test', password: 'demo-password-1' },
      });
    const memberDevice = (await memberLogin()).setCookies.device!.value;

    // Strangers on four networks block the staff address for every new browser.
    for (let c = 0; c < 4; c++) await strangerFails(account.email, PASSWORD, account.secret, nextIp(), 5);
    const right = { email: account.email, password: PASSWORD, code: codeFor(account.secret, 1) };
    for (const cookies of [{ device: memberDevice }, { staff_device: memberDevice }, { device: staffDevice }]) {
      const res = await staffLogin(right, nextIp(), cookies);
      expect(res.status, JSON.stringify(cookies)).toBe(429);
      expect(res.setCookies.staff_session).toBeUndefined();
    }
    expect((await staffLogin(right, nextIp(), { device: memberDevice, staff_device: staffDevice })).status).toBe(303);

    // The member's account blocked by a stranger: the staff device cookie does not get the member in.
    const memberStranger = nextIp();
    for (let i = 0; i < 5; i++)
      await server.request('/api/user.php', {
        method: 'POST',
        headers: { ...XHR, 'x-forwarded-for': memberStranger },
        cookies: { lang: 'en' },
        body: { email: 'free@demo.test', password: 'wrong-password' },
      });
    expect((await memberLogin(staffDevice)).status).toBe(429);
    expect((await memberLogin(memberDevice)).status).toBe(200);
  });

  it('SEC-19 an address far longer than any address (8,000 characters) at the staff login is a refused login, not a 5xx', async () => {
    // Random characters, so PostgreSQL cannot compress the address into an index entry.
    const long = `${randomBytes(6000).toString('base64url')}@staff.test`;
    const res = await staffLogin({ email: long, password: 'whatever', code: '123456' }, nextIp());
    expect(res.status).toBe(401);
    expect(res.text).toContain('check your e-mail address, password and code');
  });
});
