import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { photos, profiles, sites, users } from '../../db/schema';
import { listLanderMembers } from './content';
import { bornBy } from './niche';

const clock = new FakeClock();
let kit: SeededDatabase;

beforeAll(async () => {
  kit = await seededDatabase({ clock, profilesPerSite: 24 });
});
afterAll(() => kit?.close());

/** A young man on `siteId`, the most recently active member there, with a public photo. */
async function youngManActiveNow(siteId: number): Promise<number> {
  const [user] = await kit.db
    .insert(users)
    .values({ siteId, email: `young-${siteId}@example.test`, status: 'active', language: 'de', role: 'member', publicProfile: true })
    .returning({ id: users.id });
  const [photo] = await kit.db.select().from(photos).where(eq(photos.status, 'active')).limit(1);
  const [own] = await kit.db
    .insert(photos)
    .values({ userId: user!.id, filename: photo!.filename, thumbFilename: photo!.thumbFilename, status: 'active', width: photo!.width, height: photo!.height })
    .returning({ id: photos.id });
  await kit.db.insert(profiles).values({
    userId: user!.id,
    siteId,
    name: 'Jonas',
    gender: 'male',
    sexuality: 'hetero',
    birthDate: bornBy(clock.now(), 21),
    country: 'DE',
    mainPhotoId: own!.id,
    lastActiveAt: new Date(clock.now().getTime() + 60_000),
  });
  return user!.id;
}

describe('SITE-03 the niche picks whom the landers and the deck open with', () => {
  it('SITE-03 a milf site (niche 6) shows women of 35 and older first, even when a young man was active last', async () => {
    const [site] = await kit.db.select({ id: sites.id, niche: sites.niche }).from(sites).where(eq(sites.niche, 6));
    const young = await youngManActiveNow(site!.id);
    const members = await listLanderMembers(kit.db, { siteId: site!.id, now: clock.now(), limit: 12, niche: 6 });
    expect(members).toHaveLength(12);
    expect(members.map((m) => m.id)).not.toContain(young);
    for (const m of members) {
      expect(m.gender).toBe('female');
      expect(m.age).toBeGreaterThanOrEqual(35);
    }
    // Without a focus (the plain niche) the most recently active member comes first, whoever it is.
    expect((await listLanderMembers(kit.db, { siteId: site!.id, now: clock.now(), limit: 12, niche: 1 }))[0]!.id).toBe(young);
  });

  it('SITE-03 when the niche has too few members of its own, everyone else fills the list after them', async () => {
    const [site] = await kit.db.select({ id: sites.id }).from(sites).where(eq(sites.niche, 6));
    // The gilf focus (women of 60+) finds only a few on a site of 35–62 year olds.
    const members = await listLanderMembers(kit.db, { siteId: site!.id, now: clock.now(), limit: 20, niche: 5 });
    expect(members).toHaveLength(20);
    const firstOutside = members.findIndex((m) => !(m.gender === 'female' && m.age >= 60));
    expect(firstOutside).toBeGreaterThanOrEqual(0);
    expect(members.slice(firstOutside).every((m) => !(m.gender === 'female' && m.age >= 60))).toBe(true);
  });

  it('SITE-03 bornBy gives the last birth date of someone that old, 29 February included', () => {
    expect(bornBy(new Date('2026-11-23T10:00:00Z'), 35)).toBe('1991-11-23');
    expect(bornBy(new Date('2028-02-29T10:00:00Z'), 35)).toBe('1993-02-28');
    expect(bornBy(new Date('2028-02-29T10:00:00Z'), 32)).toBe('1996-02-29');
  });
});
