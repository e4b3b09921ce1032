/** A site's own texts per language (I18N-01, MEM-05, LND-01), loaded from a real database (in-memory PGlite). */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { sites } from '../../db/schema';
import { DEMO_SITES } from '../../demo/seed-data';
import { SITE_TEXT_FIELDS } from '../../shared/site-texts';
import type { SiteDirectory } from './directory';
import { localiseSite, siteText } from './texts';

let kit: SeededDatabase;
let directory: SiteDirectory;

beforeAll(async () => {
  kit = await seededDatabase();
  directory = kit.sites;
});
afterAll(() => kit?.close());

describe('site texts per language', () => {
  it('I18N-01 MEM-05 LND-01 in English both demo sites show English texts; in their own language their own texts', async () => {
    const flirt = await directory.forId(1);
    const reife = await directory.forId(2);
    const flirtEn = localiseSite(flirt, 'en').settings;
    expect(flirtEn.index_title).toBe('Flirtlokaal – flirting and dating with singles from the Netherlands and Belgium');
    expect(flirtEn.fictional_singular).toBe('fictional profile');
    expect(flirtEn.fictional_warning).toMatch(/^Profiles with this icon are fictional profiles\./);
    const reifeEn = localiseSite(reife, 'en').settings;
    expect(reifeEn.index_title).toBe('Reife Kontakte – flirts and dates with mature women');
    expect(reifeEn.fictional_plural).toBe('fictional profiles');
    expect(localiseSite(reife, 'nl').settings.fictional_singular).toBe('fictief profiel');
    // The own language is the row's columns.
    expect(localiseSite(flirt, 'nl').settings.index_title).toBe(flirt.settings.index_title);
    expect(localiseSite(reife, 'de').settings.fictional_warning).toBe(reife.settings.fictional_warning);
    // Everything else is untouched.
    expect({ ...flirtEn, index_title: '', description: '', fictional_warning: '', fictional_singular: '', fictional_plural: '' }).toEqual({
      ...flirt.settings,
      index_title: '',
      description: '',
      fictional_warning: '',
      fictional_singular: '',
      fictional_plural: '',
    });
  });

  it('I18N-01 every demo site has every text in every language it offers (the seed)', async () => {
    for (const demo of DEMO_SITES) {
      const site = await directory.forId(demo.row.id);
      for (const lang of site.settings.languages) {
        for (const field of SITE_TEXT_FIELDS) expect(site.texts[field][lang], `${site.settings.name} ${field} ${lang}`).toBeTruthy();
      }
    }
  });

  it('I18N-01 MEM-05 a language without a text falls back to the site’s own (domain_language) text', async () => {
    const reife = await directory.forId(2);
    // fr is not one of Reife Kontakte's languages and has no translation.
    expect(localiseSite(reife, 'fr').settings.index_title).toBe(reife.settings.index_title);
    // One English text removed: that field falls back, the others stay English.
    const [row] = await kit.db.select({ texts: sites.texts }).from(sites).where(eq(sites.id, 2));
    const { en: _removed, ...rest } = row!.texts.fictional_warning!;
    await kit.db
      .update(sites)
      .set({ texts: { ...row!.texts, fictional_warning: rest } })
      .where(eq(sites.id, 2));
    try {
      const reloaded = localiseSite(await directory.forId(2), 'en').settings;
      expect(reloaded.fictional_warning).toBe(reife.settings.fictional_warning);
      expect(reloaded.fictional_singular).toBe('fictional profile');
    } finally {
      await kit.db.update(sites).set({ texts: row!.texts }).where(eq(sites.id, 2));
    }
  });

  it('I18N-01 the site’s own column wins over a translation stored under its own language', async () => {
    const [row] = await kit.db.select({ texts: sites.texts }).from(sites).where(eq(sites.id, 1));
    await kit.db
      .update(sites)
      .set({ texts: { ...row!.texts, index_title: { ...row!.texts.index_title, nl: 'iets anders' } } })
      .where(eq(sites.id, 1));
    try {
      const site = await directory.forId(1);
      expect(siteText(site, 'index_title', 'nl')).toBe(site.settings.index_title);
      expect(localiseSite(site, 'nl').settings.index_title).not.toBe('iets anders');
    } finally {
      await kit.db.update(sites).set({ texts: row!.texts }).where(eq(sites.id, 1));
    }
  });

  it('I18N-01 localising is kept per site and language, and a localised site localises again correctly', async () => {
    const flirt = await directory.forId(1);
    expect(localiseSite(flirt, 'de')).toBe(localiseSite(flirt, 'de'));
    const viaEnglish = localiseSite(localiseSite(flirt, 'en'), 'sv');
    expect(viaEnglish.settings).toEqual(localiseSite(flirt, 'sv').settings);
    expect(localiseSite(localiseSite(flirt, 'en'), 'nl').settings.index_title).toBe(flirt.settings.index_title);
  });

  it('I18N-01 a texts column with an unknown language or an empty text is reported when the site loads', async () => {
    const [row] = await kit.db.select({ texts: sites.texts }).from(sites).where(eq(sites.id, 2));
    for (const bad of [{ index_title: { xx: 'Hallo' } }, { description: { en: '  ' } }, { name: { en: 'Mature' } }]) {
      await kit.db
        .update(sites)
        .set({ texts: bad as never })
        .where(eq(sites.id, 2));
      await expect(directory.forId(2)).rejects.toThrow();
    }
    await kit.db.update(sites).set({ texts: row!.texts }).where(eq(sites.id, 2));
    await expect(directory.forId(2)).resolves.toBeTruthy();
  });
});
