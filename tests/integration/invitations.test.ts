/**
 * LND-06 over real HTTP against the built server: an invite-only site's requests are answered by staff
 * with single-use, expiring links by mail; the invited visitor signs up through the link, once.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitations, sites, users } from '../../src/db/schema';
import { totpCode } from '../../src/server/staff/accounts';
import { readAudit } from '../../src/server/audit';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const person = { name: 'Iris', password: 'lange-wandeling-77', date_of_birth: '1988-03-03', gender: 'female', looking_for: 'male' };

describe('LND-06 invitations to an invite-only site', () => {
  let server: TestServer;
  let staff: string;
  beforeAll(async () => {
    server = await startTestServer();
    await server.booted.app.db.update(sites).set({ inviteOnly: true }).where(eq(sites.id, 1));
    await server.booted.app.bus.publish('site.changed', { siteId: 1 });
    const login = await server.request('/admin/login', {
      method: 'POST',
      headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { lang: 'en' },
      body: new URLSearchParams({ email: 'moderator@demo.test', password: DEMO_STAFF_PASSWORD, code: totpCode(DEMO_TOTP_SECRET, new Date()) }).toString(),
    });
    staff = login.setCookies.staff_session!.value;
  });
  afterAll(async () => {
    await server?.close();
  });

  const invite = (email: string) =>
    server.request('/admin/invitations?site=1', {
      method: 'POST',
      headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { lang: 'en', staff_session: staff },
      body: new URLSearchParams({ email }).toString(),
    });
  const linkFor = async (email: string) => {
    const [mail] = await server.booted.app.mailer.recent(1, email);
    expect(mail!.kind).toBe('invitation');
    return /http:\/\/localhost:\d+\/signup\?invitation=([\w-]+)/.exec(mail!.text)![1]!;
  };
  const signUp = (token: string, email: string) => server.request('/api/signup.php', { method: 'POST', headers: XHR, cookies: { lang: 'en' }, body: { ...person, email, invitation: token } });

  it('LND-06 staff list the requests, send a single-use link by mail, and the visitor signs up through it once', async () => {
    const { db } = server.booted.app;
    // Without an invitation nobody signs up.
    expect((await server.request('/api/signup.php', { method: 'POST', headers: XHR, body: { ...person, email: 'iris@example.com' } })).json().error).toBe('signups_closed');
    expect((await server.request('/api/invitation.php', { method: 'POST', body: { email: 'Iris@Example.com' } })).status).toBeLessThan(300);

    const list = await server.request('/admin/invitations?site=1', { cookies: { lang: 'en', staff_session: staff } });
    expect(list.status).toBe(200);
    expect(list.text).toMatch(/data-invitation="iris@example.com" data-state="waiting"/);

    const sent = await invite('iris@example.com');
    expect(sent.status).toBe(303);
    const token = await linkFor('iris@example.com');
    expect((await server.request('/admin/invitations?site=1', { cookies: { lang: 'en', staff_session: staff } })).text).toMatch(/data-invitation="iris@example.com" data-state="invited"/);
    expect((await readAudit(db, { target: { type: 'site', id: '1' } })).map((r) => r.action)).toContain('invitation.sent');
    // Only the hash is kept.
    expect(JSON.stringify(await db.select().from(invitations))).not.toContain(token);

    const page = await server.request(`/signup?invitation=${token}`, { cookies: { lang: 'en' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-invited');
    expect(page.text).toMatch(/<input[^>]*value="iris@example.com"[^>]*readOnly|<input[^>]*readOnly[^>]*value="iris@example.com"/i);

    // The invited address is the account's, whatever was typed.
    const created = await signUp(token, 'someone-else@example.com');
    expect(created.status).toBe(201);
    expect(created.json().email).toBe('iris@example.com');
    expect((await server.request('/admin/invitations?site=1', { cookies: { lang: 'en', staff_session: staff } })).text).toMatch(/data-invitation="iris@example.com" data-state="signed_up"/);

    // Once.
    expect((await signUp(token, 'iris2@example.com')).json().error).toBe('signups_closed');
    const used = await server.request(`/signup?invitation=${token}`, { cookies: { lang: 'en' } });
    expect(used.status).toBe(410);
    expect(used.text).toContain('data-invitation-error="used"');
    // A member already: no invitation.
    const again = await invite('iris@example.com');
    expect(again.status).toBe(400);
    expect(again.text).toContain('already a member');
  });

  it('LND-06 staff invite an address directly; an expired or unknown link is refused with a clear page; two signups with one link make one account', async () => {
    const { db } = server.booted.app;
    expect((await invite('not-an-address')).text).toContain('Enter a valid e-mail address');
    expect((await invite('direct@example.com')).status).toBe(303);
    const token = await linkFor('direct@example.com');
    await db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.email, 'direct@example.com'));
    const expired = await server.request(`/signup?invitation=${token}`, { cookies: { lang: 'en' } });
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('data-invitation-error="expired"');
    expect((await signUp(token, 'direct@example.com')).json().error).toBe('signups_closed');
    const unknown = await server.request('/signup?invitation=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { cookies: { lang: 'en' } });
    expect(unknown.text).toContain('data-invitation-error="invalid"');

    // A new link for the same address; two signups through it at once.
    await invite('direct@example.com');
    const fresh = await linkFor('direct@example.com');
    const both = await Promise.all([signUp(fresh, 'direct@example.com'), signUp(fresh, 'direct@example.com')]);
    expect(both.map((r) => r.status).sort()).toEqual([201, expect.any(Number)]);
    expect(both.filter((r) => r.status === 201)).toHaveLength(1);
    const [{ n }] = (await db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(eq(users.email, 'direct@example.com'))) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('LND-06 only staff reach the invitations page', async () => {
    expect((await server.request('/admin/invitations?site=1', { cookies: { lang: 'en' } })).status).toBe(303);
    const member = (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'free@demo.test', password: 'demo-password-1' } })).setCookies.session!.value;
    expect((await server.request('/admin/invitations?site=1', { cookies: { lang: 'en', session: member } })).status).toBe(303);
  });
});
