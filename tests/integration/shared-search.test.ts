/**
 * Search pages shared between viewers (MEM-01, BLK-01, PERF-01; decision 049): every viewer gets exactly
 * the page their own search would give, blocks and visibility count at once, the island's HTML is kept
 * per language and rows left out (and past its time to live while the rows stay the same), and the
 * shared rows last no longer than their time to live.
 */
import { and, eq, inArray, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, profiles, users } from '../../src/db/schema';
import { TtlCache } from '../../src/server/cache';
import { InProcessBus } from '../../src/server/realtime/bus';
import { searchMembers, parseSearchParams } from '../../src/server/members/search';
import { sharedSearch, type SharedSearchOutcome } from '../../src/server/members/search-pages';
import type { SearchRequest } from '../../src/server/members/search-request';
import { FakeClock, TEST_EPOCH, seededDatabase, type SeededDatabase } from '../setup/kit';

const TTL = 10_000;
const QUERY = 'gender=female&country=NL&minAge=18&maxAge=99';
const site = { id: 1, min_age: 18, logged_out_search: true, logged_out_search_trafficsource: false };

describe('shared search pages', () => {
  const clock = new FakeClock(TEST_EPOCH);
  let kit: SeededDatabase;
  let cache: TtlCache;
  // As in the app (createAppContext): the bus's site.content_changed drops the site's shared pages.
  const bus = new InProcessBus();
  let women: number[];
  let men: number[];

  beforeAll(async () => {
    kit = await seededDatabase({ clock, profilesPerSite: 80 });
    cache = new TtlCache(clock, 50);
    bus.subscribe('site.content_changed', ({ siteId }) => cache.deleteSite(siteId));
    const rows = await kit.db
      .select({ id: users.id, gender: profiles.gender })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.siteId, 1), eq(users.status, 'active'), eq(users.invisible, false), eq(profiles.status, 'active'), eq(profiles.country, 'NL')));
    women = rows.filter((r) => r.gender === 'female').map((r) => r.id);
    men = rows.filter((r) => r.gender === 'male').map((r) => r.id);
  });
  afterAll(() => kit?.close());

  /** The members blocked by or blocking `userId`, as a page request's session lookup reads them. */
  const blockedOf = async (userId: number) =>
    new Set(
      (
        await kit.db
          .select()
          .from(blocks)
          .where(or(eq(blocks.blockerId, userId), eq(blocks.blockedId, userId)))
      ).map((b) => (b.blockerId === userId ? b.blockedId : b.blockerId)),
    );
  const request = (userId: number | null, query = QUERY, blocked: ReadonlySet<number> | null = null): SearchRequest => ({
    db: kit.db,
    now: clock.now(),
    site,
    userId,
    tracking: null,
    params: new URLSearchParams(query),
    blocked,
  });
  /** A page request: a member's blocks come with the session lookup. */
  const shared = async (userId: number | null, query = QUERY, lang = 'nl') => sharedSearch(request(userId, query, userId === null ? null : await blockedOf(userId)), { cache, ttlMs: TTL, lang });
  /** An API request: the member's blocks are not known, the search asks the database. */
  const sharedApi = (userId: number, query = QUERY) => sharedSearch(request(userId, query), { cache, ttlMs: TTL, lang: 'nl' });
  const own = (userId: number | null, query = QUERY) => searchMembers(kit.db, { viewer: { siteId: 1, userId }, filters: parseSearchParams(new URLSearchParams(query)), now: clock.now(), minAge: 18 });
  const ok = (outcome: SharedSearchOutcome) => {
    if (outcome.type !== 'ok') throw new Error(`search answered ${outcome.type}`);
    return outcome;
  };

  it('MEM-01 PERF-01 every viewer gets exactly the page their own search gives, from one shared page query', async () => {
    expect(women.length).toBeGreaterThan(25);
    // A visitor, a man, and a woman who is on the page herself (she never sees herself).
    const onThePage = ok(await shared(null)).result.cards[3]!.id;
    for (const viewer of [null, men[0]!, onThePage]) {
      const outcome = ok(await shared(viewer));
      expect(outcome.result, `viewer ${viewer}`).toEqual(await own(viewer));
      expect(outcome.shared, `viewer ${viewer}`).not.toBeNull();
      expect(outcome.result.cards.some((c) => c.id === viewer)).toBe(false);
      if (viewer !== null) expect(ok(await sharedApi(viewer)).result, `viewer ${viewer} (API)`).toEqual(await own(viewer));
    }
    // The second page through the first page's cursor, too.
    const next = ok(await shared(men[0]!)).result.next!;
    expect(next).toBeTruthy();
    expect(ok(await shared(men[0]!, `${QUERY}&cursor=${next}`)).result).toEqual(await own(men[0]!, `${QUERY}&cursor=${next}`));
  });

  it('BLK-01 a block counts at once on a shared page, both ways, and for nobody else', async () => {
    const [viewer, other] = [men[1]!, men[2]!];
    const first = ok(await shared(viewer)).result.cards;
    const blocked = first[0]!.id;
    const blocker = first[1]!.id;
    await kit.db.insert(blocks).values([
      { blockerId: viewer, blockedId: blocked },
      { blockerId: blocker, blockedId: viewer },
    ]);
    for (const after of [ok(await shared(viewer)).result, ok(await sharedApi(viewer)).result]) {
      expect(after.cards.map((c) => c.id)).not.toContain(blocked);
      expect(after.cards.map((c) => c.id)).not.toContain(blocker);
      expect(after).toEqual(await own(viewer));
    }
    expect(ok(await shared(other)).result.cards.map((c) => c.id)).toEqual(expect.arrayContaining([blocked, blocker]));
    await kit.db.delete(blocks).where(inArray(blocks.blockerId, [viewer, blocker]));
  });

  it('MEM-01 a member gone invisible, disabled or deleted leaves every shared page at once (the change is published)', async () => {
    const cards = ok(await shared(men[3]!)).result.cards;
    const [invisible, disabled, deleted] = [cards[0]!.id, cards[1]!.id, cards[2]!.id];
    // What setInvisible, a ban and deleteAccount do (their own tests prove they publish it).
    await kit.db.update(users).set({ invisible: true }).where(eq(users.id, invisible));
    await kit.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, disabled));
    await kit.db.update(users).set({ status: 'deleted' }).where(eq(users.id, deleted));
    await bus.publish('site.content_changed', { siteId: 1 });
    for (const viewer of [null, men[3]!]) {
      const ids = ok(await shared(viewer)).result.cards.map((c) => c.id);
      expect(ids).not.toContain(invisible);
      expect(ids).not.toContain(disabled);
      expect(ids).not.toContain(deleted);
      expect(ok(await shared(viewer)).result).toEqual(await own(viewer));
    }
  });

  it('MEM-01 an API search, which asks the database who is listed, leaves them out even before the change is published', async () => {
    const query = 'gender=female&country=NL&minAge=19&maxAge=97';
    const gone = ok(await sharedApi(men[8]!, query)).result.cards[0]!.id;
    await kit.db.update(users).set({ invisible: true }).where(eq(users.id, gone));
    const ids = ok(await sharedApi(men[8]!, query)).result.cards.map((c) => c.id);
    expect(ids).not.toContain(gone);
    expect(ok(await sharedApi(men[8]!, query)).result).toEqual(await own(men[8]!, query));
  });

  it('PERF-01 the rendered island is kept per language and per rows left out, and served only to the same', async () => {
    const query = 'gender=female&country=NL&minAge=20&maxAge=90';
    const a = ok(await shared(men[4]!, query, 'nl'));
    expect(a.shared!.html).toBeNull();
    const island = '<script>customElements.define("astro-island",class{})</script><astro-island uid="x">page</astro-island>';
    a.shared!.keep(island);
    // Another viewer with nothing left out, same language: the same HTML.
    expect(Buffer.from(ok(await shared(men[5]!, query, 'nl')).shared!.html!).toString('utf8')).toBe(island);
    // Another language, or a viewer on the page (left out for her): rendered anew.
    expect(ok(await shared(men[5]!, query, 'en')).shared!.html).toBeNull();
    const herself = a.result.cards[0]!.id;
    expect(ok(await shared(herself, query, 'nl')).shared!.html).toBeNull();
    // HTML without Astro's island runtime in it is not kept (the page that serves it renders no island before it).
    const b = ok(await shared(men[6]!, query, 'de'));
    b.shared!.keep('<astro-island uid="y">page</astro-island>');
    expect(ok(await shared(men[6]!, query, 'de')).shared!.html).toBeNull();
  });

  it('MEM-01 PERF-01 the shared rows last their time to live: then a member who just came back is on top', async () => {
    const query = 'gender=female&country=NL&minAge=21&maxAge=95';
    const before = ok(await shared(men[7]!, query)).result.cards;
    // A member further down the same search (past the shared rows) becomes active.
    const longer = await searchMembers(kit.db, { viewer: { siteId: 1, userId: men[7]! }, filters: parseSearchParams(new URLSearchParams(query)), now: clock.now(), minAge: 18, perPage: 60 });
    const last = longer.cards.at(-1)!.id;
    expect(before.some((c) => c.id === last)).toBe(false);
    await kit.db
      .update(profiles)
      .set({ lastActiveAt: new Date(clock.now().getTime() + 60_000) })
      .where(eq(profiles.userId, last));
    expect(ok(await shared(men[7]!, query)).result.cards[0]!.id).not.toBe(last);
    clock.advance(TTL + 1);
    const after = ok(await shared(men[7]!, query)).result;
    expect(after.cards[0]!.id).toBe(last);
    expect(after).toEqual(await own(men[7]!, query));
  });

  it('PERF-01 after its time to live the rendered island carries over when the search finds the same rows, and not when they changed', async () => {
    const query = 'gender=female&country=NL&minAge=22&maxAge=93';
    const a = ok(await shared(men[8]!, query));
    const island = '<script>customElements.define("astro-island",class{})</script><astro-island uid="z">page</astro-island>';
    a.shared!.keep(island);
    clock.advance(TTL + 1);
    // Searched again (the same rows): the HTML rendered for them is still served.
    expect(Buffer.from(ok(await shared(men[8]!, query)).shared!.html!).toString('utf8')).toBe(island);
    // A member on the page is active again: the order changes, so the page is rendered anew.
    const second = a.result.cards[1]!.id;
    await kit.db
      .update(profiles)
      .set({ lastActiveAt: new Date(clock.now().getTime() + 60_000) })
      .where(eq(profiles.userId, second));
    clock.advance(TTL + 1);
    const c = ok(await shared(men[8]!, query));
    expect(c.result.cards[0]!.id).toBe(second);
    expect(c.shared!.html).toBeNull();
    expect(c.result).toEqual(await own(men[8]!, query));
  });

  it('MEM-01 bad filters answer as the search does, and nothing is shared with the time to live at 0', async () => {
    expect(await shared(men[0]!, 'minAge=40&maxAge=30')).toMatchObject({ type: 'invalid', code: 'invalid_age_range' });
    expect(await shared(men[0]!, 'cursor=abc')).toMatchObject({ type: 'invalid', code: 'invalid_cursor' });
    const off = ok(await sharedSearch(request(men[0]!), { cache, ttlMs: 0, lang: 'nl' }));
    expect(off.shared).toBeNull();
    expect(off.result).toEqual(await own(men[0]!));
  });
});
