/** Likes and blocks as services (LIK-01..03, BLK-01): who may like whom, matches, paging, events. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { eq, sql } from 'drizzle-orm';
import { likes, profiles, sites, users } from '../../db/schema';
import type { NotifyEvent } from '../notify/notify';
import { InProcessBus, type BusEvents } from '../realtime/bus';
import { block, unblock } from './blocks';
import { like, likedBy, listLikes, markSeen, nextAutoLike, unlike, type LikeDeps } from './likes';

const clock = new FakeClock();
let kit: SeededDatabase;
let siteId: number;
let otherSiteId: number;
const bus = new InProcessBus();
const events: { topic: string; payload: unknown }[] = [];
const notified: { memberId: number; event: NotifyEvent }[] = [];
let deps: LikeDeps;

beforeAll(async () => {
  kit = await seededDatabase({ clock });
  const rows = await kit.db.select({ id: sites.id }).from(sites).orderBy(sites.id);
  siteId = rows[0]!.id;
  otherSiteId = rows[1]!.id;
  for (const topic of ['member.liked', 'member.unliked', 'member.matched', 'member.blocked', 'member.unblocked'] as const) {
    bus.subscribe(topic, (payload: BusEvents[typeof topic]) => {
      events.push({ topic, payload });
    });
  }
  deps = {
    db: kit.db,
    bus,
    clock,
    notify: async (memberId, event) => {
      notified.push({ memberId, event });
    },
  };
});
afterAll(() => kit?.close());

let counter = 0;
async function member(site = siteId, extra: Partial<typeof users.$inferInsert> = {}) {
  const [user] = await kit.db
    .insert(users)
    .values({ siteId: site, email: `like-${++counter}@example.com`, status: 'active', language: 'nl', emailConfirmedAt: clock.now(), ...extra })
    .returning({ id: users.id });
  await kit.db.insert(profiles).values({ userId: user!.id, siteId: site, name: `Like${counter}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
  return user!.id;
}
const me = (userId: number, site = siteId) => ({ siteId: site, userId });

/** A new member liked by five new members, one after another (`spacingMs` apart); returns the liked and the likers. */
async function likedByFive(spacingMs: number): Promise<{ liked: number; likers: number[] }> {
  const liked = await member();
  const likers: number[] = [];
  for (let i = 0; i < 5; i++) {
    const l = await member();
    likers.push(l);
    clock.advance(spacingMs);
    await like(deps, me(l), liked);
  }
  return { liked, likers };
}

/** Every received like of `userId`, page by page (two a page), with each page's cursor. */
async function allReceived(userId: number): Promise<{ ids: number[]; cursors: string[] }> {
  const ids: number[] = [];
  const cursors: string[] = [];
  let after = null;
  do {
    const page: Awaited<ReturnType<typeof listLikes>> = await listLikes(kit.db, me(userId), { type: 'received', now: clock.now(), perPage: 2, after });
    ids.push(...page.cards.map((c) => c.id));
    after = page.next;
    if (after) cursors.push(after.at);
  } while (after);
  return { ids, cursors };
}

describe('likes', () => {
  it('LIK-01 liking is idempotent, a mutual like is a match, events carry ids and the liked member is notified', async () => {
    const [a, b] = [await member(), await member()];
    events.length = 0;
    notified.length = 0;
    const first = await like(deps, me(a), b);
    expect(first).toMatchObject({ type: 'ok', created: true, match: false });
    const again = await like(deps, me(a), b);
    expect(again).toMatchObject({ type: 'ok', created: false });
    expect(again.type === 'ok' && first.type === 'ok' && again.likeId === first.likeId).toBe(true);
    expect(events).toEqual([{ topic: 'member.liked', payload: { likeId: (first as { likeId: number }).likeId, likerId: a, likedId: b, siteId } }]);
    expect(notified).toEqual([{ memberId: b, event: { type: 'like_received', fromUserId: a } }]);

    const back = await like(deps, me(b), a);
    expect(back).toMatchObject({ type: 'ok', created: true, match: true });
    expect(events.map((e) => e.topic)).toEqual(['member.liked', 'member.liked', 'member.matched']);
    expect(notified[1]).toEqual({ memberId: a, event: { type: 'match', fromUserId: b } });

    const matches = await listLikes(kit.db, me(a), { type: 'matches', now: clock.now() });
    expect(matches.cards.map((c) => c.id)).toEqual([b]);
    expect(await unlike(deps, me(a), b)).toEqual({ removed: true });
    expect(await unlike(deps, me(a), b)).toEqual({ removed: false });
    expect((await listLikes(kit.db, me(a), { type: 'matches', now: clock.now() })).cards).toEqual([]);
    expect(events.filter((e) => e.topic === 'member.unliked')).toHaveLength(1);
  });

  it('LIK-01 refused: oneself, unknown ids, another site, invisible members, blocked either way', async () => {
    const a = await member();
    const elsewhere = await member(otherSiteId);
    const invisible = await member(siteId, { invisible: true });
    const blockedByA = await member();
    const blockerOfA = await member();
    await block(deps, me(a), blockedByA);
    await block(deps, me(blockerOfA), a);
    expect(await like(deps, me(a), a)).toEqual({ type: 'refused', reason: 'self' });
    for (const id of [999_999, elsewhere, invisible, blockedByA, blockerOfA]) {
      expect(await like(deps, me(a), id), `member ${id}`).toEqual({ type: 'refused', reason: 'not_found' });
    }
  });

  it('LIK-01 lists received and given likes newest first with keyset paging; liked_by flags new likes', async () => {
    const { liked: a, likers } = await likedByFive(1000);
    expect((await allReceived(a)).ids).toEqual([...likers].reverse());
    const given = await listLikes(kit.db, me(likers[0]!), { type: 'given', now: clock.now() });
    expect(given.cards.map((c) => c.id)).toEqual([a]);

    await markSeen(deps, me(a), likers[1]!);
    const flags = await likedBy(kit.db, me(a));
    expect(flags.find((f) => f.id === likers[1])?.like_new).toBe(false);
    expect(flags.find((f) => f.id === likers[2])?.like_new).toBe(true);
  });

  it("LIK-01 the newest page of a popular member's likes is read from the index in order, not by sorting every like", async () => {
    const star = await member();
    const tag = `fan-${star}`;
    await kit.db.execute(
      sql`insert into users (site_id, email, status, language, email_confirmed_at) select ${siteId}, ${tag} || '-' || g || '@example.com', 'active', 'nl', now() from generate_series(1, 5000) g`,
    );
    await kit.db.execute(
      sql`insert into profiles (user_id, site_id, name, gender, sexuality, birth_date, country) select id, ${siteId}, 'Fan', 'male', 'hetero', '1990-01-01', 'NL' from users where email like ${`${tag}-%`}`,
    );
    await kit.db.execute(sql`insert into likes (site_id, liker_id, liked_id, source) select ${siteId}, id, ${star}, 'profile' from users where email like ${`${tag}-%`}`);
    await kit.db.execute(sql`analyze likes`);
    await kit.db.execute(sql`analyze users`);
    await kit.db.execute(sql`analyze profiles`);
    const read = await kit.db.transaction(async (tx) => {
      const page = await listLikes(tx as unknown as typeof kit.db, me(star), { type: 'received', now: clock.now() });
      expect(page.cards).toHaveLength(24);
      expect(page.next).not.toBeNull();
      const result = (await tx.execute(sql`select coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as n from pg_stat_xact_user_tables where relname = 'likes'`)) as unknown;
      const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
      return Number((rows[0] as { n: number | string }).n);
    });
    // The page's likes are read in order from the index: about 25. Whether each liker is liked back may
    // be answered by one scan of all 5,000 likes (the planner chooses by size). A sort would read all
    // 5,000 for the page as well: 10,000 or more.
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(7_500);
  });

  it('LIK-01 paging does not skip likes made within one millisecond (the cursor keeps microseconds)', async () => {
    const { liked: a, likers } = await likedByFive(0);
    // As a bulk import or the seed leaves them: all at one instant with microseconds.
    await kit.db
      .update(likes)
      .set({ createdAt: sql`'2026-03-01T10:00:00.123456Z'::timestamptz` })
      .where(eq(likes.likedId, a));
    const { ids, cursors } = await allReceived(a);
    expect(cursors).toEqual(['2026-03-01T10:00:00.123456Z', '2026-03-01T10:00:00.123456Z']);
    // Same instant: the newest like id first.
    expect(ids).toEqual([...likers].reverse());
  });

  it("LIK-02 opening a profile clears the new flag only of that member's like to the viewer", async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    await like(deps, me(b), a);
    await like(deps, me(c), a);
    await like(deps, me(a), b);
    expect(await markSeen(deps, me(a), b)).toBe(true);
    // Opened again: nothing was new any more.
    expect(await markSeen(deps, me(a), b)).toBe(false);
    const received = await listLikes(kit.db, me(a), { type: 'received', now: clock.now() });
    expect(Object.fromEntries(received.cards.map((x) => [x.id, x.isNew]))).toEqual({ [b]: false, [c]: true });
    expect((await likedBy(kit.db, me(b))).find((f) => f.id === a)?.like_new).toBe(true);
  });

  it('LIK-03 UX-01 each received like is offered once, matches first, then oldest first; none left → null', async () => {
    const a = await member();
    const [b, c, d] = [await member(), await member(), await member()];
    await like(deps, me(a), c);
    clock.advance(1000);
    await like(deps, me(b), a);
    clock.advance(1000);
    await like(deps, me(d), a);
    clock.advance(1000);
    await like(deps, me(c), a);
    expect(await nextAutoLike(deps, me(a))).toMatchObject({ id: c, match: true });
    expect(await nextAutoLike(deps, me(a))).toMatchObject({ id: b, match: false, fictional: false });
    expect(await nextAutoLike(deps, me(a))).toMatchObject({ id: d, match: false });
    expect(await nextAutoLike(deps, me(a))).toBeNull();
  });

  it('UX-01 a match is news to both: the completer is offered it again as a match, the other gets the event naming them, once', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    await like(deps, me(a), b);
    await like(deps, me(c), a);
    // b is shown a's like as a 'New like'.
    expect(await nextAutoLike(deps, me(b))).toMatchObject({ id: a, match: false });
    expect(await nextAutoLike(deps, me(b))).toBeNull();
    events.length = 0;
    expect(await like(deps, me(b), a)).toMatchObject({ type: 'ok', created: true, match: true });
    expect(events.find((e) => e.topic === 'member.matched')?.payload).toEqual({ memberIds: [b, a], by: b, siteId });
    // b (who made the match) is offered it once more, now as a match.
    expect(await nextAutoLike(deps, me(b))).toMatchObject({ id: a, match: true });
    expect(await nextAutoLike(deps, me(b))).toBeNull();
    // a asks for b's like only (the live event): c's older like stays for later; asked again, nothing.
    expect(await nextAutoLike(deps, me(a), b)).toMatchObject({ id: b, match: true });
    expect(await nextAutoLike(deps, me(a), b)).toBeNull();
    expect(await nextAutoLike(deps, me(a))).toMatchObject({ id: c, match: false });
    // Liking again is no new match: nothing comes back.
    await like(deps, me(b), a);
    expect(await nextAutoLike(deps, me(b))).toBeNull();
  });

  it('BLK-01 a block hides likes both ways and keeps them; unblocking brings them back; both idempotent', async () => {
    const [a, b] = [await member(), await member()];
    await like(deps, me(a), b);
    await like(deps, me(b), a);
    events.length = 0;
    expect(await block(deps, me(b), a)).toEqual({ type: 'ok', created: true });
    expect(await block(deps, me(b), a)).toEqual({ type: 'ok', created: false });
    expect(await block(deps, me(b), b)).toEqual({ type: 'refused', reason: 'self' });
    expect(await block(deps, me(b), await member(otherSiteId))).toEqual({ type: 'refused', reason: 'not_found' });
    for (const type of ['received', 'given', 'matches'] as const) {
      expect((await listLikes(kit.db, me(a), { type, now: clock.now() })).cards, `${type} of a`).toEqual([]);
      expect((await listLikes(kit.db, me(b), { type, now: clock.now() })).cards, `${type} of b`).toEqual([]);
    }
    expect(await likedBy(kit.db, me(a))).toEqual([]);
    expect(await nextAutoLike(deps, me(a))).toBeNull();
    expect(await unblock(deps, me(b), a)).toEqual({ removed: true });
    expect(await unblock(deps, me(b), a)).toEqual({ removed: false });
    expect(events).toEqual([
      { topic: 'member.blocked', payload: { blockerId: b, blockedId: a } },
      { topic: 'member.unblocked', payload: { blockerId: b, blockedId: a } },
    ]);
    expect((await listLikes(kit.db, me(a), { type: 'matches', now: clock.now() })).cards.map((c) => c.id)).toEqual([b]);
  });
});
