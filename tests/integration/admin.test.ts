/**
 * The back office's door over HTTP (OPS-04): /admin pages send visitors and members to the staff login;
 * the login needs password and code; the staff cookie is its own (path /admin, HttpOnly, SameSite=Strict);
 * roles decide the pages; every login and logout is in the audit log admins read.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complaints, users } from '../../src/db/schema';
import { createStaff, totpCode } from '../../src/server/staff/accounts';
import { readAudit } from '../../src/server/audit';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';
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
  /**
   * A fresh code for each successful login of an account (a code is good once, and only the steps around
   * now are valid): this step, then the next one.
   */
  const uses = new Map<string, number>();
  const code = (email: string) => {
    const n = uses.get(email) ?? 0;
    uses.set(email, n + 1);
    step++;
    return totpCode(DEMO_TOTP_SECRET, new Date(Date.now() + 30_000 * n));
  };
  const login = async (email: string, password = DEMO_STAFF_PASSWORD, c = password === DEMO_STAFF_PASSWORD ? code(email) : '000000') =>
    server.request('/admin/login', {
      method: 'POST',
      headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { lang: 'en' },
      body: form({ email, password, code: c }),
    });

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

  it('OPS-01 a moderator bans a member: sessions end, the profile is gone, login shows the ban page; unbanned, all is back; credits are for admins, through the ledger, audited', async () => {
    const { db } = server.booted.app;
    const staffCookie = async (email: string) => (await login(email)).setCookies.staff_session!.value;
    const moderator = await staffCookie('moderator@demo.test');
    const admin = await staffCookie('admin@demo.test');
    const asStaff = (cookie: string, path: string, body?: Record<string, string>) =>
      server.request(
        path,
        body
          ? {
              method: 'POST',
              cookies: { lang: 'en', staff_session: cookie },
              headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
              body: form(body),
            }
          : { cookies: { lang: 'en', staff_session: cookie } },
      );

    const free = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'free@demo.test', password: 'demo-password-1' } });
    const memberId = free.json().id as number;
    const session = free.setCookies.session!.value;
    const found = await asStaff(moderator, '/admin/members?q=free%40demo.test');
    expect(found.text).toContain(`href="/admin/members/${memberId}"`);
    const premium = (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'premium@demo.test', password: 'demo-password-1' } })).setCookies.session!.value;
    expect((await server.request(`/members/${memberId}`, { cookies: { lang: 'en', session: premium } })).status).toBe(200);

    expect((await asStaff(moderator, `/admin/members/${memberId}`, { action: 'ban', reason: '' })).status).toBe(400);
    const banned = await asStaff(moderator, `/admin/members/${memberId}`, { action: 'ban', reason: 'Spam in chats' });
    expect(banned.headers.location).toBe(`/admin/members/${memberId}?done=ban`);
    expect((await server.request('/api/chats.php', { cookies: { lang: 'en', session } })).status).toBe(403);
    expect((await server.request(`/members/${memberId}`, { cookies: { lang: 'en', session: premium } })).status).toBe(404);
    const again = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'free@demo.test', password: 'demo-password-1' } });
    expect(again.status).toBe(403);
    expect(again.json().error).toBe('account_banned');
    const page = await server.request('/login', {
      method: 'POST',
      cookies: { lang: 'en' },
      headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ email: 'free@demo.test', password: 'demo-password-1' }),
    });
    expect(page.headers.location).toBe('/banned');
    expect((await server.request('/banned', { cookies: { lang: 'en' } })).text).toContain('Account banned');
    // A wrong password for a banned account says nothing about the ban.
    expect((await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'free@demo.test', password: 'wrong-one' } })).json().error).toBe('invalid_credentials');

    expect((await asStaff(moderator, `/admin/members/${memberId}`, { action: 'unban' })).headers.location).toBe(`/admin/members/${memberId}?done=unban`);
    expect((await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'free@demo.test', password: 'demo-password-1' } })).status).toBe(200);
    expect((await server.request(`/members/${memberId}`, { cookies: { lang: 'en', session: premium } })).status).toBe(200);

    const before = (await db.select({ credits: users.credits }).from(users).where(eq(users.id, memberId)))[0]!.credits;
    expect((await asStaff(moderator, `/admin/members/${memberId}`, { action: 'credits', amount: '5', reason: 'Sorry', key: crypto.randomUUID() })).status).toBe(403);
    const key = crypto.randomUUID();
    expect((await asStaff(admin, `/admin/members/${memberId}`, { action: 'credits', amount: '25', reason: 'Goodwill after an outage', key })).headers.location).toBe(
      `/admin/members/${memberId}?done=credits`,
    );
    // The same form sent twice books once.
    await asStaff(admin, `/admin/members/${memberId}`, { action: 'credits', amount: '25', reason: 'Goodwill after an outage', key });
    const detail = await asStaff(admin, `/admin/members/${memberId}`);
    expect(detail.text).toContain(`data-credits="${before + 25}"`);
    expect((await asStaff(admin, `/admin/members/${memberId}`, { action: 'credits', amount: '-999999', reason: 'x', key: crypto.randomUUID() })).status).toBe(400);
    const audit = (await asStaff(admin, '/admin/audit')).text;
    for (const action of ['member.ban', 'member.unban', 'member.credits_grant']) expect(audit).toContain(`data-audit-action="${action}"`);
  });

  it('OPS-01 complaints: new ones oldest first, a note, an answer mailed to the complainant, then resolved; all audited', async () => {
    const { db } = server.booted.app;
    const [complaint] = await db
      .insert(complaints)
      .values({ siteId: 1, userId: null, name: 'Piet', email: 'piet@example.com', subject: 'Nep-profiel?', message: 'Dit profiel lijkt nep.' })
      .returning({ id: complaints.id });
    // A moderator of its own: a demo account's codes are used up by the tests before (a code is good once).
    await createStaff(server.booted.app, { email: 'complaints-moderator@demo.test', name: 'Complaints', role: 'moderator', password: DEMO_STAFF_PASSWORD, totpSecret: DEMO_TOTP_SECRET });
    const moderator = (await login('complaints-moderator@demo.test')).setCookies.staff_session!.value;
    const post = (path: string, body: Record<string, string>) =>
      server.request(path, {
        method: 'POST',
        cookies: { lang: 'en', staff_session: moderator },
        headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: form(body),
      });
    const list = await server.request('/admin/complaints', { cookies: { lang: 'en', staff_session: moderator } });
    expect(list.text).toContain(`data-complaint="${complaint!.id}"`);
    const path = `/admin/complaints/${complaint!.id}`;
    expect((await post(path, { action: 'note', text: '' })).status).toBe(400);
    expect((await post(path, { action: 'note', text: 'Profiel bekeken, lijkt echt.' })).headers.location).toBe(`${path}?done=note`);
    expect((await post(path, { action: 'answer', text: 'Dank je, we hebben het profiel gecontroleerd.' })).headers.location).toBe(`${path}?done=answer`);
    const mails = (await server.booted.app.mailer.recent(50, 'piet@example.com')).filter((m) => m.kind === 'complaint_answer');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('we hebben het profiel gecontroleerd');
    const page = await server.request(path, { cookies: { lang: 'en', staff_session: moderator } });
    expect(page.text).toContain('data-complaint-status="in_progress"');
    expect(page.text).toContain('data-note-kind="answer"');
    expect((await post(path, { action: 'status', status: 'handled' })).headers.location).toBe(`${path}?done=status`);
    expect((await post(path, { action: 'status', status: 'bogus' })).status).toBe(400);
    expect((await server.request('/admin/complaints?status=handled', { cookies: { lang: 'en', staff_session: moderator } })).text).toContain(`data-complaint="${complaint!.id}"`);
    expect((await server.request('/admin/complaints/999999', { cookies: { lang: 'en', staff_session: moderator } })).status).toBe(404);
    const audit = (await readAudit(db, { target: { type: 'complaint', id: String(complaint!.id) } })).map((r) => r.action);
    expect(audit.sort()).toEqual(['complaint.answer', 'complaint.note', 'complaint.status']);
  });
});
