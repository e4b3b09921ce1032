import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../server/auth/passwords';
import type { Clock } from '../server/clock';
import { LocalPhotoStore, PHOTO_NAME } from '../server/photos/store';
import { siteRowToSettings } from '../server/sites/directory';
import { BODY_TYPES, EYE_COLOURS, GENDERS, HAIR_COLOURS, INTERESTS, RELATIONSHIP_STATUSES, SEXUALITIES, SIGNUP_REASONS, TATTOOS } from '../shared/interests';
import { settingsSchema } from '../shared/settings';
import { openDatabase, type Database, type Db } from '../db/client';
import { companies, creditLedger, photos, profiles, regions, siteHosts, sites, users } from '../db/schema';
import { DEMO_ACCOUNTS, DEMO_PREMIUM_PURCHASE, MAIN_IMAGE, THUMB_IMAGE, planDemoPortraits, seedDemo } from './seed';
import { REGIONS } from './seed-data';
import { createTestDatabase, databaseKinds } from '../../tests/setup/databases';

const FIXED_NOW = new Date('2025-03-15T12:00:00.000Z');
const fixedClock: Clock = { now: () => new Date(FIXED_NOW) };
const PER_SITE = 20;
const DAY = 86_400_000;
const SLOW = 120_000;

const opened: Database[] = [];
const tempDirs: string[] = [];

async function freshDatabase(): Promise<Database> {
  const database = await openDatabase('memory://');
  opened.push(database);
  return database;
}

async function freshStore(): Promise<LocalPhotoStore> {
  const dir = await mkdtemp(join(tmpdir(), 'seed-test-'));
  tempDirs.push(dir);
  return new LocalPhotoStore(dir);
}

async function tableCounts(db: Db): Promise<Record<string, number>> {
  const tables = { companies, sites, siteHosts, regions, users, profiles, photos, creditLedger };
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) counts[name] = await db.$count(table);
  return counts;
}

/** Whole years between a YYYY-MM-DD birth date and `now` (UTC). */
function ageOn(birthDate: string, now: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age--;
  return age;
}

let db: Db;
let store: LocalPhotoStore;

beforeAll(async () => {
  db = (await freshDatabase()).db;
  store = await freshStore();
  const result = await seedDemo({ db, photos: store, clock: fixedClock, profilesPerSite: PER_SITE });
  expect(result).toMatchObject({ created: true, sites: 2, profiles: 2 * (PER_SITE + 2) });
}, SLOW);

afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('seedDemo', () => {
  it('SITE-01 seeds two sites reached by localhost and 127.0.0.1, with different niches and languages and valid settings', async () => {
    const hosts = await db.select().from(siteHosts).orderBy(asc(siteHosts.host));
    expect(Object.fromEntries(hosts.map((h) => [h.host, h.siteId]))).toEqual({ localhost: 1, '127.0.0.1': 2 });

    const rows = await db.select().from(sites).orderBy(asc(sites.id));
    expect(rows.map((s) => s.id)).toEqual([1, 2]);
    const [first, second] = rows as [typeof sites.$inferSelect, typeof sites.$inferSelect];
    expect(first.isDefault).toBe(true);
    expect(second.isDefault).toBe(false);
    expect(first.niche).not.toBe(second.niche);
    expect(second.niche).toBe(6);
    expect(first.domainLanguage).toBe('nl');
    expect(second.domainLanguage).toBe('de');
    expect(first.languages).toHaveLength(11);
    expect(first.countries).toEqual(['NL', 'BE']);
    expect(second.countries).toEqual(['DE', 'AT', 'CH']);
    for (const row of rows) expect(() => settingsSchema.parse(siteRowToSettings(row))).not.toThrow();

    // The id sequences were moved past the explicit ids, so the next site or company gets id 3 / 2.
    const [site3] = await db
      .insert(sites)
      .values({ ...first, id: undefined, isDefault: false, name: 'tmp' })
      .returning({ id: sites.id });
    expect(site3?.id).toBe(3);
    await db.delete(sites).where(eq(sites.id, 3));
    const [company] = await db.select().from(companies);
    expect(company).toMatchObject({ country: 'Nederland', deleteDiscount: 50, added: '2023-06-01' });
    expect(company?.vatNumbers[0]).toMatch(/^NL\d{9}B01$/);
  });

  it('MEM-06 every seeded profile has every attribute filled, from the shared value lists', async () => {
    const rows = await db
      .select({ profile: profiles, user: users, region: regions, site: sites })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .innerJoin(sites, eq(sites.id, profiles.siteId))
      .leftJoin(regions, eq(regions.id, profiles.regionId));
    expect(rows).toHaveLength(2 * (PER_SITE + 2));
    const citiesByRegion = new Map(REGIONS.map((r) => [`${r.country}:${r.code}`, r.cities]));

    for (const { profile: p, user: u, region, site } of rows) {
      expect(p.name.length).toBeGreaterThan(1);
      expect(GENDERS).toContain(p.gender);
      expect(SEXUALITIES).toContain(p.sexuality);
      expect(HAIR_COLOURS).toContain(p.hairColour);
      expect(EYE_COLOURS).toContain(p.eyeColour);
      expect(BODY_TYPES).toContain(p.bodyType);
      expect(RELATIONSHIP_STATUSES).toContain(p.relationshipStatus);
      expect(TATTOOS).toContain(p.tattoos);
      expect(SIGNUP_REASONS).toContain(p.signupReason);
      expect(p.interests.length).toBeGreaterThanOrEqual(3);
      expect(p.interests.length).toBeLessThanOrEqual(8);
      expect(new Set(p.interests).size).toBe(p.interests.length);
      for (const interest of p.interests) expect(INTERESTS).toContain(interest);
      expect(p.about.trim().length).toBeGreaterThan(10);
      expect(p.status).toBe('active');
      expect(p.mainPhotoId).not.toBeNull();

      expect(site.countries).toContain(p.country);
      expect(region?.country).toBe(p.country);
      expect(citiesByRegion.get(`${region?.country}:${region?.code}`)).toContain(p.city);

      const age = ageOn(p.birthDate, FIXED_NOW);
      const [minAge, maxAge] = site.id === 2 ? [35, 62] : [18, 65];
      expect(age).toBeGreaterThanOrEqual(minAge);
      expect(age).toBeLessThanOrEqual(maxAge);

      expect(u.status).toBe('active');
      expect(u.emailConfirmedAt).not.toBeNull();
      expect(u.signupDate.getTime()).toBeLessThan(FIXED_NOW.getTime());
      expect(FIXED_NOW.getTime() - u.signupDate.getTime()).toBeLessThanOrEqual(700 * DAY);
      expect(p.lastActiveAt.getTime()).toBeGreaterThanOrEqual(u.signupDate.getTime());
      expect(FIXED_NOW.getTime() - p.lastActiveAt.getTime()).toBeLessThanOrEqual(14 * DAY);
    }
    // Site 1 mixes genders; the MILF site is mostly women.
    const site1 = rows.filter((r) => r.site.id === 1).map((r) => r.profile.gender);
    const site2 = rows.filter((r) => r.site.id === 2).map((r) => r.profile.gender);
    expect(new Set(site1)).toEqual(new Set(['male', 'female']));
    expect(site2.filter((g) => g === 'female').length).toBeGreaterThan(site2.length / 2);
    // The texts are assembled from fragments, so they are not all the same.
    expect(new Set(rows.map((r) => r.profile.about)).size).toBeGreaterThan(rows.length / 2);
  });

  it('MEM-05 about one in eight members is a fictional profile, a user without password and with role fictional', async () => {
    const rows = await db
      .select({ siteId: profiles.siteId, fictional: profiles.fictional, role: users.role, passwordHash: users.passwordHash })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId));
    for (const siteId of [1, 2]) {
      const fictional = rows.filter((r) => r.siteId === siteId && r.fictional);
      expect(fictional.length).toBeGreaterThanOrEqual(1);
      expect(fictional.length).toBeLessThanOrEqual(Math.ceil(PER_SITE * 0.2));
    }
    for (const row of rows) {
      expect(row.role === 'fictional').toBe(row.fictional);
      if (row.fictional) expect(row.passwordHash).toBeNull();
    }
  });

  it('stores a main image and a thumbnail for every photo, real WebP files of the expected size', { timeout: SLOW }, async () => {
    const rows = await db.select().from(photos);
    expect(rows.length).toBeGreaterThan(2 * (PER_SITE + 2)); // some profiles have extra photos
    expect(rows.some((p) => p.premium)).toBe(true);
    const mainIds = new Set((await db.select({ id: profiles.mainPhotoId }).from(profiles)).map((r) => r.id));
    for (const photo of rows) {
      expect(photo.status).toBe('active');
      expect(photo.filename).toMatch(PHOTO_NAME);
      expect(photo.thumbFilename).toMatch(PHOTO_NAME);
      expect(photo.filename).not.toBe(photo.thumbFilename);
      expect({ width: photo.width, height: photo.height }).toEqual(MAIN_IMAGE);
      for (const [name, size] of [
        [photo.filename, MAIN_IMAGE],
        [photo.thumbFilename, THUMB_IMAGE],
      ] as const) {
        const file = await store.get(name);
        expect(file, name).not.toBeNull();
        const meta = await sharp(file!.body).metadata();
        expect(meta.format).toBe('webp');
        expect({ width: meta.width, height: meta.height }).toEqual(size);
      }
    }
    // Every profile's main photo is one of its own rows.
    for (const id of mainIds) expect(rows.some((p) => p.id === id)).toBe(true);
  });

  it('MEM-06 members can be told apart: the main photos of a site all differ, in colours as well as bytes', { timeout: SLOW }, async () => {
    const mains = await db
      .select({ userId: photos.userId, filename: photos.filename, id: photos.id })
      .from(profiles)
      .innerJoin(photos, eq(photos.id, profiles.mainPhotoId))
      .where(eq(profiles.siteId, 1));
    const digests = new Set<string>();
    const colours = new Set<string>();
    for (const m of mains) {
      const file = await store.get(m.filename);
      digests.add(createHash('sha1').update(file!.body).digest('hex'));
      // The colour at the centre of the face and of the background corner, coarsely: people and settings vary.
      const { data } = await sharp(file!.body).resize(12, 15, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
      colours.add(`${data[0]! >> 5}${data[1]! >> 5}${data[2]! >> 5}`);
    }
    expect(digests.size).toBe(mains.length);
    expect(colours.size).toBeGreaterThanOrEqual(5);
  });

  it('MEM-06 the seed plans one person per member on all their photos, and 24 members are 24 different people', () => {
    const plans = planDemoPortraits(24, fixedClock.now());
    expect(planDemoPortraits(24, fixedClock.now())).toEqual(plans); // same seed, same art
    for (const siteId of [1, 2]) {
      const members = plans.filter((p) => p.siteId === siteId);
      expect(members).toHaveLength(24);
      const several = members.filter((m) => m.photos.length > 1);
      expect(several.length).toBeGreaterThan(0);
      for (const m of several) {
        for (const photo of m.photos.slice(1)) expect(photo.person).toEqual(m.photos[0]!.person);
        expect(new Set(m.photos.map((photo) => `${photo.style}${photo.scene}${photo.hue}${photo.clothing}`)).size).toBe(m.photos.length);
      }
      const people = members.map((m) => m.photos[0]!.person);
      // Who they are at a glance: skin, hair colour and style, age cues, glasses, beard, earrings, head and shoulders.
      expect(new Set(people.map((p) => JSON.stringify(p))).size).toBe(24);
      expect(new Set(people.map((p) => p.skin)).size).toBeGreaterThanOrEqual(4);
      expect(new Set(people.map((p) => p.hairStyle)).size).toBeGreaterThanOrEqual(5);
      expect(new Set(members.map((m) => m.photos[0]!.scene)).size).toBeGreaterThanOrEqual(6);
      expect(new Set(members.map((m) => m.photos[0]!.style)).size).toBe(4);
      for (const m of members) {
        const p = m.photos[0]!.person;
        expect(p.female).toBe(m.gender === 'female');
        if (p.female) expect(p.beard).toBe('none');
      }
    }
  });

  it('creates a free and a premium demo account on each site; credits equal the ledger sum', { timeout: SLOW }, async () => {
    const siteRows = await db.select().from(sites);
    for (const site of siteRows) {
      for (const kind of ['free', 'premium'] as const) {
        const [user] = await db
          .select()
          .from(users)
          .where(eq(users.email, DEMO_ACCOUNTS[kind].email))
          .then((list) => list.filter((u) => u.siteId === site.id));
        expect(user, `${kind} on site ${site.id}`).toBeDefined();
        if (!user) continue;
        expect(user).toMatchObject({ role: 'member', status: 'active', paidUser: kind === 'premium' });
        expect(user.emailConfirmedAt).not.toBeNull();
        const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
        const sum = ledger.reduce((total, entry) => total + entry.delta, 0);
        expect(user.credits).toBe(sum);
        expect(ledger.find((e) => e.reason === 'signup_credits')?.delta).toBe(site.signupCredits);
        if (kind === 'premium') {
          expect(ledger.find((e) => e.reason === 'purchase')?.delta).toBe(DEMO_PREMIUM_PURCHASE);
          expect(user.credits).toBe(site.signupCredits + DEMO_PREMIUM_PURCHASE);
        } else {
          expect(ledger).toHaveLength(1);
        }
        const [profile] = await db.select().from(profiles).where(eq(profiles.userId, user.id));
        expect(profile?.mainPhotoId).not.toBeNull();
        expect(profile?.fictional).toBe(false);
        expect(await verifyPassword(user.passwordHash ?? '', DEMO_ACCOUNTS[kind].password)).toBe(true);
      }
    }
    const names = await db.select({ siteId: profiles.siteId, name: profiles.name, email: users.email }).from(profiles).innerJoin(users, eq(users.id, profiles.userId));
    const demoNames = names
      .filter((n) => n.email.endsWith('@demo.test'))
      .map((n) => `${n.siteId}:${n.name}`)
      .sort();
    expect(demoNames).toEqual(['1:Mark', '1:Sanne', '2:Petra', '2:Thomas']);
  });

  it('is idempotent: a second call returns created:false and changes no row', { timeout: SLOW }, async () => {
    const before = await tableCounts(db);
    const again = await seedDemo({ db, photos: store, clock: { now: () => new Date() }, profilesPerSite: 50 });
    expect(again).toEqual({ created: false, sites: 0, profiles: 0, photos: 0 });
    expect(await tableCounts(db)).toEqual(before);
  });

  it('is deterministic: two fresh databases seeded with the same clock hold identical rows', { timeout: SLOW }, async () => {
    const other = (await freshDatabase()).db;
    const result = await seedDemo({ db: other, photos: await freshStore(), clock: fixedClock, profilesPerSite: PER_SITE });
    expect(result.created).toBe(true);
    const dump = async (d: Db) => ({
      profiles: await d.select().from(profiles).orderBy(asc(profiles.userId)),
      photos: await d.select().from(photos).orderBy(asc(photos.id)),
      regions: await d.select().from(regions).orderBy(asc(regions.id)),
      ledger: await d.select().from(creditLedger).orderBy(asc(creditLedger.id)),
      // The argon2 hash has a random salt; every other column must match.
      users: (await d.select().from(users).orderBy(asc(users.id))).map(({ passwordHash, ...rest }) => ({ ...rest, hasPassword: passwordHash !== null })),
    });
    const [a, b] = await Promise.all([dump(db), dump(other)]);
    expect(a.profiles.length).toBe(2 * (PER_SITE + 2));
    expect(b).toEqual(a);
  });

  it('leaves no row behind when the seed fails inside its transaction', { timeout: SLOW }, async () => {
    const broken = (await freshDatabase()).db;
    // Make the profile insert fail, after the company, sites, regions, users and photos went in.
    await broken.execute(sql`create function seed_test_fail() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$`);
    await broken.execute(sql`create trigger seed_test_fail before insert on profiles for each row execute function seed_test_fail()`);
    const failure: unknown = await seedDemo({ db: broken, photos: store, clock: fixedClock, profilesPerSite: PER_SITE }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).cause ?? failure)).toMatch(/boom/); // drizzle wraps the database error
    expect(await tableCounts(broken)).toEqual({ companies: 0, sites: 0, siteHosts: 0, regions: 0, users: 0, profiles: 0, photos: 0, creditLedger: 0 });
  });

  it('keeps regions that exist already and still places every profile in a region', { timeout: SLOW }, async () => {
    const other = (await freshDatabase()).db;
    const [existing] = await other.insert(regions).values({ country: 'NL', code: 'NH', name: 'Noord-Holland', lat: 525800, lon: 48700 }).returning();
    await seedDemo({ db: other, photos: store, clock: fixedClock, profilesPerSite: 5 });
    expect(await other.$count(regions)).toBe(REGIONS.length);
    const sanne = await other.select({ regionId: profiles.regionId }).from(profiles).where(eq(profiles.name, 'Sanne'));
    expect(sanne).toEqual([{ regionId: existing?.id }]); // Sanne lives in Noord-Holland
  });
});

// The PostgreSQL leg runs when the server answers (tests/setup/global.ts says which legs ran).
describe.each((await databaseKinds()).filter((k) => k === 'postgres'))('seedDemo on %s', () => {
  it('two processes seeding one empty database at once create the demo exactly once', { timeout: SLOW }, async () => {
    const target = await createTestDatabase('postgres');
    try {
      // Opened one after the other: openDatabase migrates, and that is not what is raced here.
      const a = await openDatabase(target.url);
      const b = await openDatabase(target.url);
      try {
        const results = await Promise.all([
          seedDemo({ db: a.db, photos: await freshStore(), clock: fixedClock, profilesPerSite: PER_SITE }),
          seedDemo({ db: b.db, photos: await freshStore(), clock: fixedClock, profilesPerSite: PER_SITE }),
        ]);
        expect(results.map((r) => r.created).sort()).toEqual([false, true]);
        expect(await tableCounts(a.db)).toEqual(await tableCounts(db));
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    } finally {
      await target.drop();
    }
  });
});
