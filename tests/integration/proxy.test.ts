/**
 * Behind a TLS proxy (SEC-01, SEC-10): the test client plays the proxy, as nginx would in front of the
 * app: the browser speaks HTTPS to it, it speaks HTTP to us and adds X-Forwarded-Proto and
 * X-Forwarded-For (appending the address it saw to whatever the client sent).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, users } from '../../src/db/schema';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { startTestServer, type TestServer } from '../setup/server';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('behind a TLS proxy (TRUST_PROXY=true)', () => {
  let server: TestServer;
  let httpsOrigin: string;
  let ipCounter = 0;
  const realIp = () => `203.0.113.${++ipCounter}`;
  /** What the proxy forwards for a browser at `ip` that sent `clientXff` itself. */
  const proxied = (ip: string, clientXff?: string) => ({ 'x-forwarded-proto': 'https', 'x-forwarded-for': clientXff ? `${clientXff}, ${ip}` : ip });

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    httpsOrigin = `https://localhost:${server.port}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('SEC-01 the login form posted through the proxy logs in: the origin check sees https, the cookie is Secure, HSTS is sent', async () => {
    const res = await server.request('/login', {
      method: 'POST',
      headers: { ...FORM, origin: httpsOrigin, ...proxied(realIp()) },
      cookies: { lang: 'en' },
      body: `email=${encodeURIComponent(DEMO_ACCOUNTS.free.email)}&password=${encodeURIComponent(DEMO_ACCOUNTS.free.password)}`,
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/members');
    expect(res.setCookies.session?.raw).toMatch(/;\s*Secure/i);
    // SEC-13: the device cookie is Secure too when the browser spoke HTTPS.
    expect(res.setCookies.device?.raw).toMatch(/;\s*Secure/i);
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d{8,}/);
  });

  it('SEC-01 a form from another origin is still refused through the proxy', async () => {
    const res = await server.request('/login', {
      method: 'POST',
      headers: { ...FORM, origin: 'https://evil.example', ...proxied(realIp()) },
      body: `email=${encodeURIComponent(DEMO_ACCOUNTS.free.email)}&password=x`,
    });
    expect(res.status).toBe(403);
    expect(res.setCookies.session).toBeUndefined();
  });

  it('SEC-01 mailed links start with https:// when the browser came through the proxy', async () => {
    const res = await server.request('/reset-password', {
      method: 'POST',
      headers: { ...FORM, origin: httpsOrigin, ...proxied(realIp()) },
      cookies: { lang: 'en' },
      body: `email=${encodeURIComponent(DEMO_ACCOUNTS.premium.email)}`,
    });
    expect(res.status).toBe(303);
    // The mail is sent after the answer (SEC-11).
    await server.booted.app.background.idle();
    const [mail] = await server.booted.app.mailer.recent(1, DEMO_ACCOUNTS.premium.email);
    expect(mail?.text).toMatch(new RegExp(`https://localhost:${server.port}/reset-password/do\\?token=`));
    expect(mail?.text).not.toContain('http://');
  });

  it('SEC-01 40 failed logins with a rotating X-Forwarded-For of the client’s own are counted on the address the proxy saw', async () => {
    const attacker = realIp();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await server.request('/api/user.php', {
        method: 'POST',
        headers: { 'x-requested-with': 'XMLHttpRequest', ...proxied(attacker, `10.${i}.${i}.${i}`) },
        body: { email: `nobody-${i}@example.com`, password: 'wrong-password' },
      });
      statuses.push(res.status);
    }
    // 29 answers 'invalid credentials', the 30th starts the block on the attacker's address, the rest are refused.
    expect(statuses.slice(0, 29).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(29).every((s) => s === 429)).toBe(true);
    // Another client behind the same proxy is not affected.
    const other = await server.request('/api/user.php', {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', ...proxied(realIp()) },
      body: { email: DEMO_ACCOUNTS.free.email, password: DEMO_ACCOUNTS.free.password },
    });
    expect(other.status).toBe(200);
  });

  it('SEC-10 the CDN country header is believed behind the trusted proxy', async () => {
    const email = `proxy-country-${Date.now()}@example.com`;
    const res = await server.request('/api/signup.php', {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'cf-ipcountry': 'BE', ...proxied(realIp()) },
      body: { email, name: 'Proxy Belg', password: 'a-long-enough-secret-1', date_of_birth: '1990-01-01', gender: 'male', looking_for: 'female' },
    });
    expect(res.status).toBe(201);
    const [row] = await server.booted.app.db.select({ country: profiles.country }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(eq(users.email, email));
    expect(row?.country).toBe('BE');
  });
});

describe('without a trusted proxy (TRUST_PROXY=false)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('SEC-01 forwarded headers are not believed: a claimed https origin does not pass the origin check, and no HSTS', async () => {
    const res = await server.request('/login', {
      method: 'POST',
      headers: { ...FORM, origin: `https://localhost:${server.port}`, 'x-forwarded-proto': 'https' },
      body: `email=${encodeURIComponent(DEMO_ACCOUNTS.free.email)}&password=${encodeURIComponent(DEMO_ACCOUNTS.free.password)}`,
    });
    expect(res.status).toBe(403);
    const page = await server.request('/login', { headers: { 'x-forwarded-proto': 'https' } });
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('SEC-10 the CDN country header is ignored: any client could pick the country (and its entry-warning rule)', async () => {
    const email = `direct-country-${Date.now()}@example.com`;
    const res = await server.request('/api/signup.php', {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'cf-ipcountry': 'BE' },
      body: { email, name: 'Direct Belg', password: 'a-long-enough-secret-1', date_of_birth: '1990-01-01', gender: 'male', looking_for: 'female' },
    });
    expect(res.status).toBe(201);
    const [row] = await server.booted.app.db.select({ country: profiles.country }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(eq(users.email, email));
    expect(row?.country).toBe('NL');
  });
});
