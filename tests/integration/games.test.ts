/**
 * The games (GAME-01 match finder, GAME-02 swipe game): the daily swipe limit in the site's time zone at
 * service level with a FakeClock, the listing rule on the deck and the ranking, and the pages and the
 * swipe API over HTTP on one server (bad input is 400 JSON, the no-JS form posts, the fifth like refused).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, desc, eq, inArray, ne, notLike } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import { blocks, likes, profiles, users } from '../../src/db/schema';
import { seedDemo } from '../../src/demo/seed';
import { wantedGenders } from '../../src/server/members/matches';
import { LocalPhotoStore } from '../../src/server/photos/store';
import { createTestDatabase, everyDatabaseKind } from '../setup/databases';
import { localMidnight, nextLocalMidnight, siteTimeZone } from '../../src/server/sites/site-time';
import { findMatches, parseQuestions } from '../../src/server/games/match-finder';
import { parseSkipped, swipe, swipeAllowance, swipeDeck, SWIPE_LIKES_PER_DAY } from '../../src/server/games/swipe';
import { like, type LikeDeps } from '../../src/server/members/likes';
import { InProcessBus } from '../../src/server/realtime/bus';
import { FakeClock, seededDatabase, type SeededDatabase } from '../setup/kit';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const AMSTERDAM = 'Europe/Amsterdam';

describe('GAME-02 swipe game service', () => {
  let kit: SeededDatabase;
  let clock: FakeClock;
  let deps: LikeDeps;
  let player: { siteId: number; userId: number };
  let others: number[];
  let otherSiteId: number;
  let hiddenIds: number[] = [];
  beforeAll(async () => {
    clock = new FakeClock(new Date('2026-11-22T22:30:00Z'));
    kit = await seededDatabase({ clock, profilesPerSite: 48 });
    deps = { db: kit.db, bus: new InProcessBus(), clock };
    const [free] = await kit.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, 'free@demo.test'), eq(users.siteId, 1)));
    player = { siteId: 1, userId: free!.id };
    others = (await swipeDeck(kit.db, player, { now: clock.now(), limit: 50 })).map((c) => c.id);
    const [other] = await kit.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.siteId, 2), ne(users.role, 'operator')))
      .limit(1);
    otherSiteId = other!.id;
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('GAME-02 a site without a time zone setting uses its main country’s zone', async () => {
    expect(siteTimeZone((await kit.site()).settings)).toBe(AMSTERDAM);
    expect(siteTimeZone({ countries: ['DE', 'AT'] })).toBe('Europe/Berlin');
    expect(siteTimeZone({ countries: ['ZZ'] })).toBe('UTC');
    // 23:30 in Amsterdam (UTC+1 in November): the day began at 23:00 UTC the day before.
    expect(localMidnight(new Date('2026-11-22T22:30:00Z'), AMSTERDAM).toISOString()).toBe('2026-11-21T23:00:00.000Z');
    expect(nextLocalMidnight(new Date('2026-11-22T22:30:00Z'), AMSTERDAM).toISOString()).toBe('2026-11-22T23:00:00.000Z');
    // Across the switch to summer time the day is 23 hours long.
    expect(nextLocalMidnight(new Date('2026-03-29T10:00:00Z'), AMSTERDAM).toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('GAME-02 four swipe likes a day: the fifth is refused with the time to the site’s midnight, and the count starts again after it', async () => {
    // A like from a profile does not count against the game.
    expect((await like(deps, player, others[0]!, 'profile')).type).toBe('ok');
    for (let i = 1; i <= SWIPE_LIKES_PER_DAY; i++) {
      const result = await swipe(deps, player, others[i]!, true, AMSTERDAM);
      expect(result).toMatchObject({ type: 'liked', left: SWIPE_LIKES_PER_DAY - i });
    }
    // 23:30 local: 30 minutes to midnight in Amsterdam.
    expect(await swipe(deps, player, others[5]!, true, AMSTERDAM)).toEqual({ type: 'limit', retryAfterSeconds: 30 * 60 });
    // Passing is still allowed and stores nothing.
    expect(await swipe(deps, player, others[5]!, false, AMSTERDAM)).toEqual({ type: 'passed', left: 0 });
    clock.set(new Date('2026-11-22T22:59:59Z'));
    expect((await swipe(deps, player, others[5]!, true, AMSTERDAM)).type).toBe('limit');
    // Midnight in Amsterdam (still 22 November in UTC): a new day.
    clock.set(new Date('2026-11-22T23:00:01Z'));
    expect(await swipeAllowance(kit.db, player, clock.now(), AMSTERDAM)).toMatchObject({ used: 0, left: SWIPE_LIKES_PER_DAY });
    expect(await swipe(deps, player, others[5]!, true, AMSTERDAM)).toMatchObject({ type: 'liked', left: SWIPE_LIKES_PER_DAY - 1 });
    const rows = await kit.db.select({ source: likes.source }).from(likes).where(eq(likes.likerId, player.userId));
    expect(rows.filter((r) => r.source === 'swipe')).toHaveLength(5);
  });

  it('GAME-02 the deck never holds blocked, invisible, disabled, deleted, other-site or already liked members, nor the player', async () => {
    const deck = await swipeDeck(kit.db, player, { now: clock.now(), limit: 50 });
    const ids = deck.map((c) => c.id);
    expect(ids.length).toBeGreaterThan(3);
    expect(ids).not.toContain(player.userId);
    expect(ids).not.toContain(otherSiteId);
    for (const liked of others.slice(0, 6)) expect(ids).not.toContain(liked);
    const [blockedByMe, blockedMe, invisible, disabled, deleted] = ids as [number, number, number, number, number];
    await kit.db.insert(blocks).values([
      { blockerId: player.userId, blockedId: blockedByMe },
      { blockerId: blockedMe, blockedId: player.userId },
    ]);
    await kit.db.update(users).set({ invisible: true }).where(eq(users.id, invisible));
    await kit.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, disabled));
    await kit.db.update(users).set({ status: 'deleted' }).where(eq(users.id, deleted));
    hiddenIds = [blockedByMe, blockedMe, invisible, disabled, deleted];
    const after = (await swipeDeck(kit.db, player, { now: clock.now(), limit: 50 })).map((c) => c.id);
    for (const hidden of [blockedByMe, blockedMe, invisible, disabled, deleted]) {
      expect(after).not.toContain(hidden);
      // Neither can they be liked or passed through the game (the refusal reveals nothing).
      expect(await swipe(deps, player, hidden, true, AMSTERDAM)).toEqual({ type: 'refused', reason: 'not_found' });
      expect(await swipe(deps, player, hidden, false, AMSTERDAM)).toEqual({ type: 'refused', reason: 'not_found' });
    }
    expect(await swipe(deps, player, otherSiteId, true, AMSTERDAM)).toEqual({ type: 'refused', reason: 'not_found' });
    expect(await swipe(deps, player, player.userId, true, AMSTERDAM)).toEqual({ type: 'refused', reason: 'self' });
    // Skipped ids leave the deck for the round.
    const skip = after.slice(0, 2);
    const skipped = (await swipeDeck(kit.db, player, { now: clock.now(), skip, limit: 50 })).map((c) => c.id);
    expect(skipped).toEqual(after.slice(2));
  });

  it('GAME-02 the deck holds only the genders the player is looking for', async () => {
    const [me] = await kit.db.select({ gender: profiles.gender, sexuality: profiles.sexuality }).from(profiles).where(eq(profiles.userId, player.userId));
    const wanted = wantedGenders(me!.gender, me!.sexuality);
    const deck = await swipeDeck(kit.db, player, { now: clock.now(), limit: 50 });
    expect(deck.length).toBeGreaterThan(0);
    const genders = await kit.db
      .select({ gender: profiles.gender })
      .from(profiles)
      .where(
        inArray(
          profiles.userId,
          deck.map((c) => c.id),
        ),
      );
    for (const g of genders) expect(wanted).toContain(g.gender);
  });

  it('GAME-01 the questionnaire accepts who, an age range, a region of the country and up to 3 known interests', () => {
    const q = (query: string) => parseQuestions(new URLSearchParams(query), new Set([7, 8]), 18);
    expect(q('gender=female&minAge=25&maxAge=40&region=7&interest=music&interest=wine')).toEqual({
      ok: true,
      questions: { gender: 'female', minAge: 25, maxAge: 40, region: 7, interests: ['music', 'wine'] },
    });
    expect(q('gender=male')).toEqual({ ok: true, questions: { gender: 'male', minAge: 18, maxAge: 99, region: null, interests: [] } });
    expect(q('gender=other')).toEqual({ ok: false, error: 'gender' });
    expect(q('gender=female&minAge=40&maxAge=30')).toEqual({ ok: false, error: 'age' });
    expect(q('gender=female&minAge=abc')).toEqual({ ok: false, error: 'age' });
    expect(q(`gender=female&minAge=${'9'.repeat(10_000)}`)).toEqual({ ok: false, error: 'age' });
    expect(q('gender=female&region=9')).toEqual({ ok: false, error: 'region' });
    expect(q('gender=female&region=-1')).toEqual({ ok: false, error: 'region' });
    expect(q('gender=female&interest=music&interest=wine&interest=tea&interest=art')).toEqual({ ok: false, error: 'interests' });
    expect(q('gender=female&interest=nonsense')).toEqual({ ok: false, error: 'interests' });
  });

  it('GAME-01 ranks shared interests first, then the same region, then the same country, then recent activity; hidden members never appear', async () => {
    const questions = { gender: 'female' as const, minAge: 18, maxAge: 99, region: null, interests: [] as string[] };
    let all = await findMatches(kit.db, player, questions, clock.now());
    let gender: 'female' | 'male' = 'female';
    const male = await findMatches(kit.db, player, { ...questions, gender: 'male' }, clock.now());
    if (male.length > all.length) {
      all = male;
      gender = 'male';
    }
    expect(all.length).toBeGreaterThanOrEqual(4);
    const ids = all.map((m) => m.id);
    for (const hidden of [...hiddenIds, otherSiteId, player.userId]) expect(ids).not.toContain(hidden);
    // Without interests or a region of its own choice the order is by place, then activity.
    const [a, b, c] = ids.slice(-3) as [number, number, number];
    // Only a and b share interests with the questions.
    await kit.db
      .update(profiles)
      .set({ interests: ['cooking'] })
      .where(eq(profiles.siteId, 1));
    await kit.db
      .update(profiles)
      .set({ interests: ['music', 'wine', 'tea'] })
      .where(eq(profiles.userId, a));
    await kit.db
      .update(profiles)
      .set({ interests: ['music'] })
      .where(eq(profiles.userId, b));
    const [region] = await kit.db.select({ regionId: profiles.regionId }).from(profiles).where(eq(profiles.userId, c));
    const ranked = await findMatches(kit.db, player, { ...questions, gender, region: region!.regionId, interests: ['music', 'wine'] }, clock.now());
    expect(ranked.slice(0, 2).map((m) => [m.id, m.sharedInterests])).toEqual([
      [a, 2],
      [b, 1],
    ]);
    // Then everyone in the chosen region (c among them), before anyone outside it.
    const rest = ranked.slice(2);
    const firstOutside = rest.findIndex((m) => !m.sameRegion);
    expect(rest.findIndex((m) => m.id === c)).toBeGreaterThanOrEqual(0);
    if (firstOutside >= 0) expect(rest.slice(firstOutside).every((m) => !m.sameRegion)).toBe(true);
    expect(rest.find((m) => m.id === c)?.sameRegion).toBe(true);
    // The likes the player gave show as such.
    expect(
      ranked
        .filter((m) => m.liked)
        .map((m) => m.id)
        .sort(),
    ).toEqual(
      ranked
        .map((m) => m.id)
        .filter((id) => others.slice(0, 6).includes(id))
        .sort(),
    );
  });

  it('GAME-02 skipped ids from the query are bounded and only positive integers', () => {
    expect(parseSkipped('3,abc,-1,3,0,7,99999999999')).toEqual([3, 7]);
    expect(parseSkipped(Array.from({ length: 100 }, (_, i) => i + 1).join(','))).toHaveLength(40);
    expect(parseSkipped('1,'.repeat(10_000))).toEqual([]);
    expect(parseSkipped(null)).toEqual([]);
  });
});

describe('GAME-01 GAME-02 games over HTTP', () => {
  let server: TestServer;
  let free: { id: number; session: string };
  let premium: { id: number; session: string };
  let otherSiteId: number;
  beforeAll(async () => {
    server = await startTestServer();
    const { db } = server.booted.app;
    const find = async (email: string) =>
      (
        await db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, email), eq(users.siteId, 1)))
      )[0]!.id;
    const login = async (email: string) => (await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email, password: 'demo-password-1' } })).setCookies.session!.value;
    free = { id: await find('free@demo.test'), session: await login('free@demo.test') };
    premium = { id: await find('premium@demo.test'), session: await login('premium@demo.test') };
    const [other] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.siteId, 2), ne(users.role, 'operator')))
      .limit(1);
    otherSiteId = other!.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const origin = () => ({ origin: `http://localhost:${server.port}` });
  const as = (who: { session: string }) => ({ cookies: { lang: 'en', session: who.session }, headers: origin() });
  const swipeAs = (who: { session: string }, body: unknown) => server.request('/api/swipe.php', { ...as(who), method: 'POST', body });
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const postForm = (who: { session: string }, path: string, fields: Record<string, string>) =>
    server.request(path, { ...as(who), method: 'POST', headers: { ...origin(), 'content-type': 'application/x-www-form-urlencoded' }, body: form(fields) });
  const deckIds = (html: string) => [...html.matchAll(/data-swipe-card="(\d+)"/g)].map((m) => Number(m[1]));

  it('GAME-02 visitors are sent to the login page and get authentication_required from the API', async () => {
    expect((await server.request('/swipe-game', { cookies: { lang: 'en' } })).headers.location).toBe('/login?next=%2Fswipe-game');
    const res = await server.request('/api/swipe.php', { method: 'POST', cookies: { lang: 'en' }, headers: origin(), body: { id: 1, like: true } });
    expect(res.status).toBe(403);
    expect(res.json().error).toBe('authentication_required');
  });

  it('GAME-02 bad input to /api/swipe.php is 400 JSON, never a 500', async () => {
    for (const body of [{ id: -1, like: true }, { id: 'abc', like: true }, { id: 'x'.repeat(10_000), like: true }, { like: true }, { id: 5 }, { id: 5, like: 'yes' }, {}, 'not json']) {
      const res = await swipeAs(free, body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', message: expect.any(String) });
    }
    expect((await swipeAs(free, { id: free.id, like: true })).json().error).toBe('self_not_allowed');
    const otherSite = await swipeAs(free, { id: otherSiteId, like: true });
    expect(otherSite.status).toBe(404);
    expect(otherSite.json().error).toBe('member_not_found');
  });

  it('GAME-02 the page shows one card at a time without blocked members; the no-JS form passes and likes', async () => {
    const { db } = server.booted.app;
    const page = await server.request('/swipe-game', as(premium));
    expect(page.status).toBe(200);
    const ids = deckIds(page.text);
    expect(ids).toHaveLength(1);
    expect(/<button type="submit" value="like"[^>]*name="action"/.test(page.text), 'a like button that posts the form').toBe(true);
    const first = ids[0]!;
    // A block hides the member from the deck.
    await db.insert(blocks).values({ blockerId: first, blockedId: premium.id });
    const blockedGone = deckIds((await server.request('/swipe-game', as(premium))).text)[0]!;
    expect(blockedGone).not.toBe(first);
    // Pass: on to the next card, the skipped id in the query.
    const passed = await postForm(premium, '/swipe-game', { action: 'pass', id: String(blockedGone), skip: '' });
    expect(passed.status).toBe(303);
    expect(passed.headers.location).toBe(`/swipe-game?skip=${blockedGone}`);
    const next = deckIds((await server.request(passed.headers.location as string, as(premium))).text)[0]!;
    expect(next).not.toBe(blockedGone);
    // Like: stored with source 'swipe', the skipped ids carried on.
    const liked = await postForm(premium, '/swipe-game', { action: 'like', id: String(next), skip: String(blockedGone) });
    expect(liked.status).toBe(303);
    expect(liked.headers.location).toBe(`/swipe-game?skip=${blockedGone}`);
    const [row] = await db
      .select({ source: likes.source })
      .from(likes)
      .where(and(eq(likes.likerId, premium.id), eq(likes.likedId, next)));
    expect(row?.source).toBe('swipe');
    // Bad form input: 400 page, nothing liked.
    for (const id of ['-1', 'abc', 'x'.repeat(10_000), '']) {
      expect((await postForm(premium, '/swipe-game', { action: 'like', id })).status).toBe(400);
    }
    expect((await postForm(premium, '/swipe-game', { action: 'dance', id: String(next) })).status).toBe(400);
  });

  it('GAME-02 four swipe likes are accepted; the fifth is 429 with the time left until the site’s midnight', async () => {
    const deck = deckIds((await server.request('/swipe-game', as(free))).text);
    expect(deck).toHaveLength(1);
    const { db } = server.booted.app;
    const candidates = (
      await db
        .select({ id: users.id })
        .from(users)
        .innerJoin(profiles, eq(profiles.userId, users.id))
        .where(and(eq(users.siteId, 1), eq(users.status, 'active'), eq(users.invisible, false), ne(users.id, free.id)))
    ).map((r) => r.id);
    const accepted: number[] = [];
    for (const id of candidates) {
      if (accepted.length === SWIPE_LIKES_PER_DAY) break;
      const res = await swipeAs(free, { id, like: true });
      if (res.status === 404) continue;
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ ok: true, id, liked: true, likes_left: SWIPE_LIKES_PER_DAY - accepted.length - 1 });
      accepted.push(id);
    }
    const fifth = candidates.find((id) => !accepted.includes(id))!;
    const refused = await swipeAs(free, { id: fifth, like: true });
    expect(refused.status).toBe(429);
    const body = refused.json();
    expect(body).toMatchObject({ error: 'swipe_limit_reached', retry_after_seconds: expect.any(Number) });
    expect(body.retry_after_seconds).toBeGreaterThan(0);
    expect(body.retry_after_seconds).toBeLessThanOrEqual(25 * 3600);
    expect(body.message).toContain('Come back tomorrow');
    expect(body.message).toContain(`${body.hours} h ${body.minutes} min`);
    // The no-JS form is refused the same way, with the page showing the message.
    const page = await postForm(free, '/swipe-game', { action: 'like', id: String(fifth) });
    expect(page.status).toBe(429);
    expect(page.text.includes('Come back tomorrow'), 'the refusal on the page').toBe(true);
    // And the page says so on a plain visit.
    expect((await server.request('/swipe-game', as(free))).text.includes('data-swipe-limit'), 'the limit on a visit').toBe(true);
    // Dutch text for a Dutch visitor.
    const nl = await server.request('/api/swipe.php', { cookies: { lang: 'nl', session: free.session }, headers: origin(), method: 'POST', body: { id: fifth, like: true } });
    expect(nl.json().message).toContain('Kom morgen terug');
  });

  it('GAME-01 the match finder: visitors go to the login; bad answers are a 400 page, never a 500', async () => {
    expect((await server.request('/match-finder', { cookies: { lang: 'en' } })).headers.location).toBe('/login?next=%2Fmatch-finder');
    const form = await server.request('/match-finder', as(free));
    expect(form.status).toBe(200);
    expect(form.text.includes('for="mf-region"') && form.text.includes('id="mf-region"'), 'a labelled region').toBe(true);
    expect(form.text.includes('data-match-results'), 'no results before answers').toBe(false);
    for (const query of [
      'gender=x',
      'gender=female&minAge=abc',
      `gender=female&maxAge=${'9'.repeat(10_000).slice(0, 5000)}`,
      'gender=female&region=-1',
      'gender=female&interest=a&interest=b&interest=c&interest=d',
      'gender=female&minAge=60&maxAge=20',
    ]) {
      const res = await server.request(`/match-finder?${query}`, as(free));
      expect(res.status, query.slice(0, 40)).toBe(400);
      expect(res.text.includes('data-match-finder-error'), query.slice(0, 40)).toBe(true);
    }
  });

  it('GAME-01 answers bring ranked cards with a like form that stores a match_finder like and comes back', async () => {
    const { db } = server.booted.app;
    let query = 'gender=female&minAge=18&maxAge=99&region=&interest=music';
    let page = await server.request(`/match-finder?${query}`, as(premium));
    if (!page.text.includes('data-match-like')) {
      query = query.replace('female', 'male');
      page = await server.request(`/match-finder?${query}`, as(premium));
    }
    expect(page.status).toBe(200);
    const ids = [...page.text.matchAll(/<li class="member-card" data-member-id="(\d+)"/g)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).not.toContain(otherSiteId);
    const target = ids[0]!;
    const posted = await postForm(premium, `/match-finder?${query}`, { action: 'like', id: String(target), next: `/match-finder?${query}` });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(`/match-finder?${query}`);
    const [row] = await db
      .select({ source: likes.source })
      .from(likes)
      .where(and(eq(likes.likerId, premium.id), eq(likes.likedId, target)));
    expect(row?.source).toBe('match_finder');
    const again = await server.request(`/match-finder?${query}`, as(premium));
    expect(new RegExp(`data-member-id="${target}"(?:(?!</li>).)*data-liked`, 's').test(again.text), 'shown as liked').toBe(true);
    // Elsewhere than the match finder is no place to return to; bad ids and other sites are refused.
    expect((await postForm(premium, '/match-finder', { action: 'like', id: String(target), next: 'https://evil.test/' })).headers.location).toBe('/match-finder');
    expect((await postForm(premium, '/match-finder', { action: 'like', id: 'abc' })).status).toBe(400);
    expect((await postForm(premium, '/match-finder', { action: 'like', id: String(otherSiteId) })).status).toBe(404);
  });

  it("GAME-01 the questionnaire starts from the member's own search: whom they look for and their age range", async () => {
    const { db } = server.booted.app;
    const [me] = await db
      .select({ gender: profiles.gender, sexuality: profiles.sexuality, min: profiles.searchMinAge, max: profiles.searchMaxAge, region: profiles.regionId })
      .from(profiles)
      .where(eq(profiles.userId, free.id));
    expect(wantedGenders(me!.gender, me!.sexuality), 'the demo member looks for men').toEqual(['male']);
    await db.update(profiles).set({ searchMinAge: 31, searchMaxAge: 47 }).where(eq(profiles.userId, free.id));
    try {
      const page = (await server.request('/match-finder', as(free))).text;
      expect(/id="mf-men"[^>]*checked/.test(page), 'men chosen').toBe(true);
      expect(/id="mf-women"[^>]*checked/.test(page), 'women not chosen').toBe(false);
      expect(/id="mf-min"[^>]*value="31"/.test(page) && /id="mf-max"[^>]*value="47"/.test(page), 'their age range').toBe(true);
      expect(me!.region, 'the demo member has a region').not.toBeNull();
      expect(page, 'their region').toMatch(new RegExp(`<option value="${me!.region}" selected`));
      // An answer wins over the member's own search.
      const answered = (await server.request('/match-finder?gender=female&minAge=20&maxAge=60', as(free))).text;
      expect(/id="mf-women"[^>]*checked/.test(answered) && /id="mf-min"[^>]*value="20"/.test(answered), 'the answers as given').toBe(true);
    } finally {
      await db.update(profiles).set({ searchMinAge: me!.min, searchMaxAge: me!.max }).where(eq(profiles.userId, free.id));
    }
  });
});

describe.each(await everyDatabaseKind())('GAME-02 swipe likes at the same instant (%s)', (kind) => {
  let database: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const test = await createTestDatabase(kind);
    drop = test.drop;
    database = await openDatabase(test.url, { poolSize: 10 });
    const dir = await mkdtemp(join(tmpdir(), 'games-race-'));
    await seedDemo({ db: database.db, photos: new LocalPhotoStore(dir), clock: new FakeClock(), profilesPerSite: 48 });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('GAME-02 ten likes sent together make exactly four, never a fifth', async () => {
    if (!database) throw new Error('no database');
    const clock = new FakeClock(new Date('2026-11-22T12:00:00Z'));
    const deps: LikeDeps = { db: database.db, bus: new InProcessBus(), clock };
    const [free] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, 'free@demo.test'), eq(users.siteId, 1)));
    const player = { siteId: 1, userId: free!.id };
    const deck = (await swipeDeck(database.db, player, { now: clock.now(), limit: 10 })).map((c) => c.id);
    expect(deck.length).toBe(10);
    const results = await Promise.all(deck.map((id) => swipe(deps, player, id, true, AMSTERDAM)));
    expect(results.filter((r) => r.type === 'liked')).toHaveLength(SWIPE_LIKES_PER_DAY);
    expect(results.filter((r) => r.type === 'limit')).toHaveLength(deck.length - SWIPE_LIKES_PER_DAY);
    const rows = await database.db
      .select({ id: likes.id })
      .from(likes)
      .where(and(eq(likes.likerId, player.userId), eq(likes.source, 'swipe')));
    expect(rows).toHaveLength(SWIPE_LIKES_PER_DAY);
  });

  it('SEC-15 GAME-02 eight pairs swipe right on each other at once: no failure, both likes stored, and the match found by one of the two', async () => {
    if (!database) throw new Error('no database');
    const db = database.db;
    const deps: LikeDeps = { db, bus: new InProcessBus(), clock: new FakeClock(new Date('2026-11-22T12:00:00Z')) };
    // Generated members (not the demo accounts the test above swipes with), none of whom has liked anyone yet.
    const ids = (
      await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.siteId, 1), eq(users.role, 'member'), eq(users.status, 'active'), notLike(users.email, '%@demo.test')))
        .orderBy(desc(users.id))
        .limit(16)
    ).map((r) => r.id);
    expect(ids).toHaveLength(16);
    const pairs = Array.from({ length: 8 }, (_, i) => [ids[2 * i]!, ids[2 * i + 1]!] as const);
    const settled = await Promise.allSettled(pairs.flatMap(([a, b]) => [swipe(deps, { siteId: 1, userId: a }, b, true, AMSTERDAM), swipe(deps, { siteId: 1, userId: b }, a, true, AMSTERDAM)]));
    expect(settled.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const results = settled.map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof swipe>>>).value);
    pairs.forEach((pair, i) => {
      const [first, second] = [results[2 * i]!, results[2 * i + 1]!];
      expect(first.type, `pair ${pair}`).toBe('liked');
      expect(second.type, `pair ${pair}`).toBe('liked');
      expect(
        [first, second].some((r) => r.type === 'liked' && r.match),
        `pair ${pair}: the match is found`,
      ).toBe(true);
    });
    expect(await db.select({ likerId: likes.likerId }).from(likes).where(inArray(likes.likerId, ids))).toHaveLength(16);
  });
});
