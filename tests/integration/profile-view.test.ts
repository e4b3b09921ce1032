/** The member profile page over HTTP: who may see it, and what a non-premium viewer gets of premium photos. */
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photos, profiles, sites, users } from '../../src/db/schema';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('member profile page', () => {
  let server: TestServer;
  let memberId: number;
  let premiumPhoto: string;
  beforeAll(async () => {
    server = await startTestServer();
    const { db } = server.booted.app;
    // A site-1 member with a main photo, given an extra premium photo for this test.
    const [member] = await db
      .select({ id: users.id, photoId: profiles.mainPhotoId, fictional: profiles.fictional })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.siteId, 1), eq(users.role, 'fictional')))
      .limit(1);
    memberId = member!.id;
    const [photo] = await db.select().from(photos).where(eq(photos.id, member!.photoId!));
    // A real file under the new names: the locked place shows a blurred copy made from it.
    const store = server.booted.app.photos;
    const main = await store.get(photo!.filename);
    await store.put(`zz${memberId}-premium-main.webp`, main!.body);
    await store.put(`zz${memberId}-premium-thumb.webp`, (await store.get(photo!.thumbFilename))!.body);
    const [extra] = await db
      .insert(photos)
      .values({
        userId: memberId,
        filename: `zz${memberId}-premium-main.webp`,
        thumbFilename: `zz${memberId}-premium-thumb.webp`,
        status: 'active',
        premium: true,
        width: photo!.width,
        height: photo!.height,
      })
      .returning();
    premiumPhoto = extra!.filename;
  });
  afterAll(async () => {
    await server?.close();
  });
  const login = async (email: string) => (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email, password: 'demo-password-1' } })).setCookies.session!.value;

  it('MEM-05 MEM-06 shows the member with the site’s fields, interests and the fictional label', async () => {
    const page = await server.request(`/members/${memberId}`, { cookies: { lang: 'en', entry_ok: '1' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-profile-id="${memberId}"`);
    expect(page.text).toContain('data-fictional');
    expect(page.text).toContain('Interests');
  });

  it('MEM-04 a non-premium viewer gets a locked place instead of the premium photo; a premium member sees it', async () => {
    const free = await server.request(`/members/${memberId}`, { cookies: { lang: 'en', session: await login('free@demo.test') } });
    expect(free.text).toContain('data-locked-photo');
    expect(free.text).not.toContain(premiumPhoto);
    const premium = await server.request(`/members/${memberId}`, { cookies: { lang: 'en', session: await login('premium@demo.test') } });
    expect(premium.text).toContain(premiumPhoto.replace('-main', '-thumb'));
    expect(premium.text).not.toContain('data-locked-photo');
  });

  it('ERR-01 unknown, other-site and invisible members give the 404 page', async () => {
    const { db } = server.booted.app;
    expect((await server.request('/members/99999', { cookies: { lang: 'en' } })).status).toBe(404);
    expect((await server.request('/members/abc', { cookies: { lang: 'en' } })).status).toBe(404);
    const [other] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.siteId, 2), ne(users.role, 'operator')))
      .limit(1);
    expect((await server.request(`/members/${other!.id}`, { cookies: { lang: 'en' } })).status).toBe(404);
    await db.update(users).set({ invisible: true }).where(eq(users.id, memberId));
    try {
      expect((await server.request(`/members/${memberId}`, { cookies: { lang: 'en' } })).status).toBe(404);
    } finally {
      await db.update(users).set({ invisible: false }).where(eq(users.id, memberId));
    }
  });

  it('visitors of a site without logged-out search are sent to log in before seeing a profile', async () => {
    const { db } = server.booted.app;
    await db.update(sites).set({ loggedOutSearch: false }).where(eq(sites.id, 1));
    try {
      const res = await server.request(`/members/${memberId}`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`/login?next=%2Fmembers%2F${memberId}`);
    } finally {
      await db.update(sites).set({ loggedOutSearch: true }).where(eq(sites.id, 1));
    }
  });
});
