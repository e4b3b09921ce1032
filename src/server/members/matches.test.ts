/** Signup matches (GAME-03) against a real (in-memory PGlite) database with hand-made profiles. */
import { eq, like, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { photos, profiles, sites, users } from '../../db/schema';
import type { Clock } from '../clock';
import { birthDateRange, findSignupMatches, wantedGenders } from './matches';

const NOW = new Date('2026-11-21T12:00:00Z');
const clock: Clock = { now: () => NOW };
let database: Database;
let kit: SeededDatabase;
let siteId: number;
let otherSiteId: number;
let n = 0;

interface Spec {
  gender: 'male' | 'female';
  sexuality?: 'hetero' | 'gay' | 'lesbian' | 'bi';
  birthDate: string;
  country?: string;
  photo?: boolean;
  site?: number;
  profileStatus?: 'active' | 'disabled';
  userStatus?: 'active' | 'not_confirmed' | 'deleted';
  invisible?: boolean;
  lastActive?: string;
}

async function member(spec: Spec): Promise<number> {
  n++;
  const site = spec.site ?? siteId;
  const [user] = await database.db
    .insert(users)
    .values({ siteId: site, email: `match-${n}@example.com`, status: spec.userStatus ?? 'active', language: 'nl', invisible: spec.invisible ?? false })
    .returning({ id: users.id });
  const id = user!.id;
  let mainPhotoId: number | null = null;
  if (spec.photo) {
    const [p] = await database.db
      .insert(photos)
      .values({ userId: id, filename: `m${id}-main.webp`, thumbFilename: `m${id}-thumb.webp`, status: 'active', width: 480, height: 600 })
      .returning({ id: photos.id });
    mainPhotoId = p!.id;
  }
  await database.db.insert(profiles).values({
    userId: id,
    siteId: site,
    name: `Member ${n}`,
    status: spec.profileStatus ?? 'active',
    gender: spec.gender,
    sexuality: spec.sexuality ?? 'hetero',
    birthDate: spec.birthDate,
    country: spec.country ?? 'NL',
    mainPhotoId,
    lastActiveAt: new Date(spec.lastActive ?? '2026-11-20T12:00:00Z'),
  });
  return id;
}

beforeAll(async () => {
  kit = await seededDatabase({ clock: clock, profilesPerSite: 0 });
  database = kit.database;
  const [one] = await database.db.select({ id: sites.id }).from(sites).where(eq(sites.isDefault, true));
  const [two] = await database.db.select({ id: sites.id }).from(sites).where(ne(sites.id, one!.id));
  siteId = one!.id;
  otherSiteId = two!.id;
  // The demo accounts stay out of the way of these hand-made members.
  await database.db.update(users).set({ invisible: true }).where(like(users.email, '%@demo.test'));
});
afterAll(() => kit?.close());

const ids = (cards: Array<{ id: number }>) => cards.map((c) => c.id);

describe('signup matches', () => {
  it('GAME-03 the wanted genders follow the sexuality: hetero the other, gay and lesbian the same, bi both', () => {
    expect(wantedGenders('male', 'hetero')).toEqual(['female']);
    expect(wantedGenders('female', 'hetero')).toEqual(['male']);
    expect(wantedGenders('male', 'gay')).toEqual(['male']);
    expect(wantedGenders('female', 'lesbian')).toEqual(['female']);
    expect(wantedGenders('male', 'bi').sort()).toEqual(['female', 'male']);
  });

  it('GAME-03 the age window is exact to the day', () => {
    // Aged 20..40 on 2026-11-21: born 1985-11-22 (just 40) up to 2006-11-21 (just 20).
    expect(birthDateRange(NOW, 20, 40)).toEqual({ from: '1985-11-22', to: '2006-11-21' });
  });

  it('GAME-03 a hetero man sees active women of his age ±10 years, his country first, with photos first, never himself', async () => {
    const me = await member({ gender: 'male', sexuality: 'hetero', birthDate: '1996-06-01', country: 'NL' }); // 30
    const nlPhoto = await member({ gender: 'female', birthDate: '1994-01-01', country: 'NL', photo: true, lastActive: '2026-11-01T00:00:00Z' });
    const nlNoPhoto = await member({ gender: 'female', birthDate: '1995-01-01', country: 'NL', lastActive: '2026-11-21T11:00:00Z' });
    const bePhoto = await member({ gender: 'female', birthDate: '1993-01-01', country: 'BE', photo: true, lastActive: '2026-11-21T11:30:00Z' });
    const edgeOld = await member({ gender: 'female', birthDate: '1985-11-22', country: 'NL' }); // 40: in
    const edgeYoung = await member({ gender: 'female', birthDate: '2006-11-21', country: 'NL' }); // 20: in
    const tooOld = await member({ gender: 'female', birthDate: '1985-11-21', country: 'NL', photo: true }); // 41
    const tooYoung = await member({ gender: 'female', birthDate: '2006-11-22', country: 'NL', photo: true }); // 19
    const man = await member({ gender: 'male', birthDate: '1995-01-01', country: 'NL', photo: true });
    const disabled = await member({ gender: 'female', birthDate: '1995-01-01', profileStatus: 'disabled', photo: true });
    const unconfirmed = await member({ gender: 'female', birthDate: '1995-01-01', userStatus: 'not_confirmed', profileStatus: 'disabled' });
    const deleted = await member({ gender: 'female', birthDate: '1995-01-01', userStatus: 'deleted', profileStatus: 'disabled', photo: true });
    const invisible = await member({ gender: 'female', birthDate: '1995-01-01', invisible: true, photo: true });
    const otherSite = await member({ gender: 'female', birthDate: '1995-01-01', site: otherSiteId, photo: true });

    const cards = await findSignupMatches(database.db, { siteId, userId: me, now: NOW, minAge: 18 });
    const found = ids(cards);
    expect(found).not.toContain(me);
    for (const excluded of [tooOld, tooYoung, man, disabled, unconfirmed, deleted, invisible, otherSite]) expect(found).not.toContain(excluded);
    // NL with photo; NL without photo, most recently active first; then BE (even with a photo and more recent).
    expect(found).toEqual([nlPhoto, nlNoPhoto, edgeYoung, edgeOld, bePhoto]);
    const first = cards.find((c) => c.id === nlPhoto)!;
    expect(first).toMatchObject({ name: expect.any(String), age: 32, country: 'NL', image: `m${nlPhoto}-main.webp`, thumb: `m${nlPhoto}-thumb.webp` });
    expect(cards.find((c) => c.id === nlNoPhoto)!.thumb).toBeNull();
  });

  it('GAME-03 a gay man sees men, a lesbian woman women, a bi member both', async () => {
    const gay = await member({ gender: 'male', sexuality: 'gay', birthDate: '1960-03-03' });
    const lesbian = await member({ gender: 'female', sexuality: 'lesbian', birthDate: '1961-03-03' });
    const bi = await member({ gender: 'female', sexuality: 'bi', birthDate: '1962-03-03' });
    const m = await member({ gender: 'male', birthDate: '1963-01-01' });
    const f = await member({ gender: 'female', birthDate: '1963-01-01' });
    const match = async (userId: number) => ids(await findSignupMatches(database.db, { siteId, userId, now: NOW }));
    const gayFound = await match(gay);
    expect(gayFound).toContain(m);
    expect(gayFound).not.toContain(f);
    expect(gayFound).not.toContain(lesbian);
    const lesbianFound = await match(lesbian);
    expect(lesbianFound).toContain(f);
    expect(lesbianFound).toContain(bi);
    expect(lesbianFound).not.toContain(m);
    const biFound = await match(bi);
    expect(biFound).toEqual(expect.arrayContaining([m, f, gay, lesbian]));
  });

  it('GAME-03 nobody under the site minimum age is shown to a young member', async () => {
    const young = await member({ gender: 'female', sexuality: 'hetero', birthDate: '2005-01-01' }); // 21
    const older = await member({ gender: 'male', birthDate: '2000-01-01' }); // 26
    const underSiteAge = await member({ gender: 'male', birthDate: '2006-06-01' }); // 20: within ±10, under the site's 21
    const found = ids(await findSignupMatches(database.db, { siteId, userId: young, now: NOW, minAge: 21 }));
    expect(found).toContain(older);
    expect(found).not.toContain(underSiteAge);
    expect(ids(await findSignupMatches(database.db, { siteId, userId: young, now: NOW, minAge: 18 }))).toContain(underSiteAge);
  });

  it('GAME-03 a member without a profile on this site gets no matches', async () => {
    const me = await member({ gender: 'male', birthDate: '1990-01-01', site: otherSiteId });
    expect(await findSignupMatches(database.db, { siteId, userId: me, now: NOW })).toEqual([]);
  });
});
