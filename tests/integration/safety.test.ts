/**
 * Safety in the chat over HTTP (SAFE-01, SAFE-02): the API carries `safety_notice` to the recipient only;
 * the report form (from the profile or the chat) with its refusals — a clear translated error, nothing
 * stored, never a 500 — its return paths and its daily limit; the back office's safety page, read by
 * moderators and edited by admins only; moderator actions only on a member's report.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complaints, profiles, safetyPhrases, users } from '../../src/db/schema';
import { createStaff, totpCode } from '../../src/server/staff/accounts';
import { REPORTS_PER_DAY } from '../../src/server/members/reports';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe('safety in the chat over HTTP', () => {
  let server: TestServer;
  let origin: string;
  let premium: { id: number; token: string };
  let free: { id: number; token: string };
  /** Listed site-1 members to report. */
  let others: number[];
  const staffCookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    origin = `http://localhost:${server.port}`;
    const db = server.booted.app.db;
    const login = async (email: string) => {
      const res = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email, password: 'demo-password-1' } });
      return { id: res.json().id as number, token: res.setCookies.session!.value };
    };
    premium = await login('premium@demo.test');
    free = await login('free@demo.test');
    const listed = await db
      .select({ id: users.id })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.siteId, 1), eq(users.role, 'member'), eq(users.status, 'active'), ne(users.id, premium.id), ne(users.id, free.id)))
      .limit(4);
    others = listed.map((r) => r.id);
    for (const role of ['moderator', 'admin'] as const) {
      const email = `safety-${role}@example.com`;
      await createStaff({ db }, { email, name: `Safety ${role}`, role, password: 'a-long-staff-password-1', totpSecret: SECRET });
      const res = await server.request('/admin/login', {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        cookies: { lang: 'en' },
        body: new URLSearchParams({ email, password: 'a-long-staff-password-1', code: totpCode(SECRET, new Date()) }).toString(),
      });
      expect(res.status).toBe(303);
      staffCookies[role] = res.setCookies.staff_session!.value;
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (path: string, fields: Record<string, string>, cookies: Record<string, string>) =>
    server.request(path, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { lang: 'en', entry_ok: '1', ...cookies },
    });

  it('SAFE-02 the API answers safety_notice true to the recipient only, in history and in the send answer', async () => {
    const sent = await server.request('/api/chat.php', {
      method: 'POST',
      headers: XHR,
      cookies: { session: premium.token },
      body: { to: free.id, client_id: randomUUID(), kind: 'text', body: 'Please send me your credit card number' },
    });
    expect(sent.status).toBe(201);
    const message = sent.json().message;
    expect(message.safety_notice).toBe(false);
    const read = (token: string) => server.request(`/api/chat.php?id=${message.conversation}`, { headers: XHR, cookies: { session: token } });
    const theirs = (await read(free.token)).json().messages.find((m: { id: number }) => m.id === message.id);
    const mine = (await read(premium.token)).json().messages.find((m: { id: number }) => m.id === message.id);
    expect(theirs.safety_notice).toBe(true);
    expect(mine.safety_notice).toBe(false);
  });

  it('SAFE-01 the report form: refusals are translated and store nothing; success returns where it came from', async () => {
    const target = others[0]!;
    const before = await server.booted.app.db.$count(complaints);
    const noReason = await post(`/members/${target}`, { action: 'report', reason: 'because', next: `/members/${target}` }, { session: free.token });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('Choose a reason for your report.');
    expect((await post('/members/999999999', { action: 'report', reason: 'spam' }, { session: free.token })).status).toBe(404);
    const visitor = await post(`/members/${target}`, { action: 'report', reason: 'spam' }, {});
    expect(visitor.status).toBe(303);
    expect(visitor.headers.location).toMatch(/^\/signup\?required=/);
    expect(await server.booted.app.db.$count(complaints)).toBe(before);

    const fromProfile = await post(`/members/${target}`, { action: 'report', reason: 'fake', next: '//evil.example/x' }, { session: free.token });
    expect(fromProfile.status).toBe(303);
    expect(fromProfile.headers.location).toBe(`/members/${target}?reported=1`);
    const fromChat = await post(`/members/${target}`, { action: 'report', reason: 'harassment', next: '/chats/12', note: 'rude' }, { session: free.token });
    expect(fromChat.headers.location).toBe('/chats/12?reported=1');
    const blocking = await post(`/members/${others[1]}`, { action: 'report', reason: 'scam', next: `/members/${others[1]}/chat`, block: '1' }, { session: free.token });
    expect(blocking.headers.location).toBe('/chats?reported=1');
    const shown = await server.request('/chats?reported=1', { cookies: { lang: 'en', entry_ok: '1', session: free.token } });
    expect(shown.text).toContain('you have blocked this member');
    const profile = await server.request(`/members/${target}?reported=1`, { cookies: { lang: 'de', entry_ok: '1', session: free.token } });
    expect(profile.text).toContain('Danke. Unsere Moderatoren sehen sich deine Meldung an.');
  });

  it('SAFE-01 over the daily limit the report is refused with 429 and its text', async () => {
    const target = others[2]!;
    const db = server.booted.app.db;
    const done = await db.$count(complaints, and(eq(complaints.userId, premium.id), eq(complaints.kind, 'report')));
    for (let i = done; i < REPORTS_PER_DAY; i++) expect((await post(`/members/${target}`, { action: 'report', reason: 'spam' }, { session: premium.token })).status).toBe(303);
    const refused = await post(`/members/${target}`, { action: 'report', reason: 'spam' }, { session: premium.token });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('You have sent many reports today.');
    const api = await server.request('/api/report.php', { method: 'POST', headers: XHR, cookies: { session: premium.token }, body: { id: target, reason: 'spam' } });
    expect(api.status).toBe(429);
    expect(api.json().error).toBe('report_limit_reached');
  });

  it('SAFE-01 /api/report.php reports and blocks in one call; bad input is a stable error code and stores nothing', async () => {
    const db = server.booted.app.db;
    const report = (body: unknown, token: string | null = free.token) => server.request('/api/report.php', { method: 'POST', headers: XHR, cookies: token ? { session: token } : {}, body });
    const before = await db.$count(complaints);
    expect((await report({ id: others[3], reason: 'because' })).json().error).toBe('validation_failed');
    expect((await report({ id: others[3], reason: 'spam', extra: 1 })).status).toBe(400);
    expect((await report({ id: free.id, reason: 'spam' })).json().error).toBe('self_not_allowed');
    const unknown = await report({ id: 2_000_000_000, reason: 'spam' });
    expect([unknown.status, unknown.json().error]).toEqual([404, 'member_not_found']);
    expect((await report({ id: others[3], reason: 'spam' }, null)).json().error).toBe('authentication_required');
    expect(await db.$count(complaints)).toBe(before);
    const ok = await report({ id: others[3], reason: 'underage', note: 'Says she is 16', block: true });
    expect(ok.status).toBe(201);
    expect(ok.json()).toMatchObject({ ok: true, blocked: true });
    const [row] = await db.select().from(complaints).where(eq(complaints.id, ok.json().id));
    expect(row).toMatchObject({ kind: 'report', reason: 'underage', reportedUserId: others[3], userId: free.id, message: 'Says she is 16' });
    const blocked = await server.request('/api/block.php', { method: 'POST', headers: XHR, cookies: { session: free.token }, body: { id: others[3] } });
    expect(blocked.json().created).toBe(false);
  });

  it('SAFE-02 the safety page: moderators read the counts and lists, only admins save; a bad language is refused', async () => {
    const page = await server.request('/admin/safety', { cookies: { lang: 'en', staff_session: staffCookies.moderator! } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-safety-member');
    expect(page.text).toMatch(/<textarea[^>]*readonly/);
    const home = await server.request('/admin', { cookies: { lang: 'en', staff_session: staffCookies.moderator! } });
    expect(home.text).toContain(`data-safety-member="${premium.id}"`);
    const adminPost = (fields: Record<string, string>, role: 'admin' | 'moderator' = 'admin') =>
      server.request('/admin/safety', {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        cookies: { lang: 'en', staff_session: staffCookies[role]! },
      });
    expect((await adminPost({ action: 'save', language: 'en', phrases: 'x' }, 'moderator')).status).toBe(403);
    expect((await adminPost({ action: 'save', language: 'xx', phrases: 'x' })).status).toBe(400);
    const saved = await adminPost({ action: 'save', language: 'sv', phrases: 'skicka pengar\nswish\n' });
    expect(saved.status).toBe(303);
    const [row] = await server.booted.app.db.select().from(safetyPhrases).where(eq(safetyPhrases.language, 'sv'));
    expect(row?.phrases).toEqual(['skicka pengar', 'swish']);
    expect((await adminPost({ action: 'reset', language: 'sv' })).status).toBe(303);
    expect(await server.booted.app.db.$count(safetyPhrases, eq(safetyPhrases.language, 'sv'))).toBe(0);
  });

  it('SAFE-01 the complaint page offers moderator actions on reports only: a form complaint refuses them', async () => {
    const db = server.booted.app.db;
    const [form] = await db
      .insert(complaints)
      .values({ siteId: 1, name: 'Visitor', email: 'v@example.com', subject: 'Hello there', message: 'A complaint from the form page.' })
      .returning({ id: complaints.id });
    const refused = await server.request(`/admin/complaints/${form!.id}`, {
      method: 'POST',
      body: new URLSearchParams({ action: 'warn' }).toString(),
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { lang: 'en', staff_session: staffCookies.moderator! },
    });
    expect(refused.status).toBe(404);
    expect(refused.text).toContain('This complaint is not a member');
    const [report] = await db.select({ id: complaints.id }).from(complaints).where(eq(complaints.kind, 'report')).limit(1);
    const detail = await server.request(`/admin/complaints/${report!.id}`, { cookies: { lang: 'en', staff_session: staffCookies.moderator! } });
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('data-report=');
    expect(detail.text).toContain('Warn by e-mail');
  });
});
