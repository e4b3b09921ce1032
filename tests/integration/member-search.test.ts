/** Member search service (MEM-01, MEM-02, MEM-05, MEM-07) on PGlite, and its indexes on PostgreSQL. */
import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { profiles, regions, users } from '../../src/db/schema';
import { seedDemo } from '../../src/demo/seed';
import { ageOn } from '../../src/server/members/listing';
import { wantedGenders } from '../../src/server/members/matches';
import { SearchValidationError, encodeCursor, parseSearchParams, searchMembers, searchQuery, visitorMaySearch, type SearchFilters } from '../../src/server/members/search';
import { LocalPhotoStore } from '../../src/server/photos/store';
import { createTestDatabase, postgresAvailable } from '../setup/databases';
import { FakeClock, TEST_EPOCH, seededDatabase, type SeededDatabase } from '../setup/kit';

const q = (s: string) => parseSearchParams(new URLSearchParams(s));
const visitor = { siteId: 1, userId: null };

describe('member search', () => {
  let kit: SeededDatabase;
  const now = TEST_EPOCH;
  beforeAll(async () => {
    kit = await seededDatabase({ clock: new FakeClock(TEST_EPOCH), profilesPerSite: 120 });
  });
  afterAll(() => kit?.close());

  it('MEM-01 bad filters are a validation error (400), never a crash', async () => {
    const bad = [
      'minAge=-1',
      'minAge=abc',
      'minAge=40&maxAge=30',
      'maxAge=200',
      'gender=robot',
      `gender=${'x'.repeat(10_000)}`,
      `country=${'x'.repeat(10_000)}`,
      'country=1',
      `cursor=${'a'.repeat(10_000)}`,
      'cursor=%00',
      'region=-3',
      'region=1.5',
    ];
    for (const b of bad) {
      let err: unknown;
      try {
        await searchMembers(kit.db, { viewer: visitor, filters: q(b), now });
      } catch (e) {
        err = e;
      }
      expect(err, b).toBeInstanceOf(SearchValidationError);
      expect((err as SearchValidationError).status).toBe(400);
    }
    // Well-formed but unknown: a country without regions, a region id that does not exist, a cursor that decodes to nothing.
    for (const b of ['country=ZZ', 'region=999999', 'cursor=abc']) {
      await expect(searchMembers(kit.db, { viewer: visitor, filters: q(b), now }), b).rejects.toBeInstanceOf(SearchValidationError);
    }
    const [region] = await kit.db.select().from(regions).where(eq(regions.country, 'NL')).limit(1);
    await expect(searchMembers(kit.db, { viewer: visitor, filters: q(`country=DE&region=${region!.id}`), now })).rejects.toThrow(/not in that country/);
  });

  it('MEM-01 MEM-05 every card fits gender, country and age; fictional profiles keep their flag', async () => {
    const result = await searchMembers(kit.db, { viewer: visitor, filters: q('gender=female&country=NL&minAge=25&maxAge=45'), now, perPage: 60 });
    expect(result.cards.length).toBeGreaterThan(0);
    const rows = await kit.db
      .select()
      .from(profiles)
      .where(
        inArray(
          profiles.userId,
          result.cards.map((c) => c.id),
        ),
      );
    for (const r of rows) {
      expect(r.gender).toBe('female');
      expect(r.country).toBe('NL');
      const age = ageOn(r.birthDate, now);
      expect(age).toBeGreaterThanOrEqual(25);
      expect(age).toBeLessThanOrEqual(45);
    }
    const byId = new Map(rows.map((r) => [r.userId, r.fictional]));
    for (const c of result.cards) expect(c.fictional).toBe(byId.get(c.id));
    const all = await searchMembers(kit.db, { viewer: visitor, filters: q(''), now, perPage: 60 });
    expect(all.cards.some((c) => c.fictional)).toBe(true);
  });

  it('MEM-01 HON-02 keyset pages walk the whole result once in (last active, id) order (a visitor: the members shown in public)', async () => {
    const filters: SearchFilters = q('gender=male&gender=female&country=NL');
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await searchMembers(kit.db, { viewer: visitor, filters: { ...filters, cursor }, now, perPage: 7 });
      expect(page.cards.length).toBeLessThanOrEqual(7);
      seen.push(...page.cards.map((c) => c.id));
      cursor = page.next ?? undefined;
      pages++;
    } while (cursor !== undefined && pages < 100);
    const expected = await kit.db
      .select({ id: users.id })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(
        and(
          eq(profiles.siteId, 1),
          eq(profiles.country, 'NL'),
          eq(profiles.status, 'active'),
          eq(users.status, 'active'),
          eq(users.invisible, false),
          or(eq(users.publicProfile, true), eq(profiles.fictional, true)),
        ),
      )
      .orderBy(sql`${profiles.lastActiveAt} desc, ${users.id} desc`);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(expected.map((e) => e.id));
  });

  it('MEM-01 a member’s defaults are their own looking-for and region; the member never finds themself', async () => {
    const [me] = await kit.db
      .select({ id: users.id, gender: profiles.gender, sexuality: profiles.sexuality, regionId: profiles.regionId })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.siteId, 1), eq(users.role, 'member'), isNotNull(profiles.regionId)))
      .limit(1);
    const result = await searchMembers(kit.db, { viewer: { siteId: 1, userId: me!.id }, filters: q(''), now, perPage: 60 });
    expect(result.filters.gender).toEqual(wantedGenders(me!.gender, me!.sexuality));
    expect(result.filters.region).toBe(me!.regionId);
    expect([...result.cards, ...(result.similar?.cards ?? [])].map((c) => c.id)).not.toContain(me!.id);
  });

  it('MEM-07 few results bring similar ones, saying how the search was widened', async () => {
    const [region] = await kit.db
      .select({ id: profiles.regionId, n: sql<number>`count(*)::int` })
      .from(profiles)
      .where(and(eq(profiles.siteId, 1), isNotNull(profiles.regionId)))
      .groupBy(profiles.regionId)
      .orderBy(sql`count(*) desc`)
      .limit(1);
    const [one] = await kit.db.select({ birthDate: profiles.birthDate }).from(profiles).where(eq(profiles.regionId, region!.id!)).limit(1);
    const age = ageOn(one!.birthDate, now);
    const result = await searchMembers(kit.db, { viewer: visitor, filters: q(`region=${region!.id}&minAge=${age}&maxAge=${age}`), now });
    expect(result.cards.length).toBeLessThan(6);
    expect(result.similar).not.toBeNull();
    expect(result.similar!.widened[0]).toBe('age');
    expect(result.similar!.cards.length).toBeGreaterThan(0);
    const ids = new Set(result.cards.map((c) => c.id));
    for (const c of result.similar!.cards) expect(ids.has(c.id)).toBe(false);
    const plenty = await searchMembers(kit.db, { viewer: visitor, filters: q('gender=male&gender=female'), now });
    expect(plenty.similar).toBeNull();
  });

  it('MEM-02 visitors may search with logged_out_search, or with logged_out_search_trafficsource and a tracking record', () => {
    expect(visitorMaySearch({ logged_out_search: true, logged_out_search_trafficsource: false }, null)).toBe(true);
    expect(visitorMaySearch({ logged_out_search: false, logged_out_search_trafficsource: true }, { source: 'ad' })).toBe(true);
    expect(visitorMaySearch({ logged_out_search: false, logged_out_search_trafficsource: true }, null)).toBe(false);
    expect(visitorMaySearch({ logged_out_search: false, logged_out_search_trafficsource: false }, { source: 'ad' })).toBe(false);
  });

  it('MEM-01 a cursor is opaque and round-trips', () => {
    const c = encodeCursor({ us: '1763726400123456', id: 42 });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(q(`cursor=${c}`).cursor).toBe(c);
  });
});

describe('member search indexes on PostgreSQL', async () => {
  const available = await postgresAvailable();
  it('MEM-01 VER-01 the filtered, sorted search query uses an index, not a sequential scan of profiles (verified only: its partial index)', async () => {
    expect(available, 'PostgreSQL must answer at TEST_POSTGRES_URL').toBe(true);
    const testDb = await createTestDatabase('postgres');
    const database = await openDatabase(testDb.url);
    const photoDir = await import('node:fs/promises').then((fs) => fs.mkdtemp('/tmp/search-photos-'));
    try {
      const clock = new FakeClock(TEST_EPOCH);
      await seedDemo({ db: database.db, photos: new LocalPhotoStore(photoDir), clock, profilesPerSite: 0 });
      const [nl] = await database.db.select().from(regions).where(eq(regions.country, 'NL')).limit(1);
      // 6,000 members on site 1 over two countries, both genders, ages 18..77, active over the last 60 days.
      await database.db.execute(sql`
        with u as (
          insert into users (site_id, email, status, language, role)
          select 1, 'gen' || g || '@search.test', 'active', 'en', 'member' from generate_series(1, 6000) g
          returning id
        )
        insert into profiles (user_id, site_id, name, gender, sexuality, birth_date, country, region_id, last_active_at)
        select id, 1, 'M' || id, case when id % 2 = 0 then 'male' else 'female' end, 'hetero',
               date '2008-01-01' - ((id % 60) * 365), case when id % 3 = 0 then 'DE' else 'NL' end,
               case when id % 3 = 0 then null else ${nl!.id}::int end,
               timestamptz '2026-11-21' - (id % 86400) * interval '1 minute'
        from u`);
      await database.db.execute(sql`analyze`);
      const client = postgres(testDb.url, { max: 1, onnotice: () => {} });
      try {
        const cases: Array<Parameters<typeof searchQuery>[2]> = [
          { gender: ['female'], minAge: 25, maxAge: 40 },
          { gender: ['male', 'female'], country: 'NL', minAge: 18, maxAge: 99 },
          { gender: ['female'], country: 'NL', region: nl!.id, minAge: 30, maxAge: 35 },
          // VER-01: "verified only" reads the partial index of the few verified members.
          { gender: ['male', 'female'], minAge: 18, maxAge: 99, verified: true },
        ];
        for (const n of cases) {
          const query = searchQuery(database.db, { siteId: 1, userId: null }, n, TEST_EPOCH, { us: '1763600000000000', id: 3000 }, 25).toSQL();
          const plan = (await client.unsafe(`explain ${query.sql}`, query.params as never[])).map((r) => String(r['QUERY PLAN'])).join('\n');
          expect(plan, plan).toMatch(/Index (Only )?Scan[^\n]* on profiles/);
          expect(plan, plan).not.toMatch(/Seq Scan on profiles/);
          if (n.verified) expect(plan, plan).toMatch(/profiles_search_verified/);
        }
      } finally {
        await client.end();
      }
    } finally {
      await database.close();
      await testDb.drop();
      await import('node:fs/promises').then((fs) => fs.rm(photoDir, { recursive: true, force: true }));
    }
  }, 120_000);
});
