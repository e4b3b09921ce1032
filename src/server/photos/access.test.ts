/** Who receives a stored image (MEM-04, SEC-07), against a real seeded database with two sites. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { photos, users } from '../../db/schema';
import { DEMO_ACCOUNTS } from '../../demo/seed';
import { photoAccess } from './access';

let seeded: SeededDatabase;
let siteOne: number;
let siteTwo: number;
/** Site 1's free demo member and one photo of theirs; site 2's premium demo member. */
let owner: { id: number; paid_user: boolean };
let photo: { id: number; filename: string; thumbFilename: string };
let otherSitePremium: { id: number; paid_user: boolean };
let sameSitePremium: { id: number; paid_user: boolean };

async function member(email: string, siteId: number) {
  const [row] = await seeded.db
    .select({ id: users.id, paid_user: users.paidUser })
    .from(users)
    .where(and(eq(users.email, email), eq(users.siteId, siteId)));
  return row!;
}

beforeAll(async () => {
  seeded = await seededDatabase();
  siteOne = (await seeded.site('localhost')).settings.id;
  siteTwo = (await seeded.site('127.0.0.1')).settings.id;
  owner = await member(DEMO_ACCOUNTS.free.email, siteOne);
  sameSitePremium = await member(DEMO_ACCOUNTS.premium.email, siteOne);
  otherSitePremium = await member(DEMO_ACCOUNTS.premium.email, siteTwo);
  const [row] = await seeded.db.select({ id: photos.id, filename: photos.filename, thumbFilename: photos.thumbFilename }).from(photos).where(eq(photos.userId, owner.id)).limit(1);
  photo = row!;
});
afterAll(() => seeded?.close());

async function as(state: { status: 'active' | 'inspection_pending' | 'removed'; premium: boolean }) {
  await seeded.db.update(photos).set(state).where(eq(photos.id, photo.id));
}

describe('photoAccess', () => {
  it('SEC-07 MEM-04 a premium member of another site gets no premium photo of this site, main or thumb', async () => {
    expect(otherSitePremium.paid_user).toBe(true);
    await as({ status: 'active', premium: true });
    expect(await photoAccess(seeded.db, photo.filename, siteTwo, otherSitePremium)).toEqual({ type: 'denied' });
    expect(await photoAccess(seeded.db, photo.thumbFilename, siteTwo, otherSitePremium)).toEqual({ type: 'denied' });
    // On the owner's site a premium member does get it.
    expect(await photoAccess(seeded.db, photo.filename, siteOne, sameSitePremium)).toEqual({ type: 'private' });
  });

  it('SEC-07 every kind of photo (public, premium, pending) is denied under another site, even to its owner', async () => {
    for (const state of [
      { status: 'active', premium: false },
      { status: 'active', premium: true },
      { status: 'inspection_pending', premium: false },
    ] as const) {
      await as(state);
      for (const viewer of [null, otherSitePremium, owner]) {
        expect(await photoAccess(seeded.db, photo.filename, siteTwo, viewer), JSON.stringify({ state, viewer })).toEqual({ type: 'denied' });
      }
    }
  });

  it("MEM-04 on the owner's site: public for all, premium for premium members and the owner, pending for the owner, removed for nobody", async () => {
    await as({ status: 'active', premium: false });
    expect(await photoAccess(seeded.db, photo.filename, siteOne, null)).toEqual({ type: 'public' });
    await as({ status: 'active', premium: true });
    expect(await photoAccess(seeded.db, photo.filename, siteOne, null)).toEqual({ type: 'denied' });
    expect(await photoAccess(seeded.db, photo.filename, siteOne, { id: sameSitePremium.id, paid_user: false })).toEqual({ type: 'denied' });
    expect(await photoAccess(seeded.db, photo.filename, siteOne, owner)).toEqual({ type: 'private' });
    await as({ status: 'inspection_pending', premium: false });
    expect(await photoAccess(seeded.db, photo.filename, siteOne, owner)).toEqual({ type: 'private' });
    expect(await photoAccess(seeded.db, photo.filename, siteOne, sameSitePremium)).toEqual({ type: 'denied' });
    await as({ status: 'removed', premium: false });
    expect(await photoAccess(seeded.db, photo.filename, siteOne, owner)).toEqual({ type: 'denied' });
    expect(await photoAccess(seeded.db, 'no-such-file.webp', siteOne, owner)).toEqual({ type: 'denied' });
    await as({ status: 'active', premium: false });
  });
});
