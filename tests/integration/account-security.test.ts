/**
 * Login throttling, password reset, e-mail change, settings and notification preferences over real
 * HTTP against the built server and a real database (PGlite, and PostgreSQL when it answers). Every
 * bad input gets its error and changes nothing. Each test makes its own member, and sends its own
 * client address (X-Forwarded-For behind TRUST_PROXY), so throttling in one test never leaks into another.
 */
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTokens, loginThrottle, mailOutbox, profiles, sessions, users } from '../../src/db/schema';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { hashPassword, verifyPassword } from '../../src/server/auth/passwords';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const EN = JSON.parse(readFileSync(new URL('../../i18n/en.json', import.meta.url), 'utf8')) as { errors: Record<string, string> };
const PASSWORD = 'integration-secret-1';

describe.each(await databaseKinds())('account security on %s', (kind) => {
  let server: TestServer;
  let hash: string;
  let siteId: number;
  let counter = 0;
  let ipCounter = 0;

  beforeAll(async () => {
    // The search pages are shared between viewers as in production (decision 049): a member who goes
    // invisible must leave them at once.
    server = await startTestServer({ db: kind, env: { TRUST_PROXY: '1', SEARCH_CACHE_TTL_MS: '10000' } });
    hash = await hashPassword(PASSWORD);
    const [row] = await db().select({ siteId: users.siteId }).from(users).where(eq(users.email, DEMO_ACCOUNTS.free.email)).orderBy(users.id).limit(1);
    siteId = row!.siteId;
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.booted.app.db;
  const nextIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

  /** A fresh confirmed member on site 1 with PASSWORD. */
  async function member(over: Partial<typeof users.$inferInsert> = {}) {
    const email = `sec-${kind}-${++counter}@example.com`;
    const [user] = await db()
      .insert(users)
      .values({ siteId, email, passwordHash: hash, status: 'active', language: 'en', emailConfirmedAt: new Date(), ...over })
      .returning({ id: users.id });
    await db()
      .insert(profiles)
      .values({ userId: user!.id, siteId, name: `Sec${counter}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
    return { id: user!.id, email };
  }
  const userRow = async (id: number) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
  const mailCount = async () => {
    await server.booted.app.background.idle();
    return (await db().select({ id: mailOutbox.id }).from(mailOutbox)).length;
  };
  const sessionCount = async (id: number) => (await db().select().from(sessions).where(eq(sessions.userId, id))).length;

  const apiLogin = (email: string, password: string, ip: string, lang = 'en', device?: string) =>
    server.request('/api/user.php', { method: 'POST', headers: { ...XHR, 'x-forwarded-for': ip }, cookies: { lang, ...(device ? { device } : {}) }, body: { email, password } });
  async function session(email: string, password = PASSWORD) {
    const res = await apiLogin(email, password, nextIp());
    expect(res.status).toBe(200);
    return res.setCookies.session!.value;
  }
  /** A form post from a page of this site (Astro's origin check wants the Origin header). */
  const postForm = (path: string, fields: Record<string, string | string[]>, opts: { cookies?: Record<string, string>; ip?: string; origin?: string | null } = {}) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const value of Array.isArray(v) ? v : [v]) body.append(k, value);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': opts.ip ?? nextIp() };
    if (opts.origin !== null) headers.origin = opts.origin ?? `http://localhost:${server.port}`;
    return server.request(path, { method: 'POST', headers, cookies: { lang: 'en', entry_ok: '1', ...opts.cookies }, body: body.toString() });
  };
  const get = (path: string, cookies: Record<string, string> = {}) => server.request(path, { cookies: { lang: 'en', entry_ok: '1', ...cookies } });
  /** The newest mail to `to`, once the mails requests started in the background have gone out (SEC-11). */
  const lastMailTo = async (to: string) => {
    await server.booted.app.background.idle();
    return (await server.booted.app.mailer.recent(1, to))[0];
  };
  const linkIn = (text: string, path: string) => {
    const m = new RegExp(`(https?://[^\\s]+${path.replace(/[/?]/g, '\\$&')}\\?token=([\\w-]+))`).exec(text);
    return m ? { url: new URL(m[1]!), token: m[2]! } : null;
  };

  describe('login throttling', () => {
    it('AUTH-03 POST /api/user.php: the fifth wrong password blocks the account with 429 and the minutes; the right password from a browser without a device cookie is refused during the block', async () => {
      const m = await member();
      const attacker = nextIp();
      for (let i = 0; i < 4; i++) {
        const res = await apiLogin(m.email, 'wrong-password', attacker);
        expect(res.status).toBe(401);
        expect(res.json().error).toBe('invalid_credentials');
      }
      const blocked = await apiLogin(m.email, 'wrong-password', attacker);
      expect(blocked.status).toBe(429);
      expect(blocked.json()).toEqual({ error: 'too_many_attempts', message: 'Too many attempts. Your account is blocked for 15 minutes.', minutes: 15 });
      // The owner, from an address with no failures of its own and a browser that never logged in to
      // this account (no device cookie, SEC-13), is refused too, and gets no session.
      const owner = await apiLogin(m.email, PASSWORD, nextIp(), 'nl');
      expect(owner.status).toBe(429);
      expect(owner.json().message).toBe('Te veel pogingen. Je account is 15 minuten geblokkeerd.');
      expect(owner.setCookies.session).toBeUndefined();
      expect(await sessionCount(m.id)).toBe(0);
    });

    it('AUTH-03 the block lifts when its time is up (never extended by attempts during it)', async () => {
      const m = await member();
      const attacker = nextIp();
      for (let i = 0; i < 5; i++) await apiLogin(m.email, 'wrong-password', attacker);
      const [before] = await db()
        .select()
        .from(loginThrottle)
        .where(eq(loginThrottle.key, `acct:${m.id}`));
      for (let i = 0; i < 5; i++) expect((await apiLogin(m.email, 'wrong-password', attacker)).status).toBe(429);
      const [during] = await db()
        .select()
        .from(loginThrottle)
        .where(eq(loginThrottle.key, `acct:${m.id}`));
      expect(during!.blockedUntil!.getTime()).toBe(before!.blockedUntil!.getTime());
      expect(during!.failures).toBe(5);
      // Let the 15 minutes pass (moved in the database; the service tests move a fake clock).
      await db()
        .update(loginThrottle)
        .set({ blockedUntil: new Date(Date.now() - 1000), windowStart: new Date(Date.now() - 16 * 60_000) })
        .where(eq(loginThrottle.key, `acct:${m.id}`));
      expect((await apiLogin(m.email, PASSWORD, nextIp())).status).toBe(200);
    });

    it('AUTH-03 a successful login resets the account counter', async () => {
      const m = await member();
      const ip = nextIp();
      for (let i = 0; i < 4; i++) await apiLogin(m.email, 'wrong-password', ip);
      expect((await apiLogin(m.email, PASSWORD, ip)).status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await apiLogin(m.email, 'wrong-password', ip)).status).toBe(401);
    });

    it('AUTH-03 the /login form shows the translated minutes message with 429 and sets no session (a browser without a device cookie)', async () => {
      const m = await member();
      const ip = nextIp();
      for (let i = 0; i < 4; i++) expect((await postForm('/login', { email: m.email, password: 'nope', next: '/members' }, { ip, cookies: { lang: 'nl' } })).status).toBe(401);
      const blocked = await postForm('/login', { email: m.email, password: 'nope', next: '/members' }, { ip, cookies: { lang: 'nl' } });
      expect(blocked.status).toBe(429);
      expect(blocked.text).toContain('Te veel pogingen. Je account is 15 minuten geblokkeerd.');
      const right = await postForm('/login', { email: m.email, password: PASSWORD, next: '/members' }, { cookies: { lang: 'en' } });
      expect(right.status).toBe(429);
      expect(right.text).toContain('Too many attempts. Your account is blocked for 15 minutes.');
      expect(right.setCookies.session).toBeUndefined();
    });

    it('AUTH-03 30 failures from one IP block that IP for every account; other IPs are not affected', async () => {
      const m = await member();
      const ip = nextIp();
      for (let i = 0; i < 29; i++) expect((await apiLogin(`ghost-${kind}-${i}@example.com`, 'nope', ip)).status).toBe(401);
      const last = await apiLogin(`ghost-${kind}-29@example.com`, 'nope', ip);
      expect(last.status).toBe(429);
      expect(last.json().minutes).toBe(15);
      expect((await apiLogin(m.email, PASSWORD, ip)).status).toBe(429);
      expect((await apiLogin(m.email, PASSWORD, nextIp())).status).toBe(200);
    });

    it('AUTH-03 a malformed login body is refused before anything is counted', async () => {
      const m = await member();
      const res = await server.request('/api/user.php', { method: 'POST', headers: { ...XHR, 'x-forwarded-for': nextIp() }, body: { email: m.email } });
      expect(res.status).toBe(400);
      expect(res.json().error).toBe('validation_failed');
      expect(
        await db()
          .select()
          .from(loginThrottle)
          .where(eq(loginThrottle.key, `acct:${m.id}`)),
      ).toHaveLength(0);
    });

    it('SEC-13 AUTH-03 as a new user would try: 11 wrong passwords from an attacker, then the owner’s browser that logged in before gets in with the right password', async () => {
      const m = await member();
      // The owner logged in on this browser before: the answer set the device cookie.
      const first = await postForm('/login', { email: m.email, password: PASSWORD, next: '/members' });
      expect(first.status).toBe(303);
      const device = first.setCookies.device!;
      expect(device.raw).toMatch(/;\s*HttpOnly/i);
      expect(device.raw).toMatch(/;\s*SameSite=Lax/i);
      expect(device.raw).toMatch(/;\s*Max-Age=31536000/i);
      expect(device.raw).not.toMatch(/;\s*Secure/i);

      const attacker = nextIp();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await apiLogin(m.email, `guess-${i}`, attacker)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);

      // A browser without the cookie is still refused during the block …
      const stranger = await postForm('/login', { email: m.email, password: PASSWORD, next: '/members' });
      expect(stranger.status).toBe(429);
      expect(stranger.text).toContain('Too many attempts. Your account is blocked for 15 minutes.');
      expect(stranger.setCookies.session).toBeUndefined();
      // … the owner's browser gets in, and gets a fresh device cookie.
      const owner = await postForm('/login', { email: m.email, password: PASSWORD, next: '/members' }, { cookies: { device: device.value } });
      expect(owner.status).toBe(303);
      expect(owner.headers.location).toBe('/members');
      expect(owner.setCookies.session?.value).toBeTruthy();
      expect(owner.setCookies.device?.value).toBeTruthy();
      expect(owner.setCookies.device!.value).not.toBe(device.value);
      // The same over the API (the SPEC's client keeps its cookies too).
      const api = await apiLogin(m.email, PASSWORD, nextIp(), 'en', owner.setCookies.device!.value);
      expect(api.status).toBe(200);
      expect(api.json().email).toBe(m.email);
      expect((await apiLogin(m.email, PASSWORD, nextIp())).status).toBe(429);
    });

    it('SEC-13 a device cookie of another account, or a tampered one, does not get past the block', async () => {
      const m = await member();
      const other = await member();
      const own = (await apiLogin(m.email, PASSWORD, nextIp())).setCookies.device!.value;
      const foreign = (await apiLogin(other.email, PASSWORD, nextIp())).setCookies.device!.value;
      const attacker = nextIp();
      for (let i = 0; i < 5; i++) await apiLogin(m.email, 'wrong-password', attacker);
      const [, expires, nonce, signature] = own.split('.');
      const tampered = [
        foreign,
        `${other.id}.${expires}.${nonce}.${signature}`,
        `${m.id}.${Number(expires) + 1}.${nonce}.${signature}`,
        `${m.id}.${expires}.${nonce}.${signature!.slice(0, -2)}AA`,
        `${m.id}.${expires}.${'A'.repeat(22)}.${signature}`,
      ];
      for (const device of tampered) {
        const res = await apiLogin(m.email, PASSWORD, nextIp(), 'en', device);
        expect(res.status, device).toBe(429);
        expect(res.setCookies.session).toBeUndefined();
      }
      expect((await apiLogin(m.email, PASSWORD, nextIp(), 'en', own)).status).toBe(200);
    });

    it('SEC-13 AUTH-03 the device’s own counter: 5 failures with a device cookie block that device, not the account', async () => {
      const m = await member();
      const device = (await apiLogin(m.email, PASSWORD, nextIp())).setCookies.device!.value;
      const ip = nextIp();
      for (let i = 0; i < 4; i++) expect((await apiLogin(m.email, 'wrong-password', ip, 'en', device)).status).toBe(401);
      const fifth = await apiLogin(m.email, 'wrong-password', ip, 'en', device);
      expect(fifth.status).toBe(429);
      expect(fifth.json()).toMatchObject({ error: 'too_many_attempts', minutes: 15 });
      const right = await apiLogin(m.email, PASSWORD, ip, 'en', device);
      expect(right.status).toBe(429);
      expect(right.setCookies.session).toBeUndefined();
      // Those failures were the device's: the account is not blocked for anyone else.
      expect(
        await db()
          .select()
          .from(loginThrottle)
          .where(eq(loginThrottle.key, `acct:${m.id}`)),
      ).toHaveLength(0);
      expect((await apiLogin(m.email, PASSWORD, nextIp())).status).toBe(200);
    });

    it('DEL-01 a deleted account within 14 days answers account_deletion_pending (403); after 14 days invalid_credentials', async () => {
      const m = await member({ status: 'deleted', deletedAt: new Date(Date.now() - 13 * 24 * 3600 * 1000) });
      const api = await apiLogin(m.email, PASSWORD, nextIp());
      expect(api.status).toBe(403);
      expect(api.json().error).toBe('account_deletion_pending');
      expect(api.json().message).toContain('not yet final');
      const page = await postForm('/login', { email: m.email, password: PASSWORD }, { cookies: { lang: 'nl' } });
      expect(page.status).toBe(403);
      expect(page.text).toContain('nog niet definitief');
      expect(page.setCookies.session).toBeUndefined();
      expect((await apiLogin(m.email, 'wrong-password', nextIp())).status).toBe(401);
      await db()
        .update(users)
        .set({ deletedAt: new Date(Date.now() - 15 * 24 * 3600 * 1000) })
        .where(eq(users.id, m.id));
      const final = await apiLogin(m.email, PASSWORD, nextIp());
      expect(final.status).toBe(401);
      expect(final.json().error).toBe('invalid_credentials');
    });
  });

  describe('password reset', () => {
    it('PWD-01 /reset-password mails a link for a known address and redirects to its sent state', async () => {
      const m = await member();
      const form = await get('/reset-password');
      expect(form.status).toBe(200);
      expect(form.text).toContain('data-reset-request');
      const res = await postForm('/reset-password', { email: m.email.toUpperCase() });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/reset-password?sent=1');
      const mail = await lastMailTo(m.email);
      expect(mail?.kind).toBe('password_reset');
      const link = linkIn(mail!.text, '/reset-password/do');
      expect(link?.url.origin).toBe(`http://localhost:${server.port}`);
      const sent = await get('/reset-password?sent=1');
      expect(sent.text).toContain('data-reset-sent');
    });

    it('SEC-11 PWD-02 a known and an unknown address get the same answer (status, redirect, page); only the account is mailed', async () => {
      const m = await member();
      const before = await mailCount();
      const known = await postForm('/reset-password', { email: m.email });
      const unknown = await postForm('/reset-password', { email: `nobody-${kind}-${counter}@example.com` });
      const shape = (res: typeof known) => ({ status: res.status, location: res.headers.location, body: res.text, cookies: Object.keys(res.setCookies).sort() });
      expect(shape(unknown)).toEqual(shape(known));
      expect(known.status).toBe(303);
      expect(known.headers.location).toBe('/reset-password?sent=1');
      const sent = await get(known.headers.location as string);
      expect(sent.text).toContain(`If there is an account with this e-mail address on`);
      expect(sent.text).toContain('data-reset-sent');
      expect(sent.text).not.toContain('data-reset-error');
      expect((await lastMailTo(m.email))?.kind).toBe('password_reset');
      expect(await lastMailTo(`nobody-${kind}-${counter}@example.com`)).toBeUndefined();
      expect(await mailCount()).toBe(before + 1);
    });

    it('SEC-11 over the per-IP limit the answer is the translated "too many password resets" (429) and nothing is mailed', async () => {
      const ip = nextIp();
      for (let i = 0; i < 20; i++) expect((await postForm('/reset-password', { email: `spray-${kind}-${i}@example.com` }, { ip })).status).toBe(303);
      const m = await member();
      const before = await mailCount();
      const refused = await postForm('/reset-password', { email: m.email }, { ip, cookies: { lang: 'nl' } });
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('Te veel wachtwoordherstelpogingen, probeer het morgen opnieuw.');
      expect(await mailCount()).toBe(before);
      expect(await lastMailTo(m.email)).toBeUndefined();
    });

    it('PWD-02 invalid addresses get their message and nothing is mailed', async () => {
      const before = await mailCount();
      const invalid = await postForm('/reset-password', { email: 'not an address' }, { cookies: { lang: 'nl' } });
      expect(invalid.status).toBe(400);
      expect(invalid.text).toContain('Ongeldige e-mail');
      const empty = await postForm('/reset-password', {});
      expect(empty.status).toBe(400);
      const crossSite = await postForm('/reset-password', { email: DEMO_ACCOUNTS.free.email }, { origin: 'http://evil.example' });
      expect(crossSite.status).toBe(403);
      expect(await mailCount()).toBe(before);
    });

    it('PWD-02 SEC-11 a fourth reset within 24 hours is refused with "try tomorrow", for an address without an account too, and nothing is mailed', async () => {
      const m = await member();
      for (const address of [m.email, `ghost-${kind}-${counter}@example.com`]) {
        for (let i = 0; i < 3; i++) expect((await postForm('/reset-password', { email: address })).status).toBe(303);
        const before = await mailCount();
        const fourth = await postForm('/reset-password', { email: address });
        expect(fourth.status).toBe(429);
        expect(fourth.text).toContain('Too many password resets, please try again tomorrow.');
        expect(await mailCount()).toBe(before);
      }
      expect((await server.booted.app.mailer.recent(10, m.email)).length).toBe(3);
    });

    it('PWD-02 a forged Host header cannot point the mailed link elsewhere', async () => {
      const m = await member();
      const res = await server.request('/reset-password', {
        method: 'POST',
        host: 'evil.example',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://evil.example:${server.port}`, 'x-forwarded-for': nextIp() },
        body: `email=${encodeURIComponent(m.email)}`,
      });
      expect(res.status).toBe(303);
      const link = linkIn((await lastMailTo(m.email))!.text, '/reset-password/do');
      expect(link?.url.host).not.toContain('evil.example');
      expect(link?.url.protocol).toBe('https:');
    });

    it('PWD-01 PWD-02 bad input on /reset-password/do changes nothing; the right input ends every session, logs this browser in and uses the link', async () => {
      const m = await member();
      const oldSession = await session(m.email);
      await postForm('/reset-password', { email: m.email });
      const { token } = linkIn((await lastMailTo(m.email))!.text, '/reset-password/do')!;

      const expired = await get('/reset-password/do?token=not-a-real-token-at-all-000000');
      expect(expired.status).toBe(410);
      expect(expired.text).toContain('This reset link has expired.');
      const page = await get(`/reset-password/do?token=${token}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('data-reset-form');

      const differ = await postForm('/reset-password/do', { token, password: 'new-secret-words-1', password_repeat: 'new-secret-words-2' }, { cookies: { lang: 'nl' } });
      expect(differ.status).toBe(400);
      expect(differ.text).toContain('De opgegeven wachtwoorden zijn niet gelijk');
      const weak = await postForm('/reset-password/do', { token, password: 'short', password_repeat: 'short' });
      expect(weak.status).toBe(400);
      expect(weak.text).toContain('Your password must be at least 8 characters long.');
      const wrongToken = await postForm('/reset-password/do', { token: 'x'.repeat(43), password: 'new-secret-words-1', password_repeat: 'new-secret-words-1' });
      expect(wrongToken.status).toBe(410);
      const noOrigin = await postForm('/reset-password/do', { token, password: 'new-secret-words-1', password_repeat: 'new-secret-words-1' }, { origin: null });
      expect(noOrigin.status).toBe(403);
      expect((await userRow(m.id)).passwordHash).toBe(hash);
      expect((await get('/api/user.php', { session: oldSession })).status).toBe(200);

      const done = await postForm('/reset-password/do', { token, password: 'new-secret-words-1', password_repeat: 'new-secret-words-1' }, { cookies: { session: oldSession } });
      expect(done.status).toBe(303);
      expect(done.headers.location).toBe('/members');
      // This browser is now a known device of the account (SEC-13).
      expect(done.setCookies.device?.value).toMatch(new RegExp(`^${m.id}\\.`));
      const fresh = done.setCookies.session!.value;
      expect(fresh).not.toBe(oldSession);
      expect((await get('/api/user.php', { session: oldSession })).status).toBe(403);
      expect((await get('/api/user.php', { session: fresh })).json().email).toBe(m.email);
      expect(await verifyPassword((await userRow(m.id)).passwordHash!, 'new-secret-words-1')).toBe(true);
      expect((await get(`/reset-password/do?token=${token}`)).status).toBe(410);
      expect((await apiLogin(m.email, PASSWORD, nextIp())).status).toBe(401);
      expect((await apiLogin(m.email, 'new-secret-words-1', nextIp())).status).toBe(200);
    });
  });

  describe('e-mail change', () => {
    it('MAIL-01 bad requests on the settings form get their message and change nothing', async () => {
      const m = await member();
      const cookie = await session(m.email);
      const before = await mailCount();
      const cases: Array<[Record<string, string>, string]> = [
        [{ email: DEMO_ACCOUNTS.premium.email, current_password: PASSWORD }, 'There is already an account with this e-mail address on this site.'],
        [{ email: 'fresh-address@example.org', current_password: 'not-my-password' }, EN.errors.wrong_password!],
        [{ email: 'not-an-address', current_password: PASSWORD }, 'Invalid e-mail address'],
        [{ email: 'throwaway@mailinator.com', current_password: PASSWORD }, 'disposable addresses are not accepted'],
        [{ email: m.email, current_password: PASSWORD }, 'This is already your e-mail address.'],
      ];
      for (const [fields, message] of cases) {
        const res = await postForm('/settings', { form: 'email', ...fields }, { cookies: { session: cookie } });
        expect(res.status, message).toBe(400);
        expect(res.text).toContain(message);
      }
      expect(await mailCount()).toBe(before);
      expect(
        await db()
          .select()
          .from(accountTokens)
          .where(and(eq(accountTokens.userId, m.id), eq(accountTokens.kind, 'email_change'))),
      ).toHaveLength(0);
      expect((await userRow(m.id)).email).toBe(m.email);
    });

    it('MAIL-01 a good request mails the new address a link; the link changes and confirms the address once', async () => {
      const m = await member({ emailConfirmedAt: null, status: 'not_confirmed' });
      const cookie = await session(m.email);
      const newEmail = `moved-${kind}-${counter}@example.org`;
      const res = await postForm('/settings', { form: 'email', email: newEmail, current_password: PASSWORD }, { cookies: { session: cookie } });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/settings?saved=email#email');
      const notice = await get('/settings?saved=email', { session: cookie });
      expect(notice.text).toContain(`We have sent a confirmation link to ${newEmail}`);
      expect((await lastMailTo(m.email))?.kind).toBe('email_change_notice');
      const link = linkIn((await lastMailTo(newEmail))!.text, '/mail-change/do')!;
      expect((await userRow(m.id)).email).toBe(m.email);

      const bad = await get('/mail-change/do?token=nonsense-token-that-does-not-exist');
      expect(bad.status).toBe(410);
      expect((await userRow(m.id)).email).toBe(m.email);

      const done = await get(`/mail-change/do?token=${link.token}`);
      expect(done.status).toBe(200);
      expect(done.text).toContain('Your e-mail address has been changed');
      const after = await userRow(m.id);
      expect(after.email).toBe(newEmail);
      expect(after.emailConfirmedAt).not.toBeNull();
      const again = await get(`/mail-change/do?token=${link.token}`);
      expect(again.status).toBe(410);
      expect((await apiLogin(newEmail, PASSWORD, nextIp())).status).toBe(200);
    });

    it('MAIL-01 an address taken between request and confirmation is refused; two confirmations at once give it to one member only', async () => {
      const a = await member();
      const b = await member();
      const contested = `contested-${kind}@example.org`;
      for (const who of [a, b]) {
        const res = await postForm('/settings', { form: 'email', email: contested, current_password: PASSWORD }, { cookies: { session: await session(who.email) } });
        expect(res.status).toBe(303);
      }
      const links = (await server.booted.app.mailer.recent(2, contested)).map((mail) => linkIn(mail.text, '/mail-change/do')!.token);
      const results = await Promise.all(links.map((token) => get(`/mail-change/do?token=${token}`)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.text).toContain('There is already an account with this e-mail address on this site');
      expect(await db().select().from(users).where(eq(users.email, contested))).toHaveLength(1);
    });
  });

  describe('settings screen', () => {
    it('SET-01 visitors are sent to the login with a way back; members see every section', async () => {
      const visitor = await get('/settings');
      expect(visitor.status).toBe(302);
      expect(visitor.headers.location).toBe('/login?next=%2Fsettings');
      const m = await member();
      const page = await get('/settings', { session: await session(m.email) });
      expect(page.status).toBe(200);
      for (const id of ['id="email"', 'id="password"', 'id="push"', 'id="notifications"', 'id="invisible"', 'href="/notifications"', 'href="/settings/delete"', 'data-push-settings'])
        expect(page.text).toContain(id);
      expect(page.text).toContain(m.email);
      expect(page.text).toContain('All notifications are on.');
    });

    it('SET-01 AUTH-04 a password change with bad input changes nothing; a good one ends the other sessions only', async () => {
      const m = await member();
      const here = await session(m.email);
      const other = await session(m.email);
      const change = (fields: Record<string, string>, lang = 'en') => postForm('/settings', { form: 'password', ...fields }, { cookies: { session: here, lang } });
      const differ = await change({ current_password: PASSWORD, password: 'fresh-secret-words', password_repeat: 'fresh-secret-wordz' }, 'nl');
      expect(differ.status).toBe(400);
      expect(differ.text).toContain('De opgegeven wachtwoorden zijn niet gelijk');
      const wrong = await change({ current_password: 'nope', password: 'fresh-secret-words', password_repeat: 'fresh-secret-words' });
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain(EN.errors.wrong_password);
      // Only the posted form shows its errors (the e-mail form has a current-password field too).
      expect(wrong.text).toMatch(/<input[^>]*id="settings-password-current"[^>]*aria-invalid="true"/);
      expect(wrong.text).not.toMatch(/<input[^>]*id="settings-email-password"[^>]*aria-invalid="true"/);
      const common = await change({ current_password: PASSWORD, password: 'password123', password_repeat: 'password123' });
      expect(common.status).toBe(400);
      expect(common.text).toContain('This password is too common');
      expect((await userRow(m.id)).passwordHash).toBe(hash);
      expect((await get('/api/user.php', { session: other })).status).toBe(200);

      const ok = await change({ current_password: PASSWORD, password: 'fresh-secret-words', password_repeat: 'fresh-secret-words' });
      expect(ok.status).toBe(303);
      expect(ok.headers.location).toBe('/settings?saved=password#password');
      expect((await get('/api/user.php', { session: other })).status).toBe(403);
      expect((await get('/api/user.php', { session: here })).status).toBe(200);
      expect((await get('/settings?saved=password', { session: here })).text).toContain('You have been logged out on your other devices.');
      expect((await apiLogin(m.email, 'fresh-secret-words', nextIp())).status).toBe(200);
    });

    it('SET-01 MEM-01 invisible mode toggles and hides the member from the listing at once; a bad value changes nothing', async () => {
      const m = await member();
      const cookie = await session(m.email);
      // Another member's search page (shared between viewers for a few seconds, decision 049) lists her, newest
      // first; with enough others like her that the page is the shared one, not a search with similar results.
      for (let i = 0; i < 8; i++) await member();
      const viewer = await session((await member()).email);
      const listed = async () => (await get('/members?gender=female&country=NL&minAge=30&maxAge=45', { session: viewer })).text.includes(`data-member-id="${m.id}"`);
      expect(await listed()).toBe(true);
      const bad = await postForm('/settings', { form: 'invisible', invisible: 'maybe' }, { cookies: { session: cookie } });
      expect(bad.status).toBe(400);
      const unknown = await postForm('/settings', { form: 'something-else' }, { cookies: { session: cookie } });
      expect(unknown.status).toBe(400);
      const forged = await postForm('/settings', { form: 'invisible', invisible: '1' }, { cookies: { session: cookie }, origin: 'http://evil.example' });
      expect(forged.status).toBe(403);
      expect((await userRow(m.id)).invisible).toBe(false);

      const on = await postForm('/settings', { form: 'invisible', invisible: '1' }, { cookies: { session: cookie } });
      expect(on.status).toBe(303);
      expect((await userRow(m.id)).invisible).toBe(true);
      expect(await listed()).toBe(false);
      const page = await get('/settings?saved=invisible_on', { session: cookie });
      expect(page.text).toContain('You are now invisible.');
      expect(page.text).toContain('data-invisible-state="on"');
      const off = await postForm('/settings', { form: 'invisible', invisible: '0' }, { cookies: { session: cookie } });
      expect(off.status).toBe(303);
      expect((await userRow(m.id)).invisible).toBe(false);
      expect(await listed()).toBe(true);
    });

    it('SET-01 visitors cannot post the settings forms', async () => {
      const res = await postForm('/settings', { form: 'invisible', invisible: '1' });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/login?next=%2Fsettings');
    });
  });

  describe('notification preferences', () => {
    it('SET-02 /notifications shows the eight preferences as labelled checkboxes; visitors go to the login', async () => {
      expect((await get('/notifications')).headers.location).toBe('/login?next=%2Fnotifications');
      const m = await member();
      const page = await get('/notifications', { session: await session(m.email) });
      expect(page.status).toBe(200);
      const keys = ['new_conversations', 'new_messages', 'like_received', 'unread_message_reminders', 'promotions', 'weekly_updates', 'news', 'reminders'];
      for (const key of keys) {
        expect(page.text).toMatch(new RegExp(`<input[^>]*id="notify-${key}"[^>]*checked`));
        expect(page.text).toContain(`for="notify-${key}"`);
      }
      for (const label of ['New conversations', 'New messages', 'Likes I receive', 'Reminders of unread messages', 'Promotions and offers', 'Weekly updates', 'News', 'Reminders'])
        expect(page.text).toContain(label);
    });

    it('SET-02 saving stores the unchecked ones as disabled; an unknown choice or a cross-site post changes nothing', async () => {
      const m = await member();
      const cookie = await session(m.email);
      const save = (enabled: string[], origin?: string | null) =>
        postForm('/notifications', { form: 'notifications', enabled }, { cookies: { session: cookie }, ...(origin === undefined ? {} : { origin }) });
      const ok = await save(['new_messages', 'news']);
      expect(ok.status).toBe(303);
      expect(ok.headers.location).toBe('/notifications?saved=1');
      expect((await userRow(m.id)).notificationsDisabled).toEqual(['new_conversations', 'like_received', 'unread_message_reminders', 'promotions', 'weekly_updates', 'reminders']);
      const page = await get('/notifications?saved=1', { session: cookie });
      expect(page.text).toContain('Your notification settings have been saved.');
      expect(page.text).not.toMatch(/<input[^>]*id="notify-promotions"[^>]*checked/);
      expect(page.text).toMatch(/<input[^>]*id="notify-news"[^>]*checked/);
      expect((await get('/settings', { session: cookie })).text).toContain('6 of 8 notifications are off.');

      const bad = await save(['news', 'sms_blast']);
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('Please choose one of the options offered.');
      expect((await save([], 'http://evil.example')).status).toBe(403);
      expect((await postForm('/notifications', { enabled: 'news' }, { cookies: { session: cookie } })).status).toBe(400);
      expect((await userRow(m.id)).notificationsDisabled).toEqual(['new_conversations', 'like_received', 'unread_message_reminders', 'promotions', 'weekly_updates', 'reminders']);

      expect((await save([])).status).toBe(303);
      expect((await userRow(m.id)).notificationsDisabled).toHaveLength(8);
    });
  });
});
