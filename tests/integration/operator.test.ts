/**
 * The operator console over HTTP (issue 12, OPS-02, OPS-05) and the back office's doors (OPS-04): a
 * member writes to a fictional profile; it waits in the inbox; one operator takes it and a second cannot;
 * flagged phrases need a confirmation; the answer reaches the member through the chat, costs the member
 * nothing and is one message however often it is posted; notes are shared; every action is audited; the
 * admins' figures count it. Every /admin route refuses visitors and members; roles keep their doors.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, complaints, conversations, messages, operatorLocks, operatorReplies, photos, users } from '../../src/db/schema';
import { createStaff, totpCode } from '../../src/server/staff/accounts';
import { readAudit } from '../../src/server/audit';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';
import { takeConversation } from '../../src/server/staff/operator';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const form = (body: Record<string, string>) => new URLSearchParams(body).toString();
const ADMIN_PAGES = join(import.meta.dirname, '..', '..', 'src', 'pages', 'admin');

/** The routes of src/pages/admin, with a sample id for [id] segments. */
function adminRoutes(dir = ADMIN_PAGES): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return adminRoutes(path);
    if (!/\.(astro|ts)$/.test(name)) return [];
    const route =
      '/admin/' +
      relative(ADMIN_PAGES, path)
        .replace(/\.(astro|ts)$/, '')
        .replace(/(^|\/)index$/, '')
        .replace(/\[\w+\]/g, '1');
    return [route.replace(/\/$/, '')];
  });
}

describe.each(await databaseKinds())('operator console (%s)', (kind) => {
  let server: TestServer;
  let member: { id: number; session: string };
  let fictionalId: number;
  let operatorA = '';
  let operatorB = '';
  let moderator = '';
  let admin = '';

  beforeAll(async () => {
    server = await startTestServer({ db: kind });
    const { db } = server.booted.app;
    const [premium] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, 'premium@demo.test'), eq(users.siteId, 1)));
    const login = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'premium@demo.test', password: 'demo-password-1' } });
    member = { id: premium!.id, session: login.setCookies.session!.value };
    const [fictional] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'fictional'), eq(users.siteId, 1), eq(users.status, 'active')))
      .limit(1);
    fictionalId = fictional!.id;
    // Staff of their own with the demo secret: a code is good once, so each account logs in once here.
    const staffLogin = async (email: string, role: 'operator' | 'moderator' | 'admin') => {
      await createStaff(server.booted.app, { email, name: email.split('@')[0]!, role, password: DEMO_STAFF_PASSWORD, totpSecret: DEMO_TOTP_SECRET });
      const res = await server.request('/admin/login', {
        method: 'POST',
        headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
        cookies: { lang: 'en' },
        body: form({ email, password: DEMO_STAFF_PASSWORD, code: totpCode(DEMO_TOTP_SECRET, new Date()) }),
      });
      return res.setCookies.staff_session!.value;
    };
    operatorA = await staffLogin('ann@ops.test', 'operator');
    operatorB = await staffLogin('bob@ops.test', 'operator');
    moderator = await staffLogin('mod@ops.test', 'moderator');
    admin = await staffLogin('adm@ops.test', 'admin');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const origin = () => ({ origin: `http://localhost:${server.port}` });
  const asStaff = (cookie: string, path: string, body?: Record<string, string>) =>
    server.request(
      path,
      body
        ? { method: 'POST', cookies: { lang: 'en', staff_session: cookie }, headers: { ...origin(), 'content-type': 'application/x-www-form-urlencoded' }, body: form(body) }
        : { cookies: { lang: 'en', staff_session: cookie } },
    );
  const memberSends = (body: string, clientId: string) =>
    server.request('/api/chat.php', { method: 'POST', cookies: { lang: 'en', session: member.session }, headers: origin(), body: { to: fictionalId, client_id: clientId, body } });
  const conversationId = async () =>
    (
      await server.booted.app.db
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.memberLow, Math.min(member.id, fictionalId)), eq(conversations.memberHigh, Math.max(member.id, fictionalId))))
    )[0]!.id;

  it('OPS-04 every /admin route refuses visitors and members; a moderator cannot open the operator console or the figures', async () => {
    const routes = adminRoutes().filter((r) => !r.startsWith('/admin/login') && !r.startsWith('/admin/logout'));
    expect(routes).toEqual(expect.arrayContaining(['/admin', '/admin/operator', '/admin/operator/1', '/admin/figures', '/admin/audit', '/admin/members', '/admin/complaints']));
    for (const route of routes) {
      for (const cookies of [{ lang: 'en' }, { lang: 'en', session: member.session }] as Record<string, string>[]) {
        const res = await server.request(route, { cookies });
        expect([303, 403, 405], `${route} ${JSON.stringify(Object.keys(cookies))}`).toContain(res.status);
        if (res.status === 303) expect(res.headers.location).toMatch(/^\/admin\/login\?next=/);
        const post = await server.request(route, {
          method: 'POST',
          cookies,
          headers: { ...origin(), 'content-type': 'application/x-www-form-urlencoded', ...(route.endsWith('typing') ? XHR : {}) },
          body: route.endsWith('typing') ? '{"conversation":1}' : 'action=take',
        });
        expect(post.status, `POST ${route}`).not.toBeLessThan(300);
        expect(post.status, `POST ${route}`).not.toBe(200);
        expect(post.status, `POST ${route}`).toBeLessThan(500);
      }
    }
    for (const route of ['/admin/operator', '/admin/figures', '/admin/audit']) expect((await asStaff(moderator, route)).status, route).toBe(403);
    for (const route of ['/admin/members', '/admin/complaints', '/admin/figures', '/admin/audit']) expect((await asStaff(operatorA, route)).status, route).toBe(403);
    expect((await asStaff(operatorA, '/admin/operator')).status).toBe(200);
    expect((await asStaff(admin, '/admin/operator')).status).toBe(200);
  });

  it('OPS-02 OPS-05 a message to a fictional profile waits in the inbox; one operator takes it, the other cannot; the answer reaches the member once and costs them nothing', async () => {
    const { db } = server.booted.app;
    const [before] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, member.id));
    expect((await memberSends('Hoi! Ben je er?', 'member-msg-0001')).status).toBe(201);
    const [afterSend] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, member.id));
    const id = await conversationId();

    const inbox = await asStaff(operatorA, '/admin/operator');
    expect(inbox.status).toBe(200);
    expect(inbox.text).toContain(`data-waiting="${id}"`);
    expect(inbox.text).toContain('Hoi! Ben je er?');
    // A conversation between two members is no operator's business: 404.
    const [free] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, 'free@demo.test'), eq(users.siteId, 1)));
    expect(
      (
        await server.request('/api/chat.php', {
          method: 'POST',
          cookies: { lang: 'en', session: member.session },
          headers: origin(),
          body: { to: free!.id, client_id: 'member-to-member-1', body: 'Hallo buur' },
        })
      ).status,
    ).toBe(201);
    const [pair] = await db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.memberLow, Math.min(member.id, free!.id)), eq(conversations.memberHigh, Math.max(member.id, free!.id))));
    expect((await asStaff(operatorA, `/admin/operator/${pair!.id}`)).status).toBe(404);
    expect((await asStaff(operatorA, `/admin/operator/${pair!.id}`, { action: 'take' })).status).toBe(404);

    // Without the conversation, no answer.
    const early = await asStaff(operatorA, `/admin/operator/${id}`, { action: 'reply', text: 'Hallo!', client_id: 'op-early-0001' });
    expect(early.status).toBe(409);
    expect(early.text).toContain('data-form-error="not_locked"');

    expect((await asStaff(operatorA, `/admin/operator/${id}`, { action: 'take' })).headers.location).toBe(`/admin/operator/${id}?done=take`);
    const refused = await asStaff(operatorB, `/admin/operator/${id}`, { action: 'take' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('ann is answering this conversation');
    expect((await asStaff(operatorB, '/admin/operator')).text).toMatch(new RegExp(`data-waiting="${id}" data-locked="yes"`));
    // Operator B cannot answer or say 'typing' in A's conversation.
    expect((await asStaff(operatorB, `/admin/operator/${id}`, { action: 'reply', text: 'Ik!', client_id: 'op-b-00000001' })).status).toBe(409);
    const typingB = await server.request('/admin/operator/typing', { method: 'POST', cookies: { staff_session: operatorB }, headers: { ...origin(), ...XHR }, body: { conversation: id } });
    expect(typingB.status).toBe(404);
    expect(typingB.json()).toMatchObject({ error: 'conversation_not_found' });
    const typingA = await server.request('/admin/operator/typing', { method: 'POST', cookies: { staff_session: operatorA }, headers: { ...origin(), ...XHR }, body: { conversation: id } });
    expect(typingA.status).toBe(204);

    // A promise to meet is flagged; nothing is sent until the operator confirms.
    const flagged = await asStaff(operatorA, `/admin/operator/${id}`, { action: 'reply', text: 'Zullen we vanavond afspreken?', client_id: 'op-a-00000001' });
    expect(flagged.status).toBe(422);
    expect(flagged.text).toContain('data-form-error="flagged"');
    expect(flagged.text).toContain('afspreken');
    expect(await db.select({ id: messages.id }).from(messages).where(eq(messages.senderId, fictionalId))).toHaveLength(0);
    const [beforeAnswer] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, member.id));
    const answer = { action: 'reply', text: 'Hoi! Ja hoor, ik ben er. Hoe was je dag?', client_id: 'op-a-00000002' };
    expect((await asStaff(operatorA, `/admin/operator/${id}`, answer)).headers.location).toBe('/admin/operator?done=reply');
    // The same form posted again (a double click, a reload) is the same message.
    const again = await asStaff(operatorA, `/admin/operator/${id}`, answer);
    expect(again.status).toBe(303);
    const sent = await db.select({ id: messages.id, credits: messages.credits }).from(messages).where(eq(messages.senderId, fictionalId));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.credits).toBe(0);
    const [afterAnswer] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, member.id));
    expect(afterAnswer!.credits).toBe(beforeAnswer!.credits);
    expect(afterSend!.credits).toBeLessThanOrEqual(before!.credits);

    // The member reads it in their chat.
    const chat = await server.request(`/api/chat.php?id=${id}`, { cookies: { lang: 'en', session: member.session } });
    expect(chat.status).toBe(200);
    expect(JSON.stringify(chat.json())).toContain('Hoe was je dag?');
    // Answered: out of the inbox, the hold let go, one reply row, audited.
    expect((await asStaff(operatorB, '/admin/operator')).text).not.toContain(`data-waiting="${id}"`);
    expect(await db.select().from(operatorLocks).where(eq(operatorLocks.conversationId, id))).toHaveLength(0);
    expect(await db.select().from(operatorReplies).where(eq(operatorReplies.conversationId, id))).toHaveLength(1);
    const audit = (await readAudit(db, { target: { type: 'conversation', id: String(id) } })).map((r) => r.action);
    expect(audit.filter((a) => a === 'operator.reply')).toHaveLength(1);
    expect(audit).toContain('operator.take');

    // The member writes again: the conversation waits again, and B may take it now.
    expect((await memberSends('Goed! En de jouwe?', 'member-msg-0002')).status).toBe(201);
    expect((await asStaff(operatorB, '/admin/operator')).text).toMatch(new RegExp(`data-waiting="${id}" data-locked="no"`));
    expect((await asStaff(operatorB, '/admin/operator', { action: 'take_next' })).headers.location).toBe(`/admin/operator/${id}`);
    // The disclosure is one button: the site's own fictional-profile text.
    expect((await asStaff(operatorB, `/admin/operator/${id}`, { action: 'disclose', client_id: 'op-b-00000002' })).headers.location).toBe(`/admin/operator/${id}?done=disclose`);
    const [disclosed] = await db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.senderId, fictionalId), eq(messages.clientId, 'op-b-00000002')));
    expect(disclosed!.body.length).toBeGreaterThan(20);
    expect((await asStaff(operatorB, `/admin/operator/${id}`)).text).toContain('data-fictional-label');
  });

  it('OPS-02 notes about the member and the profile are shared between operators and audited; figures count the answers', async () => {
    const id = await conversationId();
    expect((await asStaff(operatorA, `/admin/operator/${id}`, { action: 'note', about: 'member', text: '' })).status).toBe(400);
    expect((await asStaff(operatorA, `/admin/operator/${id}`, { action: 'note', about: 'member', text: 'Woont in Utrecht, houdt van fietsen.' })).status).toBe(303);
    expect((await asStaff(operatorA, `/admin/operator/${id}`, { action: 'note', about: 'fictional', text: 'Werkt als verpleegkundige.' })).status).toBe(303);
    const page = await asStaff(operatorB, `/admin/operator/${id}`);
    expect(page.text).toContain('Woont in Utrecht, houdt van fietsen.');
    expect(page.text).toContain('Werkt als verpleegkundige.');
    const figures = await asStaff(admin, '/admin/figures');
    expect(figures.status).toBe(200);
    expect(figures.text).toMatch(/data-figure="answered">2</);
    expect(figures.text).toContain('data-operator="ann"');
    expect(figures.text).toContain('data-operator="bob"');
  });

  it('OPS-05 two operators taking one conversation at the same moment: exactly one gets it', async () => {
    const { db } = server.booted.app;
    const id = await conversationId();
    await db.delete(operatorLocks);
    const staffRows = await server.booted.app.db.query.staff.findMany({ columns: { id: true, email: true, name: true, role: true } });
    const ops = staffRows.filter((s) => s.role === 'operator');
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => takeConversation(server.booted.app, ops[i % ops.length]!, id)));
    const holders = new Set((await db.select({ staffId: operatorLocks.staffId }).from(operatorLocks).where(eq(operatorLocks.conversationId, id))).map((r) => r.staffId));
    expect(holders.size).toBe(1);
    const winner = [...holders][0];
    for (const [i, r] of results.entries()) expect(r.type === 'taken', `take ${i}`).toBe(ops[i % ops.length]!.id === winner);
  });

  it('OPS-02 a member who blocked the profile leaves the inbox, and an answer is refused', async () => {
    const { db } = server.booted.app;
    const id = await conversationId();
    expect((await memberSends('Nog één vraag', 'member-msg-0003')).status).toBe(201);
    await db.delete(operatorLocks);
    expect((await asStaff(operatorA, `/admin/operator/${id}`, { action: 'take' })).status).toBe(303);
    await db.insert(blocks).values({ blockerId: member.id, blockedId: fictionalId });
    expect((await asStaff(operatorA, '/admin/operator')).text).not.toContain(`data-waiting="${id}"`);
    const res = await asStaff(operatorA, `/admin/operator/${id}`, { action: 'reply', text: 'Hallo?', client_id: 'op-a-00000003' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('cannot be written to any more');
  });

  it('OPS-01 OPS-02 the start page shows each role what waits for them, as many as the queues hold, each linking to its queue', async () => {
    const { db } = server.booted.app;
    // The member lifts the block of the test before and writes again: they wait for an answer. A complaint is open.
    await db.delete(blocks).where(and(eq(blocks.blockerId, member.id), eq(blocks.blockedId, fictionalId)));
    expect((await memberSends('Wie is daar?', 'member-msg-start-1')).status).toBe(201);
    await db.insert(complaints).values({ siteId: 1, userId: null, name: 'Piet', email: 'piet@example.com', subject: 'Vraag', message: 'Een vraag over mijn account.' });

    const inbox = Number(/data-waiting-count="(\d+)"/.exec((await asStaff(admin, '/admin/operator')).text)?.[1]);
    expect(inbox).toBeGreaterThan(0);
    const photosWaiting = await db.$count(photos, eq(photos.status, 'inspection_pending'));
    const complaintsOpen = await db.$count(complaints, inArray(complaints.status, ['open', 'in_progress']));
    expect(complaintsOpen).toBeGreaterThan(0);
    const work = async (cookie: string) => {
      const page = await asStaff(cookie, '/admin');
      expect(page.status).toBe(200);
      const links = [...page.text.matchAll(/<a [^>]*data-work="[^>]*>/g)].map((m) => m[0]);
      const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
      return Object.fromEntries(links.map((tag) => [attr(tag, 'data-work'), { href: attr(tag, 'href'), count: Number(attr(tag, 'data-count')) }]));
    };
    const queues = {
      photos: { href: '/admin/photos', count: photosWaiting },
      // VER-01: the verification queue beside the photo queue (nothing waits in the seed).
      verifications: { href: '/admin/verifications', count: 0 },
      complaints: { href: '/admin/complaints', count: complaintsOpen },
      conversations: { href: '/admin/operator', count: inbox },
    };
    expect(await work(admin)).toEqual(queues);
    expect(await work(moderator)).toEqual({ photos: queues.photos, verifications: queues.verifications, complaints: queues.complaints });
    expect(await work(operatorA)).toEqual({ conversations: queues.conversations });
  });
});
