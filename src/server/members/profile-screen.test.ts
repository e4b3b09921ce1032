/** The profile screen with the viewer's blocks known from the session (issue 26): the same answer as asking the database. */
import { eq, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { blocks, conversations, likes, photos, profiles, sites, users } from '../../db/schema';
import { loadProfileScreen } from './profile-screen';
import { loadProfileViewWithFacts } from './profile-view';

const clock = new FakeClock();
let kit: SeededDatabase;
let siteId: number;
let otherSiteId: number;

beforeAll(async () => {
  kit = await seededDatabase({ clock });
  const rows = await kit.db.select({ id: sites.id }).from(sites).orderBy(sites.id);
  siteId = rows[0]!.id;
  otherSiteId = rows[1]!.id;
});
afterAll(() => kit?.close());

let counter = 0;
async function member(site = siteId, extra: Partial<typeof users.$inferInsert> = {}) {
  const [user] = await kit.db
    .insert(users)
    .values({ siteId: site, email: `screen-${++counter}@example.com`, status: 'active', language: 'nl', emailConfirmedAt: clock.now(), ...extra })
    .returning({ id: users.id });
  await kit.db.insert(profiles).values({ userId: user!.id, siteId: site, name: `Screen${counter}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
  return user!.id;
}

/** The viewer's blocks both ways, as the page request's session lookup reads them. */
async function blockedOf(viewer: number): Promise<Set<number>> {
  const rows = await kit.db
    .select()
    .from(blocks)
    .where(or(eq(blocks.blockerId, viewer), eq(blocks.blockedId, viewer)));
  return new Set(rows.map((r) => (r.blockerId === viewer ? r.blockedId : r.blockerId)));
}

describe('profile screen with the blocks known', () => {
  it('BLK-01 MEM-03 LIK-02 PERF-01 gives what the database check gives: listed, blocked either way, invisible, deleted, disabled, other site, self', async () => {
    const viewer = await member();
    const listed = await member();
    const blockedByViewer = await member();
    const blockingViewer = await member();
    const invisible = await member(siteId, { invisible: true });
    const deleted = await member(siteId, { status: 'deleted' });
    const disabled = await member();
    await kit.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, disabled));
    const elsewhere = await member(otherSiteId);
    await kit.db.insert(blocks).values([
      { blockerId: viewer, blockedId: blockedByViewer },
      { blockerId: blockingViewer, blockedId: viewer },
    ]);
    const user = { id: viewer, paid_user: false };
    const blocked = await blockedOf(viewer);
    const expected: Record<number, string> = {
      [listed]: 'ok',
      [blockedByViewer]: 'blocked_by_me',
      [blockingViewer]: 'not_found',
      [invisible]: 'not_found',
      [deleted]: 'not_found',
      [disabled]: 'not_found',
      [elsewhere]: 'not_found',
      [viewer]: 'self',
    };
    for (const [id, type] of Object.entries(expected)) {
      const asked = await loadProfileScreen(kit, { siteId, user }, Number(id));
      const known = await loadProfileScreen(kit, { siteId, user, blocked }, Number(id));
      expect(known.type, `member ${id}`).toBe(type);
      expect(known).toEqual(asked);
    }
  });

  it('LIK-02 PERF-01 with the blocks known, opening a listed profile still marks its like seen, once, and says whether the viewer likes them', async () => {
    const viewer = await member();
    const liker = await member();
    await kit.db.insert(likes).values([
      { siteId, likerId: liker, likedId: viewer, source: 'profile' },
      { siteId, likerId: viewer, likedId: liker, source: 'profile' },
    ]);
    const screen = await loadProfileScreen(kit, { siteId, user: { id: viewer, paid_user: false }, blocked: new Set() }, liker);
    expect(screen).toMatchObject({ type: 'ok', liked: true, likeSeen: true });
    const again = await loadProfileScreen(kit, { siteId, user: { id: viewer, paid_user: false }, blocked: new Set() }, liker);
    expect(again).toMatchObject({ type: 'ok', liked: true, likeSeen: false });
    // An invisible liker: not found, and their like stays unseen.
    const hidden = await member(siteId, { invisible: true });
    await kit.db.insert(likes).values({ siteId, likerId: hidden, likedId: viewer, source: 'profile' });
    expect((await loadProfileScreen(kit, { siteId, user: { id: viewer, paid_user: false }, blocked: new Set() }, hidden)).type).toBe('not_found');
    const [row] = await kit.db.select({ seenAt: likes.seenAt }).from(likes).where(eq(likes.likerId, hidden));
    expect(row!.seenAt).toBeNull();
  });

  it('VER-02 LIK-02 issue 26: the facts the profile query folds in (liked, like unseen, verified members only) answer as their own queries did, with the blocks known or not', async () => {
    const viewer = await member();
    const strict = await member(siteId, { onlyVerifiedContact: true });
    const open = await member();
    const user = { id: viewer, paid_user: false };
    for (const blocked of [new Set<number>(), undefined]) {
      // Not liked, no like to mark seen; the strict member asks for a verification the viewer lacks.
      expect(await loadProfileScreen(kit, { siteId, user, blocked }, strict)).toMatchObject({ type: 'ok', liked: false, likeSeen: false, verificationRequired: true });
      expect(await loadProfileScreen(kit, { siteId, user, blocked }, open)).toMatchObject({ type: 'ok', liked: false, likeSeen: false, verificationRequired: false });
    }
    // A conversation they already have: the first message is behind them, so no verification is asked.
    const [low, high] = viewer < strict ? [viewer, strict] : [strict, viewer];
    await kit.db.insert(conversations).values({ siteId, memberLow: low, memberHigh: high, startedBy: viewer });
    expect(await loadProfileScreen(kit, { siteId, user, blocked: new Set() }, strict)).toMatchObject({ verificationRequired: false });
    // The strict member's like of the viewer: seen on the first opening only; the viewer's like of them shows.
    await kit.db.insert(likes).values([
      { siteId, likerId: strict, likedId: viewer, source: 'profile' },
      { siteId, likerId: viewer, likedId: strict, source: 'profile' },
    ]);
    expect(await loadProfileScreen(kit, { siteId, user }, strict)).toMatchObject({ liked: true, likeSeen: true });
    expect(await loadProfileScreen(kit, { siteId, user, blocked: new Set() }, strict)).toMatchObject({ liked: true, likeSeen: false });
  });

  it("MEM-04 issue 26: the photos folded into the profile query come active only, in the member's order, premium ones locked for a free viewer and open to a premium one", async () => {
    const owner = await member();
    const viewer = await member();
    const rows = await kit.db
      .insert(photos)
      .values([
        { userId: owner, filename: 'o-main.webp', thumbFilename: 'o-main-t.webp', status: 'active' as const, premium: false, position: 0, width: 600, height: 800 },
        { userId: owner, filename: 'o-third.webp', thumbFilename: 'o-third-t.webp', status: 'active' as const, premium: true, position: 3, width: 600, height: 800 },
        { userId: owner, filename: 'o-second.webp', thumbFilename: 'o-second-t.webp', status: 'active' as const, premium: false, position: 2, width: 600, height: 800 },
        { userId: owner, filename: 'o-gone.webp', thumbFilename: 'o-gone-t.webp', status: 'removed' as const, premium: false, position: 1, width: 600, height: 800 },
        { userId: owner, filename: 'o-waiting.webp', thumbFilename: 'o-waiting-t.webp', status: 'inspection_pending' as const, premium: false, position: 1, width: 600, height: 800 },
      ])
      .returning({ id: photos.id });
    await kit.db.update(profiles).set({ mainPhotoId: rows[0]!.id }).where(eq(profiles.userId, owner));
    const asFree = await loadProfileViewWithFacts(kit.db, { siteId, memberId: owner, viewer: { id: viewer, paid_user: false }, now: clock.now() });
    expect(asFree!.view.mainImage).toBe('o-main.webp');
    expect(asFree!.view.gallery).toEqual([
      { id: rows[2]!.id, filename: 'o-second.webp', thumb: 'o-second-t.webp', locked: false, blurred: null },
      { id: rows[1]!.id, filename: null, thumb: null, locked: true, blurred: null },
    ]);
    const asPremium = await loadProfileViewWithFacts(kit.db, { siteId, memberId: owner, viewer: { id: viewer, paid_user: true }, now: clock.now() });
    expect(asPremium!.view.gallery.map((p) => p.filename)).toEqual(['o-second.webp', 'o-third.webp']);
    // A member without photos gets an empty gallery and no main image.
    const bare = await loadProfileViewWithFacts(kit.db, { siteId, memberId: await member(), viewer: { id: viewer, paid_user: false }, now: clock.now() });
    expect(bare!.view).toMatchObject({ gallery: [], mainImage: null, mainBlurred: null });
  });
});
