/** Regions as reference data (MEM-07, decision 032): read once per database handle, not per page. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { regions } from '../../db/schema';
import { allRegions, countryName, findRegion, listRegions } from './places';

let kit: SeededDatabase;
beforeAll(async () => {
  kit = await seededDatabase({ profilesPerSite: 2 });
});
afterAll(() => kit?.close());

describe('regions', () => {
  it('MEM-07 PERF-01 the regions are read from the database once per handle, however often a page asks', async () => {
    const first = await allRegions(kit.db);
    expect(first.length).toBeGreaterThan(0);
    // A region written behind the directory's back (only the seed writes regions, before the server
    // listens) is not seen: every later question is answered from the first read.
    await kit.db.insert(regions).values({ country: 'NL', code: 'ZZ-TEST', name: 'Testland', lat: 520000, lon: 50000 });
    expect(await allRegions(kit.db)).toEqual(first);
    expect((await listRegions(kit.db, ['NL'])).some((r) => r.code === 'ZZ-TEST')).toBe(false);
    expect(await findRegion(kit.db, first[0]!.id)).toEqual(first[0]);
    expect(allRegions(kit.db)).toBe(allRegions(kit.db));
  });
});

describe('country names', () => {
  it('MEM-03 a country is named in the page language, and a code with no name stays a code', () => {
    expect(countryName('NL', 'nl')).toBe('Nederland');
    expect(countryName('BE', 'en')).toBe('Belgium');
    expect(countryName('DE', 'de')).toBe('Deutschland');
    expect(countryName('not-a-code', 'nl')).toBe('not-a-code');
  });
});
