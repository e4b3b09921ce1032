/**
 * SEC-14: no free credits, ever. The audit started the built app with NODE_ENV=production and no PAY.
 * keys, and the simulated checkout sold the €97.95 package for nothing. Now:
 * - a server without a configured provider says so at start (an error in the log) and refuses every
 *   purchase: the credits pages say payments are not available instead of offering packages, a form post
 *   is refused with the translated text, a script gets JSON `payments_unavailable`, nothing is stored;
 * - a production process refuses to start with the simulated checkout unless DEMO_MODE says it is a demo.
 */
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForLine } from '../../bench/process';
import { creditPackages, payments, users } from '../../src/db/schema';
import { createLogger } from '../../src/server/logger';
import { startTestServer, type TestServer } from '../setup/server';

const root = join(import.meta.dirname, '..', '..');
const entry = join(root, 'dist', 'server', 'main.mjs');
const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('SEC-14 a server without a payment provider', () => {
  let server: TestServer;
  let session: string;
  let memberId: number;
  let pkg: typeof creditPackages.$inferSelect;
  const logged: string[] = [];
  const origin = () => `http://localhost:${server.port}`;
  const as = (headers: Record<string, string> = {}) => ({ cookies: { lang: 'en', session }, headers: { origin: origin(), ...headers } });
  const formPost = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    server.request(path, { ...as({ 'content-type': 'application/x-www-form-urlencoded', ...headers }), method: 'POST', body: new URLSearchParams(fields).toString() });

  beforeAll(async () => {
    const lines = new Writable({ write: (chunk: Buffer, _encoding, done) => (logged.push(chunk.toString()), done()) });
    // PAYMENTS_PROVIDER '' is unset: the server has no provider, as a deployment that configured none.
    server = await startTestServer({ env: { PAYMENTS_PROVIDER: '' }, log: createLogger('warn', lines) });
    const login = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'free@demo.test', password: 'demo-password-1' } });
    session = login.setCookies.session!.value;
    memberId = login.json().id;
    // The package the audit bought: the site's most expensive one.
    [pkg] = (await server.booted.app.db
      .select()
      .from(creditPackages)
      .where(and(eq(creditPackages.siteId, 1), eq(creditPackages.active, true)))
      .orderBy(desc(creditPackages.priceCents))
      .limit(1)) as [typeof creditPackages.$inferSelect];
  });
  afterAll(async () => {
    await server?.close();
  });

  it('SEC-14 says at start that no provider is configured', () => {
    const errors = logged.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 50);
    expect(errors.map((e) => e.msg)).toContainEqual(expect.stringContaining('payments: no provider configured'));
  });

  it('SEC-14 the credits pages say payments are not available instead of offering packages; /premium keeps its prices without buy buttons', async () => {
    const credits = await server.request('/credits', as());
    expect(credits.status).toBe(200);
    expect(credits.text).toContain('data-payments-unavailable');
    expect(credits.text).toContain('Credits cannot be bought at the moment');
    expect(credits.text).not.toContain('data-credits-form');
    const confirm = await server.request(`/credits/${pkg.id}/ideal?issuer=INGBNL2A`, as());
    expect(confirm.status).toBe(503);
    expect(confirm.text).toContain('data-payment-error="payments_unavailable"');
    expect(confirm.text).not.toContain('data-pay-form');
    expect((await server.request('/credits/repeat-order', as())).text).toContain('data-payments-unavailable');
    const premium = await server.request('/premium', as());
    expect(premium.text).toContain('data-payments-unavailable');
    expect(premium.text).toContain(`data-package="${pkg.id}"`);
    expect(premium.text).not.toContain('data-buy=');
  });

  it('SEC-14 a purchase is refused with the translated text, JSON payments_unavailable for scripts, and nothing is stored or credited', async () => {
    const choice = await formPost('/credits', { package: String(pkg.id), method: 'ideal', issuer: 'INGBNL2A' });
    expect(choice.status).toBe(503);
    const page = await formPost(`/credits/${pkg.id}/ideal`, { key: 'no-provider-key-1', issuer: 'INGBNL2A' });
    expect(page.status).toBe(503);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('Credits cannot be bought at the moment');
    const script = await formPost(`/credits/${pkg.id}/ideal`, { key: 'no-provider-key-2', issuer: 'INGBNL2A' }, XHR);
    expect(script.status).toBe(503);
    expect(script.json()).toEqual({ error: 'payments_unavailable', message: expect.stringContaining('Credits cannot be bought') });
    const dutch = await server.request(`/credits/${pkg.id}/ideal`, {
      cookies: { lang: 'nl', session },
      headers: { origin: origin(), 'content-type': 'application/x-www-form-urlencoded', ...XHR },
      method: 'POST',
      body: 'key=no-provider-key-3&issuer=INGBNL2A',
    });
    expect(dutch.json().message).toContain('Credits kopen kan op dit moment niet');
    const db = server.booted.app.db;
    expect(await db.select().from(payments).where(eq(payments.userId, memberId))).toHaveLength(0);
    const [user] = await db.select({ credits: users.credits, paid: users.paidUser }).from(users).where(eq(users.id, memberId));
    expect(user!.paid).toBe(false);
    // Nothing is there to pay on: the simulated checkout and its webhooks are not there.
    expect((await server.request('/checkout/simulated/sim_AAAAAAAAAAAAAAAAAAAA', as())).status).toBe(404);
    expect((await server.request('/api/payment-webhook.php?provider=simulated', { method: 'POST', body: '{"id":"sim_AAAAAAAAAAAAAAAAAAAA"}' })).status).toBe(404);
  });
});

describe('SEC-14 the built server as an operator starts it', () => {
  const run = (env: Record<string, string>) =>
    spawn(process.execPath, [entry], {
      cwd: root,
      env: {
        ...process.env,
        PAYMENTS_PROVIDER: '',
        DEMO_MODE: '',
        PAYNL_TOKEN_CODE: '',
        PAYNL_API_TOKEN: '',
        PAYNL_SERVICE_ID: '',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        DATABASE_URL: 'memory://',
        SEED_PROFILES_PER_SITE: '2',
        NODE_ENV: 'production',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  it('SEC-14 NODE_ENV=production refuses to start with the simulated checkout unless DEMO_MODE says it is a demo', async () => {
    const refused = run({ PAYMENTS_PROVIDER: 'simulated' });
    let stderr = '';
    refused.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => refused.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('PAYMENTS_PROVIDER="simulated"');
    expect(stderr).toContain('DEMO_MODE=true');

    const demo = run({ PAYMENTS_PROVIDER: 'simulated', DEMO_MODE: 'true' });
    try {
      const url = await waitForLine(demo, /serving on (http:\/\/[^\s"]+)/);
      expect(url).toMatch(/^http:/);
    } finally {
      demo.kill('SIGTERM');
      await new Promise((resolve) => demo.once('exit', resolve));
    }
  }, 60_000);

  it("SEC-14 the audit's server (production, no PAY. keys) logs an error and sells nothing: the checkout is never offered", async () => {
    const child = run({});
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const url = (await waitForLine(child, /serving on (http:\/\/[^\s"]+)/)).replace('127.0.0.1', 'localhost');
      expect(out).toMatch(/"level":50[^\n]*payments: no provider configured/);
      const login = await fetch(`${url}/api/user.php`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...XHR, origin: url },
        body: JSON.stringify({ email: 'free@demo.test', password: 'demo-password-1' }),
      });
      const session = /session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1];
      const start = await fetch(`${url}/credits/1/ideal`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: `lang=en; session=${session}`, origin: url, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'key=audit-free-credits&issuer=INGBNL2A',
      });
      expect(start.status).toBe(503);
      expect(start.headers.get('location')).toBeNull();
      expect(await start.text()).toContain('Credits cannot be bought at the moment');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 60_000);
});
