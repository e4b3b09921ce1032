/** Static page texts (STA-01), the terms version date (STA-02) and `/{token}` pages against a real database. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { tokenPages } from '../../db/schema';
import { LANGUAGES } from '../../shared/languages';
import { SiteDirectory, type Site } from '../sites/directory';
import { PLACEHOLDERS, STATIC_PAGES, interpolate, placeholdersIn, renderStaticPage, staticPageCatalogues, termsVersionDate, type StaticPageContent } from './content';
import { bodyParagraphs, findTokenPage, tokenFromPath } from './token-pages';

const english = staticPageCatalogues.en!;

function textsOf(page: StaticPageContent): string[] {
  return [page.title, page.intro, ...page.sections.flatMap((s) => [s.heading, ...s.paragraphs])];
}

describe('static page content', () => {
  it('STA-01 every static page exists in each of the eleven languages', () => {
    expect(Object.keys(staticPageCatalogues).sort()).toEqual([...LANGUAGES].sort());
    for (const lang of LANGUAGES) {
      const pages = staticPageCatalogues[lang]!;
      expect(Object.keys(pages).sort(), lang).toEqual([...STATIC_PAGES].sort());
      for (const slug of STATIC_PAGES) {
        const page = pages[slug];
        expect(page.title.trim(), `${lang} ${slug} title`).not.toBe('');
        expect(page.intro.trim(), `${lang} ${slug} intro`).not.toBe('');
        for (const text of textsOf(page)) expect(text.trim(), `${lang} ${slug}`).not.toBe('');
      }
    }
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('STA-01 %s has every section and paragraph of English, with the same placeholders', (lang) => {
    const pages = staticPageCatalogues[lang]!;
    for (const slug of STATIC_PAGES) {
      const en = english[slug];
      const other = pages[slug];
      expect(
        other.sections.map((s) => s.id),
        `${lang} ${slug} sections`,
      ).toEqual(en.sections.map((s) => s.id));
      expect(placeholdersIn(other.title), `${lang} ${slug} title`).toEqual(placeholdersIn(en.title));
      expect(placeholdersIn(other.intro), `${lang} ${slug} intro`).toEqual(placeholdersIn(en.intro));
      en.sections.forEach((section, i) => {
        const theirs = other.sections[i]!;
        const where = `${lang} ${slug}#${section.id}`;
        expect(placeholdersIn(theirs.heading), `${where} heading`).toEqual(placeholdersIn(section.heading));
        expect(theirs.paragraphs, `${where} paragraphs`).toHaveLength(section.paragraphs.length);
        section.paragraphs.forEach((p, j) => expect(placeholdersIn(theirs.paragraphs[j]!), `${where} ¶${j + 1}`).toEqual(placeholdersIn(p)));
      });
    }
  });

  it('STA-01 the texts use only known placeholders, and the pages cover what SPEC asks of them', () => {
    const known = new Set<string>(PLACEHOLDERS);
    for (const lang of LANGUAGES) {
      for (const slug of STATIC_PAGES) {
        for (const text of textsOf(staticPageCatalogues[lang]![slug])) {
          for (const name of placeholdersIn(text)) expect(known.has(name), `${lang} ${slug}: {{${name}}}`).toBe(true);
        }
      }
    }
    const used = (slug: (typeof STATIC_PAGES)[number]) => new Set(textsOf(english[slug]).flatMap(placeholdersIn));
    expect([...used('terms')]).toEqual(expect.arrayContaining(['fictional_warning', 'min_age', 'refund_days', 'delete_days', 'kvk', 'vat', 'version_date']));
    expect([...used('cookies')]).toEqual(expect.arrayContaining(['session_days', 'lang_days', 'entry_days', 'tracking_days']));
    expect(english.cookies.sections.map((s) => s.heading)).toEqual(expect.arrayContaining(['session', 'lang', 'entry_ok', 'tracking']));
    expect([...used('return-policy')]).toContain('refund_days');
    expect([...used('service')]).toEqual(expect.arrayContaining(['support_email', 'support_phone', 'address', 'kvk', 'vat']));
    expect(english.faq.sections.length).toBeGreaterThanOrEqual(10);
  });

  it('STA-01 interpolation fills known names and inserts values literally, never re-reading them', () => {
    expect(interpolate('Hi {{site}}, {{ min_age }}+', { site: 'Flirt', min_age: '18' })).toBe('Hi Flirt, 18+');
    expect(interpolate('{{a}} {{b}}', { a: '{{b}}', b: '<script>' })).toBe('{{b}} <script>');
    expect(interpolate('{{unknown}}', {})).toBe('{{unknown}}');
    expect(interpolate('{{toString}}', {})).toBe('{{toString}}');
    expect(interpolate('A service of {{company}}. Welcome', { company: 'Lokaal Media B.V.' })).toBe('A service of Lokaal Media B.V. Welcome');
    expect(interpolate('Run by {{company}}, {{city}}.', { company: 'Lokaal Media B.V.', city: 'Amsterdam' })).toBe('Run by Lokaal Media B.V., Amsterdam.');
  });
});

describe('terms version date', () => {
  it('STA-02 is 2023-12-01 unless the company was added later, then the added date', () => {
    expect(termsVersionDate('2020-01-15')).toBe('2023-12-01');
    expect(termsVersionDate('2023-06-01')).toBe('2023-12-01');
    expect(termsVersionDate('2023-12-01')).toBe('2023-12-01');
    expect(termsVersionDate('2023-12-02')).toBe('2023-12-02');
    expect(termsVersionDate('2025-03-15')).toBe('2025-03-15');
  });
});

describe('with the demo sites', () => {
  let database: Database;
  let kit: SeededDatabase;
  let one: Site;
  let two: Site;

  beforeAll(async () => {
    kit = await seededDatabase({ clock: { now: () => new Date('2026-11-21T12:00:00Z') }, profilesPerSite: 0 });
    database = kit.database;
    const sites = new SiteDirectory(database.db, { now: () => new Date() }, 0);
    one = await sites.forHost('localhost');
    two = await sites.forHost('127.0.0.1');
  });
  afterAll(() => kit?.close());

  it('STA-01 STA-02 a rendered page has every placeholder filled with the site and company values', () => {
    for (const lang of LANGUAGES) {
      for (const slug of STATIC_PAGES) {
        const page = renderStaticPage(slug, lang, one);
        expect(page.lang).toBe(lang);
        for (const text of textsOf(page)) expect(text, `${lang} ${slug}`).not.toMatch(/\{\{/);
      }
    }
    const terms = renderStaticPage('terms', 'en', one);
    const all = textsOf(terms).join('\n');
    expect(all).toContain(one.company.name);
    expect(all).toContain(one.company.kvk);
    // The site's own fictional warning in the page's language (docs/decisions/020-site-texts-per-language.md).
    expect(all).toContain(one.texts.fictional_warning.en);
    expect(all).not.toContain(one.settings.fictional_warning);
    expect(all).toContain(`within ${one.settings.refund_days} days`);
    expect(all).toContain('1 December 2023');
    const service = textsOf(renderStaticPage('service', 'de', two)).join('\n');
    expect(service).toContain(two.settings.support_email);
    expect(service).toContain(two.settings.support_phone);
    expect(service).toContain(two.company.vat_numbers[0]!);
  });

  it('STA-01 token paths are one segment of 3–64 lower-case letters, digits and dashes', () => {
    expect(tokenFromPath('/over-ons')).toBe('over-ons');
    expect(tokenFromPath('/over-ons/')).toBe('over-ons');
    for (const bad of ['/', '/ab', '/Over-Ons', '/a/b', '/over_ons', `/${'a'.repeat(65)}`, '/x%20y']) expect(tokenFromPath(bad), bad).toBeNull();
  });

  it('STA-01 a token page is found in the visitor language, else nl, else the site language', async () => {
    const nl = await findTokenPage(database.db, one.settings, 'over-ons', 'nl');
    expect(nl).toMatchObject({ language: 'nl', title: 'Over ons' });
    expect(nl!.paragraphs.length).toBeGreaterThan(1);
    expect(nl!.paragraphs.join(' ')).toContain(one.settings.name);
    expect(await findTokenPage(database.db, one.settings, 'over-ons', 'en')).toMatchObject({ language: 'en', title: 'About us' });
    expect(await findTokenPage(database.db, one.settings, 'over-ons', 'fr')).toMatchObject({ language: 'nl' });
    // Site 2 has no Dutch text: a French visitor falls through nl to the site's German.
    expect(await findTokenPage(database.db, two.settings, 'ueber-uns', 'fr')).toMatchObject({ language: 'de', title: 'Über uns' });
    expect(await findTokenPage(database.db, two.settings, 'over-ons', 'nl')).toBeNull(); // another site's token
    expect(await findTokenPage(database.db, one.settings, 'no-such-page', 'nl')).toBeNull();
  });

  it('STA-01 an operator page body is split into paragraphs at blank lines', async () => {
    await database.db.insert(tokenPages).values({ siteId: one.settings.id, token: 'actie', language: 'nl', title: 'Actie', body: 'Eerste alinea.\r\n\r\nTweede\nregel twee.\n \n\nDerde.' });
    expect((await findTokenPage(database.db, one.settings, 'actie', 'de'))!.paragraphs).toEqual(['Eerste alinea.', 'Tweede\nregel twee.', 'Derde.']);
    await database.db.delete(tokenPages).where(and(eq(tokenPages.siteId, one.settings.id), eq(tokenPages.token, 'actie')));
    expect(bodyParagraphs('\n\n')).toEqual([]);
  });
});
