/**
 * HON-03 over real HTTP against the built server: the delete page's discount is issued when chosen and
 * applied on /credits; the premium claim shows the site's own figure with its basis, or nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountCodes, siteFigures, users } from '../../src/db/schema';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('promises kept', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('HON-03 the premium claim is shown only with the site’s own figure and its basis, in English, Dutch and German', async () => {
    const { db } = server.booted.app;
    for (const lang of ['en', 'nl', 'de']) {
      const page = await server.request('/premium', { cookies: { lang } });
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('data-premium-claim');
      expect(page.text).not.toMatch(/46\s?%/);
    }
    await db
      .insert(siteFigures)
      .values({ siteId: 1, key: 'premium_answer_rate', value: { percent: 67, premiumSent: 120, premiumAnswered: 60, freeSent: 150, freeAnswered: 45, days: 90 }, computedAt: new Date() });
    try {
      const en = (await server.request('/premium', { cookies: { lang: 'en' } })).text;
      expect(en).toContain('data-premium-claim="67"');
      expect(en).toContain('67% more answers to your first messages');
      expect(en).toContain('in the last 90 days, 50% of premium members’ first messages to other members were answered, and 30% of free members’ (270 first messages).'.replace(/’/g, '&#39;'));
      expect((await server.request('/premium', { cookies: { lang: 'nl' } })).text).toContain('67% meer antwoorden op je eerste berichten');
      expect((await server.request('/premium', { cookies: { lang: 'de' } })).text).toContain('67% mehr Antworten auf deine ersten Nachrichten');
      // Site 2 has no figure of its own: no claim there.
      expect((await server.request('/premium', { host: '127.0.0.1', cookies: { lang: 'de' } })).text).not.toContain('data-premium-claim');
    } finally {
      await db.delete(siteFigures).where(eq(siteFigures.siteId, 1));
    }
  });

  it('HON-03 choosing the delete page’s discount issues it once, and /credits shows and applies it', async () => {
    const { db } = server.booted.app;
    const session = (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'free@demo.test', password: 'demo-password-1' } })).setCookies.session!.value;
    const [me] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'free@demo.test')).limit(1);
    const get = (path: string) => server.request(path, { cookies: { lang: 'en', session } });
    const choose = () =>
      server.request('/settings/delete', {
        method: 'POST',
        headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
        cookies: { lang: 'en', session },
        body: 'action=discount',
      });

    const before = (await get('/settings/delete')).text;
    expect(before).toContain('data-delete-discount="none"');
    expect(before).toContain('Stay and take my 50% discount');
    // Nothing is issued by looking.
    expect(await db.select().from(discountCodes).where(eq(discountCodes.userId, me!.id))).toEqual([]);

    const chosen = await choose();
    expect(chosen.status).toBe(303);
    expect(chosen.headers.location).toBe('/credits?discount=retention');
    const [code] = await db.select().from(discountCodes).where(eq(discountCodes.userId, me!.id));
    expect(code).toMatchObject({ kind: 'retention', percent: 50 });

    const credits = (await get('/credits')).text;
    expect(credits).toContain(`data-active-discount="${code!.code}"`);
    expect(credits).toContain(`Your 50% discount for staying (code ${code!.code}) is applied`);
    expect(credits).toMatch(/data-new-price/);

    expect((await get('/settings/delete')).text).toContain('data-delete-discount="ready"');
    await choose();
    expect(await db.select().from(discountCodes).where(eq(discountCodes.userId, me!.id))).toHaveLength(1);
  });
});
