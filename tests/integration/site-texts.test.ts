/**
 * The site's own texts in the visitor's language over real HTTP (I18N-01, MEM-05, LND-01;
 * docs/decisions/020-site-texts-per-language.md): the landing hero, the fictional label and warning on
 * the landing page, landers, member landings and profiles, and /api/settings.php, on both demo sites;
 * a language without a text shows the site's own (domain_language) text.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, sites, users } from '../../src/db/schema';
import { FLIRTLOKAAL_TEXTS, REIFE_KONTAKTE_TEXTS } from '../../src/demo/seed-site-texts';
import type { SiteTextTranslations } from '../../src/shared/site-texts';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type TestServer } from '../setup/server';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
const h1 = (html: string) => /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '';
const lead = (html: string) => /<p class="lead">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
const title = (html: string) => /<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? '';
const disclaimer = (html: string) => /<aside class="disclaimer[\s\S]*?<\/aside>/.exec(html)?.[0] ?? '';
/** The fictional badge's text and its title (the warning), wherever a page shows it. */
const badges = (html: string) => [...html.matchAll(/<span [^>]*title="([^"]*)"[^>]*data-fictional[^>]*>([^<]*)</g)].map((m) => ({ warning: m[1], label: m[2] }));

const SITES = [
  { id: 1, host: 'localhost', own: 'nl', texts: FLIRTLOKAAL_TEXTS },
  { id: 2, host: '127.0.0.1', own: 'de', texts: REIFE_KONTAKTE_TEXTS },
] as const;

describe.each(await databaseKinds())('site texts per language on %s', (kind) => {
  let server: TestServer;
  const fictionalMemberOf = async (siteId: number) => {
    const [row] = await server.booted.app.db
      .select({ id: users.id })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(and(eq(profiles.siteId, siteId), eq(profiles.fictional, true), eq(profiles.status, 'active'), eq(users.status, 'active')))
      .limit(1);
    return row!.id;
  };
  const textsOf = async (siteId: number): Promise<SiteTextTranslations> => (await server.booted.app.db.select({ texts: sites.texts }).from(sites).where(eq(sites.id, siteId)))[0]!.texts;
  const setTexts = (siteId: number, texts: SiteTextTranslations) => server.booted.app.db.update(sites).set({ texts }).where(eq(sites.id, siteId));

  beforeAll(async () => {
    // SETTINGS_TTL_MS=0 (test server): a change to a site's texts shows on the next request.
    server = await startTestServer({ db: kind });
  });
  afterAll(async () => {
    await server?.close();
  });

  for (const site of SITES) {
    const en = (field: keyof SiteTextTranslations) => site.texts[field]!.en!;

    it(`I18N-01 LND-01 MEM-05 with lang=en the landing hero, title and disclaimer (the one fictional notice) of site ${site.id} are English`, async () => {
      const html = (await server.request('/', { host: site.host, cookies: { lang: 'en', entry_ok: '1' } })).text;
      expect(h1(html)).toBe(escapeHtml(en('index_title')));
      expect(lead(html)).toBe(escapeHtml(en('description')));
      expect(title(html)).toBe(escapeHtml(en('index_title')));
      expect(html).toContain(`<meta name="description" content="${escapeHtml(en('description'))}"`);
      expect(disclaimer(html)).toContain(escapeHtml(en('fictional_warning')));
      expect(disclaimer(html)).toContain(`aria-label="${escapeHtml(en('fictional_plural'))}"`);
      // "Profiles with this icon …": the mark the cards carry stands right before the sentence that names it.
      expect(disclaimer(html)).toContain(`data-disclaimer-mark>${escapeHtml(en('fictional_singular'))}</span> ${escapeHtml(en('fictional_warning'))}`);
      // The fictional profiles are explained once, in the disclaimer (issue 25): the landing page no longer
      // adds a notice of its own under the member teaser.
      expect(html).not.toContain('data-fictional-notice');
    });

    it(`I18N-01 LND-01 MEM-05 with lang=en the lander disclosure and fictional labels of site ${site.id} are English`, async () => {
      for (const path of ['/landers/gallery', '/landers/tinderswipe', `/members/${await fictionalMemberOf(site.id)}/landing`]) {
        const html = (await server.request(path, { host: site.host, cookies: { lang: 'en' } })).text;
        const disclosure = /<p class="lander-disclosure"[\s\S]*?<\/p>/.exec(html)?.[0] ?? '';
        expect(disclosure, path).toContain(escapeHtml(en('fictional_singular')));
        expect(disclosure, path).toContain(escapeHtml(en('fictional_warning')));
        for (const badge of badges(html)) expect(badge, path).toEqual({ warning: escapeHtml(en('fictional_warning')), label: escapeHtml(en('fictional_singular')) });
      }
      const member = (await server.request(`/members/${await fictionalMemberOf(site.id)}/landing`, { host: site.host, cookies: { lang: 'en' } })).text;
      expect(badges(member).length).toBeGreaterThan(0);
    });

    it(`I18N-01 /api/settings.php answers site ${site.id}'s texts in the request's language and says so`, async () => {
      const res = await server.request('/api/settings.php', { host: site.host, cookies: { lang: 'en' } });
      const body = res.json();
      for (const field of ['index_title', 'description', 'fictional_warning', 'fictional_singular', 'fictional_plural'] as const) expect(body[field], field).toBe(en(field));
      expect(res.headers['content-language']).toBe('en');
      expect(res.headers.vary).toMatch(/cookie/i);
      const own = (await server.request('/api/settings.php', { host: site.host, cookies: { lang: site.own } })).json();
      const [row] = await server.booted.app.db.select().from(sites).where(eq(sites.id, site.id));
      expect(own.index_title).toBe(row!.indexTitle);
      expect(own.fictional_warning).toBe(row!.fictionalWarning);
    });
  }

  it('MEM-05 I18N-01 a fictional profile shows its label and warning in English on site 1 (visitors may view profiles there)', async () => {
    const html = (await server.request(`/members/${await fictionalMemberOf(1)}`, { cookies: { lang: 'en', entry_ok: '1' } })).text;
    const fictional = FLIRTLOKAAL_TEXTS;
    expect(badges(html)).toContainEqual({ warning: escapeHtml(fictional.fictional_warning!.en!), label: escapeHtml(fictional.fictional_singular!.en!) });
    expect(html).not.toContain(escapeHtml('fictief profiel'));
  });

  it('I18N-01 the forced domain of /api/settings.php gets that site’s texts in the request’s language', async () => {
    const body = (await server.request('/api/settings.php?domain=127.0.0.1', { host: 'localhost', cookies: { lang: 'en' } })).json();
    expect(body.id).toBe(2);
    expect(body.index_title).toBe(REIFE_KONTAKTE_TEXTS.index_title!.en);
  });

  it('I18N-01 MEM-05 LND-01 a language without a text falls back to the site’s own text, field by field', async () => {
    const before = await textsOf(2);
    const [row] = await server.booted.app.db.select().from(sites).where(eq(sites.id, 2));
    // English index title and warning removed; the English description and label stay.
    const { en: _title, ...titleRest } = before.index_title!;
    const { en: _warning, ...warningRest } = before.fictional_warning!;
    await setTexts(2, { ...before, index_title: titleRest, fictional_warning: warningRest });
    try {
      const home = (await server.request('/', { host: '127.0.0.1', cookies: { lang: 'en', entry_ok: '1' } })).text;
      expect(h1(home)).toBe(escapeHtml(row!.indexTitle));
      expect(lead(home)).toBe(escapeHtml(REIFE_KONTAKTE_TEXTS.description!.en!));
      expect(disclaimer(home)).toContain(escapeHtml(row!.fictionalWarning));
      const lander = (await server.request('/landers/gallery', { host: '127.0.0.1', cookies: { lang: 'en' } })).text;
      expect(lander).toContain(escapeHtml(row!.fictionalWarning));
      expect(lander).toContain(escapeHtml(REIFE_KONTAKTE_TEXTS.fictional_singular!.en!));
    } finally {
      await setTexts(2, before);
    }
    // A site with no translations at all shows its own texts in every language.
    const flirt = await textsOf(1);
    const [flirtRow] = await server.booted.app.db.select().from(sites).where(eq(sites.id, 1));
    await setTexts(1, {});
    try {
      const home = (await server.request('/', { cookies: { lang: 'pl', entry_ok: '1' } })).text;
      expect(home).toContain('<html lang="pl"');
      expect(h1(home)).toBe(escapeHtml(flirtRow!.indexTitle));
      expect(disclaimer(home)).toContain(escapeHtml(flirtRow!.fictionalWarning));
    } finally {
      await setTexts(1, flirt);
    }
  });
});
