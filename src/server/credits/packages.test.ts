/** Credit packages (PREM-01): the marketing seed, the listing and the price display, against a real database. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { creditPackages, sites, tokenPages } from '../../db/schema';
import { DEMO_PACKAGES, ensureMarketingContent } from '../../demo/seed-marketing';
import { bestValuePackage, formatMoney, formatNumber, listPackages } from './packages';

let database: Database;
let kit: SeededDatabase;

beforeAll(async () => {
  kit = await seededDatabase({ clock: { now: () => new Date('2026-11-21T12:00:00Z') }, profilesPerSite: 0 });
  database = kit.database;
});
afterAll(() => kit?.close());

async function siteIds() {
  return (await database.db.select({ id: sites.id, domain: sites.domain }).from(sites).orderBy(sites.id)).map((s) => s);
}

describe('marketing seed', () => {
  it('PREM-01 STA-01 the demo seed gives each site 4–5 EUR packages, one highlighted, and a token page', async () => {
    for (const site of await siteIds()) {
      const rows = await database.db.select().from(creditPackages).where(eq(creditPackages.siteId, site.id));
      expect(rows.length, site.domain).toBeGreaterThanOrEqual(4);
      expect(rows.length, site.domain).toBeLessThanOrEqual(5);
      expect(rows.every((r) => r.currency === 'EUR' && r.active)).toBe(true);
      expect(rows.filter((r) => r.highlighted)).toHaveLength(1);
      expect(rows.map((r) => r.credits)).toEqual(DEMO_PACKAGES[site.domain]!.map((p) => p.credits));
      expect(await database.db.$count(tokenPages, eq(tokenPages.siteId, site.id))).toBeGreaterThan(0);
    }
  });

  it('PREM-01 ensureMarketingContent is idempotent and fills only sites that have nothing', async () => {
    const before = { packages: await database.db.$count(creditPackages), pages: await database.db.$count(tokenPages) };
    expect(await ensureMarketingContent(database.db)).toEqual({ packageSites: [], tokenPageSites: [] });
    expect({ packages: await database.db.$count(creditPackages), pages: await database.db.$count(tokenPages) }).toEqual(before);

    // An operator who replaced site 2's packages with their own keeps them; site 1, emptied, is refilled.
    const [one, two] = await siteIds();
    await database.db.delete(creditPackages).where(eq(creditPackages.siteId, one!.id));
    await database.db.delete(creditPackages).where(eq(creditPackages.siteId, two!.id));
    await database.db.insert(creditPackages).values({ siteId: two!.id, credits: 999, priceCents: 999, currency: 'EUR' });
    await database.db.delete(tokenPages).where(eq(tokenPages.siteId, one!.id));
    expect(await ensureMarketingContent(database.db)).toEqual({ packageSites: [one!.id], tokenPageSites: [one!.id] });
    expect((await listPackages(database.db, two!.id)).map((p) => p.credits)).toEqual([999]);
    expect(await listPackages(database.db, one!.id)).toHaveLength(DEMO_PACKAGES[one!.domain]!.length);

    await database.db.delete(creditPackages).where(eq(creditPackages.siteId, two!.id));
    await ensureMarketingContent(database.db);
  });
});

describe('listPackages', () => {
  it('PREM-01 lists a site’s active packages in order with the price per credit and the saving', async () => {
    const [one, two] = await siteIds();
    const list = await listPackages(database.db, one!.id);
    expect(list.map((p) => p.credits)).toEqual([50, 125, 300, 650, 1200]);
    expect(list[0]).toMatchObject({ credits: 50, priceCents: 995, currency: 'EUR', centsPerCredit: 19.9, savingPercent: 0 });
    expect(list[2]!.highlighted).toBe(true);
    // The best value is the lowest price per credit (the 1,200), whichever package the staff picked.
    expect(list.filter((p) => p.bestValue).map((p) => p.credits)).toEqual([1200]);
    // Bigger packages are cheaper per credit, so they save against the dearest.
    expect(list[4]!.savingPercent).toBe(Math.floor((1 - 12_995 / 1200 / 19.9) * 100));
    for (let i = 1; i < list.length; i++) expect(list[i]!.centsPerCredit).toBeLessThan(list[i - 1]!.centsPerCredit);

    await database.db.update(creditPackages).set({ active: false }).where(eq(creditPackages.id, list[0]!.id));
    expect((await listPackages(database.db, one!.id)).map((p) => p.credits)).toEqual([125, 300, 650, 1200]);
    await database.db.update(creditPackages).set({ active: true }).where(eq(creditPackages.id, list[0]!.id));

    const other = await listPackages(database.db, two!.id);
    expect(other.map((p) => p.id)).not.toContain(list[0]!.id);
    expect(await listPackages(database.db, 9999)).toEqual([]);
  });

  it('PREM-01 prices are written in the visitor’s language with the currency', () => {
    const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
    expect(nbsp(formatMoney(1995, 'EUR', 'nl'))).toBe('€ 19,95');
    expect(nbsp(formatMoney(1995, 'EUR', 'de'))).toBe('19,95 €');
    expect(formatMoney(1995, 'EUR', 'en')).toBe('€19.95');
    expect(nbsp(formatMoney(32, 'CHF', 'de'))).toBe('0,32 CHF');
    expect(formatMoney(19.9, 'EUR', 'en')).toBe('€0.20');
    expect(formatNumber(1200, 'de')).toBe('1.200');
    expect(formatNumber(1200, 'en')).toBe('1,200');
  });
});

describe('PREM-01 the best-value mark is computed from the packages', () => {
  it('marks the lowest price per credit, none for one package or a tie', () => {
    expect(
      bestValuePackage([
        { id: 1, centsPerCredit: 20 },
        { id: 2, centsPerCredit: 15 },
        { id: 3, centsPerCredit: 17 },
      ]),
    ).toBe(2);
    expect(bestValuePackage([{ id: 1, centsPerCredit: 20 }])).toBeNull();
    expect(
      bestValuePackage([
        { id: 1, centsPerCredit: 15 },
        { id: 2, centsPerCredit: 15 },
      ]),
    ).toBeNull();
  });
});
