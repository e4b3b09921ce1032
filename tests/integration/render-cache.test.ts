/**
 * The render cache on the real app (PERF-01): anonymous pages behind the real middleware are served
 * again without rendering, with the same headers (the Content-Security-Policy's hashes still match the
 * cached page's inline scripts); members never get or fill it; the key follows language, entry warning
 * and host; the bus drops a site's pages. The rules one by one: src/server/http/render-cache.test.ts.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const VISITOR = { lang: 'nl', entry_ok: '1' };

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('render cache on the app (PERF-01)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RENDER_CACHE_TTL_MS: '60000' } });
  });
  afterAll(async () => server?.close());

  it('PERF-01: the landing page and a lander are served from the cache the second time, with the same policy', async () => {
    for (const path of ['/', '/landers/gallery']) {
      const first = await server.request(path, { cookies: VISITOR });
      const second = await server.request(path, { cookies: VISITOR });
      expect(first.status, path).toBe(200);
      expect(first.headers['x-cache'], path).toBe('miss');
      expect(second.headers['x-cache'], path).toBe('hit');
      expect(second.text).toBe(first.text);
      for (const name of ['content-security-policy', 'content-language', 'cache-control', 'vary', 'content-type', 'referrer-policy']) {
        expect(second.headers[name], `${path} ${name}`).toEqual(first.headers[name]);
      }
      expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
      // Every inline script of the cached page is still allowed by a hash of the cached policy (SEC-10).
      const scriptSrc =
        String(second.headers['content-security-policy'])
          .split(';')
          .find((d) => d.trim().startsWith('script-src')) ?? '';
      const inline = [...second.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(([, attrs]) => !/\bsrc=/i.test(attrs!) && !/type="application\/(ld\+)?json"/i.test(attrs!));
      // The landing page carries inline scripts (island runtime, hydration directives); landers carry none.
      expect(inline.length, path).toBeGreaterThanOrEqual(path === '/' ? 1 : 0);
      for (const [, , body] of inline) expect(scriptSrc, `${path}: ${body!.slice(0, 60)}`).toContain(sha256(body!));
    }
  });

  it('PERF-01: a member never gets a cached page and never fills the cache', async () => {
    const login = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'free@demo.test', password: 'demo-password-1' } });
    const session = login.setCookies.session!.value;
    const path = '/pages/faq';
    const member = await server.request(path, { cookies: { ...VISITOR, session } });
    expect(member.status).toBe(200);
    expect(member.headers['x-cache']).toBeUndefined();
    expect(member.headers['cache-control']).toBe('private, no-store');
    const visitor = await server.request(path, { cookies: VISITOR });
    expect(visitor.headers['x-cache']).toBe('miss');
    expect(await server.request(path, { cookies: VISITOR })).toHaveProperty(['headers', 'x-cache'], 'hit');
    const memberAgain = await server.request(path, { cookies: { ...VISITOR, session } });
    expect(memberAgain.headers['x-cache']).toBeUndefined();
    expect(memberAgain.headers['cache-control']).toBe('private, no-store');
    expect(memberAgain.text).not.toBe(visitor.text);
  });

  it("PERF-01 OPS-04: a back-office page is never cached, whoever asks; a staff member's page never reaches anyone else", async () => {
    const { createStaff, totpCode } = await import('../../src/server/staff/accounts');
    const { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } = await import('../../src/demo/staff');
    await createStaff(server.booted.app, { email: 'cache-check@ops.test', name: 'Cache check', role: 'admin', password: DEMO_STAFF_PASSWORD, totpSecret: DEMO_TOTP_SECRET });
    const login = await server.request('/admin/login', {
      method: 'POST',
      cookies: { lang: 'en' },
      headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'cache-check@ops.test', password: DEMO_STAFF_PASSWORD, code: totpCode(DEMO_TOTP_SECRET, new Date()) }).toString(),
    });
    const staff = login.setCookies.staff_session!.value;
    for (const path of ['/admin', '/admin/operator', '/admin/figures']) {
      const own = await server.request(path, { cookies: { lang: 'en', staff_session: staff } });
      expect(own.status, path).toBe(200);
      expect(own.headers['cache-control'], path).toBe('private, no-store');
      expect(own.headers['x-cache'], path).toBeUndefined();
      // The same path without the staff cookie: the login, never the staff member's page from memory.
      const other = await server.request(path, { cookies: { lang: 'en' } });
      expect(other.status, path).toBe(303);
      expect(other.headers.location, path).toMatch(/^\/admin\/login/);
    }
    const loginPage = [await server.request('/admin/login', { cookies: VISITOR }), await server.request('/admin/login', { cookies: VISITOR })];
    for (const res of loginPage) expect(res.headers['x-cache']).toBeUndefined();
  });

  it('PERF-01: arriving with tracking parameters sets the tracking cookie and is never cached', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await server.request('/?network=ads1&sub1=click', { cookies: VISITOR });
      expect(res.status).toBe(200);
      expect(res.setCookies.tracking).toBeDefined();
      expect(res.headers['x-cache']).toBeUndefined();
    }
  });

  it('PERF-01: language, entry warning and host select different pages', async () => {
    const path = '/pages/terms';
    const variants: Array<{ cookies: Record<string, string>; host?: string; lang: string }> = [
      { cookies: { lang: 'nl', entry_ok: '1' }, lang: 'nl' },
      { cookies: { lang: 'en', entry_ok: '1' }, lang: 'en' },
      { cookies: { lang: 'en' }, lang: 'en' },
      { cookies: { lang: 'en', entry_ok: '1' }, host: '127.0.0.1', lang: 'en' },
    ];
    const firsts = [];
    for (const v of variants) {
      const res = await server.request(path, { cookies: v.cookies, ...(v.host ? { host: v.host } : {}) });
      expect(res.headers['x-cache'], JSON.stringify(v)).toBe('miss');
      expect(res.headers['content-language']).toBe(v.lang);
      firsts.push(res.text);
    }
    expect(new Set(firsts).size).toBe(variants.length);
    for (const [i, v] of variants.entries()) {
      const res = await server.request(path, { cookies: v.cookies, ...(v.host ? { host: v.host } : {}) });
      expect(res.headers['x-cache'], JSON.stringify(v)).toBe('hit');
      expect(res.text).toBe(firsts[i]);
    }
  });

  it('PERF-01: a visitor without a language cookie gets the cached page with the language cookie', async () => {
    const first = await server.request('/pricing');
    const second = await server.request('/pricing');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.setCookies.lang?.raw).toBe(first.setCookies.lang?.raw);
  });

  it('PERF-01: a content change on the bus drops that site’s pages only', async () => {
    const { app } = server.booted;
    const site1 = (await app.sites.resolveHost('localhost')).site.settings.id;
    const site2 = (await app.sites.resolveHost('127.0.0.1')).site.settings.id;
    expect(site1).not.toBe(site2);
    await server.request('/', { cookies: VISITOR });
    await server.request('/', { cookies: VISITOR, host: '127.0.0.1' });
    expect((await server.request('/', { cookies: VISITOR })).headers['x-cache']).toBe('hit');
    await app.bus.publish('site.content_changed', { siteId: site1 });
    expect((await server.request('/', { cookies: VISITOR })).headers['x-cache']).toBe('miss');
    expect((await server.request('/', { cookies: VISITOR, host: '127.0.0.1' })).headers['x-cache']).toBe('hit');
    await app.bus.publish('site.changed', { siteId: site2 });
    expect((await server.request('/', { cookies: VISITOR, host: '127.0.0.1' })).headers['x-cache']).toBe('miss');
  });

  it('PERF-01: HEAD gets the cached page’s headers without a body; no-store pages are never kept', async () => {
    const get = await server.request('/landers/video', { cookies: VISITOR });
    const head = await server.request('/landers/video', { method: 'HEAD', cookies: VISITOR });
    expect(head.status).toBe(200);
    expect(head.headers['x-cache']).toBe('hit');
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
    expect(head.headers['content-security-policy']).toBe(get.headers['content-security-policy']);
    // The loopback mail viewer answers no-store (a visitor's mail must not linger).
    await server.request('/dev/mail', { cookies: VISITOR });
    const mail = await server.request('/dev/mail', { cookies: VISITOR });
    expect(mail.headers['cache-control']).toBe('no-store');
    expect(mail.headers['x-cache']).toBe('miss');
  });
});
