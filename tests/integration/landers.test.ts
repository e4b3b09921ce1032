/**
 * The landers, member landings, invite-only mode and the live-cam block over real HTTP against the
 * built server and a real database (in-memory PGlite, and PostgreSQL when it answers).
 * localhost is site 1 (Flirtlokaal, niche 1, all languages), 127.0.0.1 is site 2 (Reife Kontakte, niche 6).
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invitationRequests, photos, profiles, sitePartners, sites, users } from '../../src/db/schema';
import { LANDER_NAMES } from '../../src/server/landers/names';
import { bornBy } from '../../src/server/landers/niche';
import { ageOn } from '../../src/server/members/listing';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type TestServer } from '../setup/server';

const ALL_LANDERS = [...LANDER_NAMES, 'tinderswipe'] as const;

/** What each site is, and the niche wording its headline must carry in each tested language (SITE-03). */
const SITES = [
  { host: 'localhost', id: 1, name: 'Flirtlokaal', slugs: { en: 'eng', nl: 'nl' }, people: { en: 'singles', nl: 'singles' } },
  { host: '127.0.0.1', id: 2, name: 'Reife Kontakte', slugs: { de: 'milf-de', en: 'milf-eng' }, people: { de: 'reife Frauen', en: 'mature women' } },
] as const;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

type SiteRow = typeof sites.$inferSelect;
/** A site text as a page in `lang` shows it: the translation, else the site's own (docs/decisions/020-site-texts-per-language.md). */
function textIn(row: SiteRow, field: 'fictional_warning' | 'fictional_singular', lang: string): string {
  const own = field === 'fictional_warning' ? row.fictionalWarning : row.fictionalSingular;
  return row.texts[field]?.[lang as 'en'] ?? own;
}

function h1(html: string): string {
  return /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '';
}

describe.each(await databaseKinds())('landers on %s', (kind) => {
  let server: TestServer;
  const settingsOf = async (siteId: number) => {
    const [row] = await server.booted.app.db.select().from(sites).where(eq(sites.id, siteId));
    return row!;
  };
  /** Active members of a site that have a public main photo, oldest id first. */
  const membersOf = async (siteId: number) =>
    server.booted.app.db
      .select({ id: users.id, name: profiles.name, fictional: profiles.fictional })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .innerJoin(photos, eq(photos.id, profiles.mainPhotoId))
      .where(and(eq(profiles.siteId, siteId), eq(profiles.status, 'active'), eq(users.status, 'active'), eq(photos.status, 'active')))
      .orderBy(users.id);

  beforeAll(async () => {
    server = await startTestServer({ db: kind });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('every lander on both sites in two languages', () => {
    for (const site of SITES) {
      for (const lang of Object.keys(site.slugs) as (keyof typeof site.slugs)[]) {
        it.each(ALL_LANDERS)(`LND-01 MEM-05 SITE-03 /landers/%s on ${site.name} in ${lang}`, async (name) => {
          const settings = await settingsOf(site.id);
          const res = await server.request(`/landers/${name}`, { host: site.host, cookies: { lang } });
          expect(res.status).toBe(200);
          const html = res.text;
          expect(html).toContain(`<html lang="${lang}"`);
          expect(html).toContain('data-layout="lander"');
          expect(html).not.toContain('data-layout="default"');
          expect(html).toContain(`data-lander="${name}"`);
          // The site's own name, its niche's wording in the visitor's language, the way in.
          expect(html).toContain(site.name);
          expect(h1(html)).toContain(site.people[lang]);
          expect(html).toContain(`data-slug="${site.slugs[lang]}"`);
          expect(html).toMatch(/<a [^>]*href="\/signup"[^>]*data-signup-entry/);
          expect(html).toContain('href="/login"');
          // MEM-05: the disclosure comes before the first way to sign up.
          const warning = escapeHtml(textIn(settings, 'fictional_warning', lang));
          expect(html).toContain(warning);
          expect(html.indexOf(warning)).toBeLessThan(html.indexOf('href="/signup"'));
          // No JavaScript on a lander, except the swipe deck's island, which loads on the first
          // interaction (decision 048).
          if (name === 'tinderswipe') {
            expect(html).toContain('<astro-island');
            expect(html).toContain('client="interaction"');
          } else {
            expect(html).not.toMatch(/<script/i);
          }
        });
      }
    }
  });

  it('MEM-05 fictional members on a lander carry the site’s fictional label', async () => {
    const settings = await settingsOf(1);
    const fictional = (await membersOf(1)).find((m) => m.fictional)!;
    // Make them the most recently active, so every lander lists them, and drop the minute's cache.
    await server.booted.app.db.update(profiles).set({ lastActiveAt: new Date() }).where(eq(profiles.userId, fictional.id));
    server.booted.app.cache.delete('landers:');
    for (const name of ['gallery', 'alonetonight', 'socialnetwork', 'collagelanding']) {
      const html = (await server.request(`/landers/${name}`, { cookies: { lang: 'en' } })).text;
      expect(html, name).toMatch(new RegExp(`data-fictional[^>]*>${escapeHtml(textIn(settings, 'fictional_singular', 'en'))}<`));
    }
    const gallery = (await server.request('/landers/gallery', { cookies: { lang: 'en' } })).text;
    const item = /<figure class="gallery-item"[\s\S]*?<\/figure>/.exec(gallery)![0];
    expect(item).toContain(escapeHtml(fictional.name));
    expect(item).toContain('data-fictional');
  });

  it('LND-01 SITE-03 the milf site’s landers and swipe deck open with women of 35 and older, even after a young man was active last', async () => {
    const { db } = server.booted.app;
    // A 21-year-old man on site 2, active a minute from now, with a photo of his own.
    const [user] = await db
      .insert(users)
      .values({ siteId: 2, email: `young-man-${kind}@example.test`, status: 'active', language: 'de', role: 'member' })
      .returning({ id: users.id });
    const [photo] = await db
      .insert(photos)
      .values({ userId: user!.id, filename: 'young-man-main.webp', thumbFilename: 'young-man-thumb.webp', status: 'active', width: 480, height: 600 })
      .returning({ id: photos.id });
    await db.insert(profiles).values({
      userId: user!.id,
      siteId: 2,
      name: 'Jonas',
      gender: 'male',
      sexuality: 'hetero',
      birthDate: bornBy(new Date(), 21),
      country: 'DE',
      mainPhotoId: photo!.id,
      lastActiveAt: new Date(Date.now() + 60_000),
    });
    server.booted.app.cache.delete('landers:');
    try {
      const owners = new Map(
        (
          await db
            .select({ filename: photos.filename, gender: profiles.gender, birthDate: profiles.birthDate })
            .from(photos)
            .innerJoin(profiles, eq(profiles.userId, photos.userId))
            .where(eq(profiles.siteId, 2))
        ).map((row) => [row.filename, row]),
      );
      for (const name of ['tinderswipe', 'gallery', 'collagelanding']) {
        const html = (await server.request(`/landers/${name}`, { host: '127.0.0.1', cookies: { lang: 'de' } })).text;
        const shown = [...new Set([...html.matchAll(/\/photos\/([\w.-]+-main\.webp)/g)].map((m) => m[1]!))];
        expect(shown.length, name).toBeGreaterThan(0);
        expect(shown, name).not.toContain('young-man-main.webp');
        for (const file of shown) {
          const owner = owners.get(file);
          expect(owner?.gender, `${name} ${file}`).toBe('female');
          expect(ageOn(owner!.birthDate!, new Date()), `${name} ${file}`).toBeGreaterThanOrEqual(35);
        }
      }
    } finally {
      await db.update(profiles).set({ mainPhotoId: null }).where(eq(profiles.userId, user!.id));
      await db.delete(photos).where(eq(photos.userId, user!.id));
      await db.delete(profiles).where(eq(profiles.userId, user!.id));
      await db.delete(users).where(eq(users.id, user!.id));
      server.booted.app.cache.delete('landers:');
    }
  });

  it('LND-01 lander media are the site’s own photos with srcset, sizes, the first eager and the rest lazy', async () => {
    const html = (await server.request('/landers/gallery', { cookies: { lang: 'en' } })).text;
    const images = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    expect(images.length).toBeGreaterThan(4);
    for (const img of images) {
      expect(img).toMatch(/src="\/photos\/[^"]+-main\.webp"/);
      expect(img).toMatch(/srcset="\/photos\/[^" ]+-thumb\.webp 160w, \/photos\/[^" ]+-main\.webp 480w"/);
      expect(img).toMatch(/width="480"/);
      expect(img).toMatch(/height="600"/);
    }
    expect(images[0]).toMatch(/loading="eager"/);
    expect(images[0]).toMatch(/fetchpriority="high"/);
    for (const img of images.slice(1)) expect(img).toMatch(/loading="lazy"/);
    // Only the site's own media: nothing from another host, no embeds.
    expect(html).not.toMatch(/(src|srcset)="https?:\/\//);
    expect(html).not.toMatch(/<(iframe|video|embed|object)\b/);
  });

  it('LND-01 maplanding draws the site’s main country with a dot per seeded region', async () => {
    const nl = (await server.request('/landers/maplanding', { cookies: { lang: 'nl' } })).text;
    expect(nl).toContain('data-map="NL"');
    expect(nl).toMatch(/<path class="map-outline" d="M[\d.,L]+Z"/);
    for (const region of ['NH', 'ZH', 'UT', 'GR', 'LI']) expect(nl).toContain(`data-region="${region}"`);
    expect(nl).toContain('Nederland');
    const de = (await server.request('/landers/maplanding', { host: '127.0.0.1', cookies: { lang: 'de' } })).text;
    expect(de).toContain('data-map="DE"');
    expect(de).toContain('data-region="BY"');
    expect(de).not.toContain('data-region="NH"');
  });

  describe('slugs', () => {
    it('LND-02 a slug of another site’s niche and language still renders the visitor’s own site and language', async () => {
      const one = await server.request('/landers/gallery/milf-de', { cookies: { lang: 'en' } });
      expect(one.status).toBe(200);
      expect(one.text).toContain('<html lang="en"');
      expect(one.text).toContain('Flirtlokaal');
      expect(h1(one.text)).toContain('singles');
      expect(one.text).toContain('data-slug="eng"');
      expect(one.text).toContain('data-requested-slug="milf-de"');

      const two = await server.request('/landers/video/gay-fi', { host: '127.0.0.1', cookies: { lang: 'nl' } });
      expect(two.status).toBe(200);
      expect(two.text).toContain('<html lang="nl"');
      expect(two.text).toContain('Reife Kontakte');
      expect(h1(two.text)).toContain('rijpe vrouwen');
      expect(two.text).toContain('data-slug="milf-nl"');
    });

    it('LND-02 the site’s own slug and a slug that is no slug at all render too; more than one segment is a 404', async () => {
      expect((await server.request('/landers/socialnetwork/nl', { cookies: { lang: 'nl' } })).status).toBe(200);
      const odd = await server.request('/landers/iconslanding/whatever-this-is', { cookies: { lang: 'nl' } });
      expect(odd.status).toBe(200);
      expect(odd.text).not.toContain('data-requested-slug');
      expect((await server.request('/landers/tinderswipe/milf-eng', { cookies: { lang: 'en' } })).status).toBe(200);
      expect((await server.request('/landers/gallery/nl/extra', { cookies: { lang: 'en' } })).status).toBe(404);
    });

    it('ERR-01 LND-01 an unknown lander name is the normal 404 page', async () => {
      const res = await server.request('/landers/nosuchlander', { cookies: { lang: 'en' } });
      expect(res.status).toBe(404);
      expect(res.text).toContain('This page could not be found');
      expect(res.text).toContain('Back to the home page');
      const withSlug = await server.request('/landers/nosuchlander/milf-de', { cookies: { lang: 'en' } });
      expect(withSlug.status).toBe(404);
      expect(withSlug.text).toContain('This page could not be found');
    });
  });

  describe('member landings', () => {
    it('LND-03 the four member landings feature the member with a signup call to action', async () => {
      const settings = await settingsOf(1);
      const [member] = await membersOf(1);
      const routes = [
        `/members/${member!.id}/landing`,
        `/members/${member!.id}/signup`,
        `/members/${member!.id}/landing2`,
        `/members/${member!.id}/landing2/eng`,
        `/members/${member!.id}/landing3`,
        `/members/${member!.id}/landing3/milf-de`,
      ];
      for (const path of routes) {
        const res = await server.request(path, { cookies: { lang: 'en' } });
        expect(res.status, path).toBe(200);
        expect(res.text, path).toContain('data-layout="lander"');
        expect(res.text, path).toContain(`data-member-id="${member!.id}"`);
        expect(res.text, path).toContain(escapeHtml(member!.name));
        expect(res.text, path).toContain(`href="/signup?member=${member!.id}"`);
        expect(res.text, path).toContain(escapeHtml(textIn(settings, 'fictional_warning', 'en')));
        expect(res.text, path).not.toMatch(/<script/i);
      }
      const signup = (await server.request(`/members/${member!.id}/signup`, { cookies: { lang: 'en' } })).text;
      expect(signup).toMatch(new RegExp(`href="/signup\\?member=${member!.id}"[^>]*>Sign up to chat with ${escapeHtml(member!.name)}<`));
    });

    it('LND-03 MEM-05 a fictional member’s landing carries the fictional label', async () => {
      const settings = await settingsOf(2);
      const fictional = (await membersOf(2)).find((m) => m.fictional)!;
      const html = (await server.request(`/members/${fictional.id}/landing`, { host: '127.0.0.1', cookies: { lang: 'de' } })).text;
      expect(html).toMatch(new RegExp(`data-fictional[^>]*>${escapeHtml(textIn(settings, 'fictional_singular', 'de'))}<`));
    });

    it('LND-03 an unknown, malformed, other site’s or disabled member is the 404 page', async () => {
      const [mine] = await membersOf(1);
      const [theirs] = await membersOf(2);
      for (const path of [
        '/members/99999999/landing',
        '/members/abc/signup',
        '/members/0/landing2',
        `/members/${theirs!.id}/landing`,
        `/members/${theirs!.id}/landing3/nl`,
        `/members/${mine!.id}/landing2/a/b`,
      ]) {
        const res = await server.request(path, { cookies: { lang: 'en' } });
        expect(res.status, path).toBe(404);
        expect(res.text, path).toContain('This page could not be found');
      }
      const { db } = server.booted.app;
      await db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, mine!.id));
      try {
        expect((await server.request(`/members/${mine!.id}/landing`, { cookies: { lang: 'en' } })).status).toBe(404);
      } finally {
        await db.update(profiles).set({ status: 'active' }).where(eq(profiles.userId, mine!.id));
      }
      expect((await server.request(`/members/${mine!.id}/landing`, { cookies: { lang: 'en' } })).status).toBe(200);
    });
  });

  describe('invite-only sites', () => {
    const setInviteOnly = (value: boolean, siteId = 1) => server.booted.app.db.update(sites).set({ inviteOnly: value }).where(eq(sites.id, siteId));
    const requestsFor = async (siteId: number, email: string) =>
      (
        await server.booted.app.db
          .select({ n: sql<number>`count(*)::int` })
          .from(invitationRequests)
          .where(and(eq(invitationRequests.siteId, siteId), eq(sql`lower(${invitationRequests.email})`, email.toLowerCase())))
      )[0]!.n;
    const allRequests = async () => (await server.booted.app.db.select({ n: sql<number>`count(*)::int` }).from(invitationRequests))[0]!.n;

    afterEach(async () => {
      await setInviteOnly(false);
    });

    it('LND-04 visitors of an invite-only site see the invitation panel instead of signing up', async () => {
      const before = await server.request('/landers/gallery', { cookies: { lang: 'en' } });
      expect(before.text).toContain('href="/signup"');
      expect(before.text).not.toContain('data-invitation-form');
      await setInviteOnly(true);
      const [member] = await membersOf(1);
      for (const path of ['/landers/gallery', '/landers/socialnetwork', '/landers/tinderswipe', `/members/${member!.id}/signup`]) {
        const res = await server.request(path, { cookies: { lang: 'en' } });
        expect(res.status, path).toBe(200);
        expect(res.text, path).toContain('Flirtlokaal is by invitation only');
        expect(res.text, path).toMatch(/<form method="post" action="\/api\/invitation.php"[^>]*data-invitation-form/);
        expect(res.text, path).toMatch(/<label[^>]*for="invitation-email"/);
        expect(res.text, path).not.toContain('href="/signup');
        expect(res.text, path).toContain('href="/login"');
      }
    });

    it('LND-04 POST /api/invitation.php stores an address once, however often and however written', async () => {
      await setInviteOnly(true);
      const email = `visitor-${kind}@example.com`;
      const first = await server.request('/api/invitation.php', { method: 'POST', body: { email } });
      expect(first.status).toBe(200);
      expect(first.json()).toEqual({ ok: true });
      const again = await server.request('/api/invitation.php', { method: 'POST', body: { email: ` ${email.toUpperCase()} ` } });
      expect(again.status).toBe(200);
      expect(again.json()).toEqual({ ok: true });
      expect(await requestsFor(1, email)).toBe(1);
    });

    it('LND-04 a bad e-mail is refused with validation_failed and changes nothing', async () => {
      await setInviteOnly(true);
      const before = await allRequests();
      for (const body of [{ email: 'not-an-email' }, { email: '' }, {}, { email: `${'x'.repeat(250)}@example.com` }, '{broken']) {
        const res = await server.request('/api/invitation.php', { method: 'POST', body });
        expect(res.status).toBe(400);
        expect(res.json().error).toBe('validation_failed');
      }
      expect(await allRequests()).toBe(before);
    });

    it('LND-04 the panel’s form post comes back with a thank-you the page shows, or with the error', async () => {
      await setInviteOnly(true);
      const origin = `http://localhost:${server.port}`;
      const form = { 'content-type': 'application/x-www-form-urlencoded', origin };
      const email = `form-${kind}@example.com`;
      const ok = await server.request('/api/invitation.php', { method: 'POST', headers: form, body: `email=${encodeURIComponent(email)}&next=%2Flanders%2Fgallery` });
      expect(ok.status).toBe(303);
      expect(ok.headers.location).toBe('/landers/gallery?invitation=thanks#invitation');
      expect(await requestsFor(1, email)).toBe(1);
      const thanks = await server.request('/landers/gallery?invitation=thanks', { cookies: { lang: 'en' } });
      expect(thanks.text).toContain('data-invitation-thanks');
      expect(thanks.text).toContain('Thank you! We will e-mail you your invitation.');

      const before = await allRequests();
      const bad = await server.request('/api/invitation.php', { method: 'POST', headers: form, body: 'email=nope&next=%2F%2Fevil.example' });
      expect(bad.status).toBe(303);
      expect(bad.headers.location).toBe('/?invitation=invalid#invitation');
      expect(await allRequests()).toBe(before);
      const shown = await server.request('/landers/video?invitation=invalid', { cookies: { lang: 'en' } });
      expect(shown.text).toContain('Please enter a valid e-mail address.');
      expect(shown.text).toContain('aria-invalid="true"');
    });

    it('LND-04 a site that is not invite-only takes no invitation requests', async () => {
      const before = await allRequests();
      const res = await server.request('/api/invitation.php', { method: 'POST', host: '127.0.0.1', body: { email: 'someone@example.com' } });
      expect(res.status).toBe(404);
      expect(res.json().error).toBe('not_found_api');
      expect(await allRequests()).toBe(before);
      expect((await server.request('/api/invitation.php')).status).toBe(405);
    });
  });

  describe('live cam promotion', () => {
    const changed = (siteId: number) => server.booted.app.bus.publish('site.changed', { siteId });
    it('LND-05 HON-01 with the setting on but no partner configured, no lander shows the block', async () => {
      expect((await settingsOf(1)).liveCamPromo).toBe(true);
      for (const name of ['gallery', 'video', 'tinderswipe']) {
        const one = (await server.request(`/landers/${name}`, { cookies: { lang: 'en' } })).text;
        expect(one, name).not.toContain('data-live-cam');
        expect(one, name).not.toContain('Live on cam tonight');
      }
    });

    it('LND-05 HON-01 a configured partner shows only while the setting is on, labelled as its advertisement, never as an embed', async () => {
      const { db } = server.booted.app;
      await db
        .insert(sitePartners)
        .values({ siteId: 2, name: 'Partner Zwei', url: 'https://partner.example.de/?ref=rk', images: [{ file: 'abcdef-partner2-0011223344556677.webp', width: 480, height: 600 }] });
      await changed(2);
      try {
        const off = (await server.request('/landers/alonetonight', { host: '127.0.0.1', cookies: { lang: 'de' } })).text;
        expect(off).not.toContain('data-live-cam');
        await db.update(sites).set({ liveCamPromo: true }).where(eq(sites.id, 2));
        await changed(2);
        const on = (await server.request('/landers/alonetonight', { host: '127.0.0.1', cookies: { lang: 'de' } })).text;
        const block = /<aside class="live-cam"[\s\S]*?<\/aside>/.exec(on)?.[0] ?? '';
        expect(block).toContain('Anzeige · Partner Zwei');
        expect(block).toContain('src="/photos/abcdef-partner2-0011223344556677.webp"');
        expect(block).not.toMatch(/<(iframe|video|embed|object)/);
      } finally {
        await db.update(sites).set({ liveCamPromo: false }).where(eq(sites.id, 2));
        await db.delete(sitePartners).where(eq(sitePartners.siteId, 2));
        await changed(2);
      }
      expect((await server.request('/landers/alonetonight', { host: '127.0.0.1', cookies: { lang: 'de' } })).text).not.toContain('data-live-cam');
    });
  });
});
