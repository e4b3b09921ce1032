/**
 * The back office's door over HTTP (OPS-04): /admin pages send visitors and members to the staff login;
 * the login needs password and code; the staff cookie is its own (path /admin, HttpOnly, SameSite=Strict);
 * roles decide the pages; every login and logout is in the audit log admins read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/server/staff/accounts';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/server/staff/demo';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('back office login and roles', () => {
  let server: TestServer;
  let step = 0;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const form = (body: Record<string, string>) => new URLSearchParams(body).toString();
  /** A fresh code each time (a code is good once): the demo secret at successive 30 s steps ahead. */
  const code = () => totpCode(DEMO_TOTP_SECRET, new Date(Date.now() + 30_000 * (step++ % 2)));
  const login = async (email: string, password = DEMO_STAFF_PASSWORD, c = code()) =>
    server.request('/admin/login', { method: 'POST', headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' }, cookies: { lang: 'en' }, body: form({ email, password, code: c }) });

  it('OPS-04 visitors and members are sent to the staff login; a wrong code or password says nothing about which', async () => {
    for (const path of ['/admin', '/admin/audit']) {
      const res = await server.request(path, { cookies: { lang: 'en' } });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`/admin/login?next=${encodeURIComponent(path)}`);
    }
    const member = (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'premium@demo.test', password: 'demo-password-1' } })).setCookies.session!.value;
    expect((await server.request('/admin', { cookies: { lang: 'en', session: member } })).status).toBe(303);
    const bad = await login('admin@demo.test', 'wrong-password');
    expect(bad.status).toBe(401);
    expect(bad.text).toContain('check your e-mail address, password and code');
    expect((await login('admin@demo.test', DEMO_STAFF_PASSWORD, '000000')).status).toBe(401);
  });

  it('OPS-04 the right password and code give a staff cookie of its own; roles decide the pages; logins and logouts are audited', async () => {
    const ok = await login('admin@demo.test');
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/admin');
    const cookie = ok.setCookies.staff_session!;
    expect(cookie.raw).toMatch(/Path=\/admin/);
    expect(cookie.raw).toMatch(/HttpOnly/i);
    expect(cookie.raw).toMatch(/SameSite=Strict/i);
    const home = await server.request('/admin', { cookies: { lang: 'en', staff_session: cookie.value } });
    expect(home.status).toBe(200);
    expect(home.text).toContain('Welcome, Demo admin');
    const audit = await server.request('/admin/audit', { cookies: { lang: 'en', staff_session: cookie.value } });
    expect(audit.status).toBe(200);
    expect(audit.text).toContain('data-audit-action="staff.login"');
    expect(audit.text).toContain('data-audit-action="staff.login_failed"');

    const moderator = (await login('moderator@demo.test')).setCookies.staff_session!.value;
    expect((await server.request('/admin/audit', { cookies: { lang: 'en', staff_session: moderator } })).status).toBe(403);
    expect((await server.request('/admin', { cookies: { lang: 'en', staff_session: moderator } })).status).toBe(200);
    // The member area does not know staff cookies, and a staff cookie is no member session.
    expect((await server.request('/api/chats.php', { cookies: { lang: 'en', staff_session: moderator } })).status).toBe(403);

    const out = await server.request('/admin/logout', { method: 'POST', headers: { origin: `http://localhost:${server.port}` }, cookies: { lang: 'en', staff_session: moderator } });
    expect(out.headers.location).toBe('/admin/login');
    expect((await server.request('/admin', { cookies: { lang: 'en', staff_session: moderator } })).status).toBe(303);
    const after = await server.request('/admin/audit', { cookies: { lang: 'en', staff_session: cookie.value } });
    expect(after.text).toContain('data-audit-action="staff.logout"');
  });
});
