/**
 * The likes and block API and the likes pages over HTTP, on one server: liking, matches, the 'new like'
 * modal feed, the notification of the liked member, the nav badge, blocks, and every refusal as JSON.
 */
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, likes, users } from '../../src/db/schema';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('likes and blocks', () => {
  let server: TestServer;
  let free: { id: number; email: string; session: string };
  let premium: { id: number; email: string; session: string };
  let fictionalId: number;
  let otherSiteId: number;
  beforeAll(async () => {
    server = await startTestServer();
    const { db } = server.booted.app;
    const find = async (email: string) =>
      (
        await db
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(and(eq(users.email, email), eq(users.siteId, 1)))
      )[0]!;
    const login = async (email: string) => (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email, password: 'demo-password-1' } })).setCookies.session!.value;
    free = { ...(await find('free@demo.test')), session: await login('free@demo.test') };
    premium = { ...(await find('premium@demo.test')), session: await login('premium@demo.test') };
    const [fictional] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.siteId, 1), eq(users.role, 'fictional')))
      .limit(1);
    fictionalId = fictional!.id;
    const [other] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.siteId, 2), ne(users.role, 'operator')))
      .limit(1);
    otherSiteId = other!.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  // Browsers send Origin with every DELETE and POST of a page (the cross-site check wants it without a JSON body).
  const origin = () => ({ origin: `http://localhost:${server.port}` });
  const as = (who: { session: string }) => ({ cookies: { lang: 'en', session: who.session }, headers: origin() });
  const likeAs = (who: { session: string }, id: unknown) => server.request('/api/likes.php', { ...as(who), method: 'POST', body: { id } });
  const unlikeAs = (who: { session: string }, id: string | number) => server.request(`/api/likes.php?id=${id}`, { ...as(who), method: 'DELETE' });
  const likesOf = async (who: { session: string }, type = 'received') => (await server.request(`/api/likes.php?type=${type}`, as(who))).json();
  const mailsTo = async (email: string, kind: string) => (await server.booted.app.mailer.recent(200, email)).filter((m) => m.kind === kind);

  it('LIK-01 BLK-01 LIK-03 a visitor gets authentication_required as JSON from every call', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/likes.php', undefined],
      ['POST', '/api/likes.php', { id: fictionalId }],
      ['DELETE', `/api/likes.php?id=${fictionalId}`, undefined],
      ['GET', '/api/auto-like.php', undefined],
      ['POST', '/api/block.php', { id: fictionalId }],
      ['DELETE', `/api/block.php?id=${fictionalId}`, undefined],
    ] as const) {
      const res = await server.request(path, { method, body, cookies: { lang: 'en' }, headers: origin() });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json()).toMatchObject({ error: 'authentication_required', message: expect.any(String) });
    }
    expect((await server.request('/likes', { cookies: { lang: 'en' } })).headers.location).toBe('/login?next=%2Flikes');
  });

  it('LIK-01 likes a member once (idempotent), lists it as given, and takes it back', async () => {
    const first = await likeAs(free, fictionalId);
    expect(first.status).toBe(201);
    expect(first.json()).toMatchObject({ ok: true, id: fictionalId, created: true, match: false });
    const again = await likeAs(free, fictionalId);
    expect(again.status).toBe(200);
    expect(again.json()).toMatchObject({ created: false });
    const given = await likesOf(free, 'given');
    expect(given.profiles.map((p: { id: number }) => p.id)).toContain(fictionalId);
    expect(given.profiles.find((p: { id: number }) => p.id === fictionalId)).toMatchObject({ fictional: true, main_image: { match: expect.stringContaining('/photos/') } });
    expect((await unlikeAs(free, fictionalId)).json()).toMatchObject({ ok: true, removed: true });
    expect((await unlikeAs(free, fictionalId)).json()).toMatchObject({ ok: true, removed: false });
    expect((await likesOf(free, 'given')).profiles).toEqual([]);
  });

  it('LIK-01 BLK-01 refuses oneself, unknown, other-site, invisible and blocked members as JSON', async () => {
    const { db } = server.booted.app;
    expect((await likeAs(free, free.id)).json().error).toBe('self_not_allowed');
    expect((await likeAs(free, free.id)).status).toBe(400);
    for (const id of [99_999, otherSiteId]) {
      const res = await likeAs(free, id);
      expect(res.status).toBe(404);
      expect(res.json()).toMatchObject({ error: 'member_not_found', message: 'This member could not be found.' });
    }
    await db.update(users).set({ invisible: true }).where(eq(users.id, fictionalId));
    try {
      expect((await likeAs(free, fictionalId)).json().error).toBe('member_not_found');
    } finally {
      await db.update(users).set({ invisible: false }).where(eq(users.id, fictionalId));
    }
    await db.insert(blocks).values({ blockerId: fictionalId, blockedId: free.id });
    try {
      expect((await likeAs(free, fictionalId)).json().error).toBe('member_not_found');
    } finally {
      await db.delete(blocks).where(eq(blocks.blockerId, fictionalId));
    }
    expect((await server.request('/api/block.php', { ...as(free), method: 'POST', body: { id: otherSiteId } })).json().error).toBe('member_not_found');
    expect((await server.request('/api/block.php', { ...as(free), method: 'POST', body: { id: free.id } })).json().error).toBe('self_not_allowed');
    expect((await server.request(`/api/block.php?id=${free.id}`, { ...as(free), method: 'DELETE' })).json().error).toBe('self_not_allowed');
    expect((await unlikeAs(free, free.id)).json().error).toBe('self_not_allowed');
    expect(await db.select().from(likes).where(eq(likes.likerId, free.id))).toEqual([]);
  });

  it('LIK-01 BLK-01 bad ids and bodies are 400 validation_failed JSON, never 500', async () => {
    const long = 'x'.repeat(10_000);
    for (const path of ['/api/likes.php', '/api/block.php']) {
      for (const body of [{ id: -1 }, { id: 0 }, { id: 'abc' }, { id: long }, { id: 1.5 }, { id: 2 ** 31 }, {}, '{broken', '[]']) {
        const res = await server.request(path, { ...as(free), method: 'POST', body });
        expect(res.status, `${path} ${JSON.stringify(body).slice(0, 40)}`).toBe(400);
        expect(res.json().error).toBe('validation_failed');
      }
      for (const id of ['-1', 'abc', long, '1.5', '99999999999', '', '%00']) {
        const res = await server.request(`${path}?id=${id}`, { ...as(free), method: 'DELETE' });
        expect(res.status, `${path}?id=${id.slice(0, 20)}`).toBe(400);
        expect(res.json().error).toBe('validation_failed');
      }
    }
    for (const query of [`type=${long}`, 'type=abc', `after=${long}`]) {
      const res = await server.request(`/api/likes.php?${query}`, as(free));
      expect(res.status).toBe(400);
      expect(res.json().error).toBe('validation_failed');
    }
    expect((await server.request('/api/likes.php?after=garbage', as(free))).status).toBe(200);
    expect((await server.request('/api/likes.php', { ...as(free), method: 'PUT', body: {} })).json().error).toBe('method_not_allowed');
  });

  it('PUSH-02 LIK-01 NAV-01 a like tells the liked member by their preferences and shows as new', async () => {
    const before = (await mailsTo(free.email, 'notify_like')).length;
    expect((await likeAs(premium, free.id)).status).toBe(201);
    await server.booted.app.background.idle();
    const mails = await mailsTo(free.email, 'notify_like');
    expect(mails.length).toBe(before + 1);
    const received = await likesOf(free);
    expect(received.liked_by).toEqual([{ id: premium.id, like_new: true }]);
    expect(received.profiles[0]).toMatchObject({ id: premium.id, like_new: true });
    const page = await server.request('/members', as(free));
    expect(page.text).toMatch(/<span id="likes-badge"[^>]*data-badge="likes"[^>]*>1<\/span>/);
    expect(page.text).not.toMatch(/id="likes-badge"[^>]*hidden/);
    expect(page.text).toContain('"newLikes":1');
    // A like not shown yet: the page's modal asks for it at once (LIK-03).
    expect(page.text).toMatch(/data-like-modal data-auto-like/);
    // Switched off: nothing is sent.
    await server.booted.app.db
      .update(users)
      .set({ notificationsDisabled: ['like_received'] })
      .where(eq(users.id, premium.id));
    try {
      await likeAs(free, premium.id);
      await server.booted.app.background.idle();
      expect(await mailsTo(premium.email, 'notify_match')).toEqual([]);
    } finally {
      await server.booted.app.db.update(users).set({ notificationsDisabled: [] }).where(eq(users.id, premium.id));
      await unlikeAs(free, premium.id);
    }
  });

  it('LIK-03 LIK-04 the next unshown like comes once from auto-like.php, then 204; the modal only when needed', async () => {
    const res = await server.request('/api/auto-like.php', as(free));
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id: premium.id, name: expect.any(String), fictional: false, match: false });
    expect(res.json().main_image === null || typeof res.json().main_image.match === 'string').toBe(true);
    const next = await server.request('/api/auto-like.php', as(free));
    expect(next.status).toBe(204);
    expect(next.text).toBe('');
    // Nothing left to show: the modal waits for a live match only (UX-01); the pop-up comes with `t` (LIK-04).
    const page = (await server.request('/members', as(free))).text;
    expect(page).toContain('data-like-modal');
    expect(page).not.toContain('data-auto-like');
    expect((await server.request('/members?t=5', as(free))).text).toContain('data-like-popup');
  });

  it('LIK-01 the likes pages list received, given and matches with links to /likes/m/{id}', async () => {
    await likeAs(free, fictionalId);
    await likeAs(free, premium.id);
    try {
      const received = await server.request('/likes', as(free));
      expect(received.status).toBe(200);
      expect(received.text).toContain(`href="/likes/m/${premium.id}"`);
      expect(received.text).toContain('data-like-new');
      expect(received.text).toMatch(/aria-current="page"[^>]*data-likes-tab="received"/);
      const given = await server.request('/likes/given', as(free));
      expect(given.text).toContain(`href="/likes/m/${fictionalId}"`);
      expect(given.text).toContain('data-fictional');
      const matches = await server.request('/likes/matches', as(free));
      expect(matches.text).toContain(`href="/likes/m/${premium.id}"`);
      expect(matches.text).not.toContain(`href="/likes/m/${fictionalId}"`);
      expect((await server.request('/likes/other', as(free))).status).toBe(404);
      expect((await server.request('/likes/given?after=x', as(free))).status).toBe(200);
    } finally {
      await unlikeAs(free, fictionalId);
      await unlikeAs(free, premium.id);
    }
  });

  it('LIK-02 NAV-01 opening the profile from the likes marks the like seen and clears the badge, on that page already', async () => {
    expect((await server.request('/members', as(free))).text).toMatch(/<span id="likes-badge"[^>]*>1<\/span>/);
    const page = await server.request(`/likes/m/${premium.id}`, as(free));
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-profile-id="${premium.id}"`);
    // The session lookup brought the counts; the like was seen before the navigation rendered.
    expect(page.text).toMatch(/id="likes-badge"[^>]*hidden/);
    expect(page.text).toContain('"newLikes":0');
    expect((await likesOf(free)).liked_by).toEqual([{ id: premium.id, like_new: false }]);
    expect((await server.request('/members', as(free))).text).toMatch(/id="likes-badge"[^>]*hidden/);
    expect((await server.request('/likes/m/abc', as(free))).status).toBe(404);
    expect((await server.request(`/likes/m/${otherSiteId}`, as(free))).status).toBe(404);
  });

  it('BLK-01 a block hides the likes both ways until it is lifted; both calls are idempotent', async () => {
    const first = await server.request('/api/block.php', { ...as(free), method: 'POST', body: { id: premium.id } });
    expect(first.status).toBe(201);
    expect((await server.request('/api/block.php', { ...as(free), method: 'POST', body: { id: premium.id } })).json()).toMatchObject({ created: false });
    expect((await likesOf(free)).liked_by).toEqual([]);
    expect((await likesOf(premium, 'given')).profiles).toEqual([]);
    expect((await likeAs(premium, free.id)).json().error).toBe('member_not_found');
    // The blocker gets the page about the block (with Unblock); the blocked member, not found.
    const blockerView = await server.request(`/likes/m/${premium.id}`, as(free));
    expect(blockerView.status).toBe(200);
    expect(blockerView.text).toContain(`data-blocked-member="${premium.id}"`);
    expect((await server.request(`/likes/m/${free.id}`, as(premium))).status).toBe(404);
    expect((await server.request(`/api/block.php?id=${premium.id}`, { ...as(free), method: 'DELETE' })).json()).toMatchObject({ ok: true, removed: true });
    expect((await server.request(`/api/block.php?id=${premium.id}`, { ...as(free), method: 'DELETE' })).json()).toMatchObject({ removed: false });
    expect((await likesOf(free)).liked_by).toEqual([{ id: premium.id, like_new: false }]);
  });
});
