/**
 * The member's counts (NAV-01, LIK-03): read with the session for a page, alone for anything else, the
 * same numbers either way; only likes and conversations with members listed to
 * the member count.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../../tests/setup/databases';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { blocks, conversationMembers, likes, profiles, regions, users } from '../../db/schema';
import { createSession } from '../auth/sessions';
import { sendMessage } from '../chat/send';
import { grant } from '../credits/ledger';
import { InProcessBus } from '../realtime/bus';
import { loadSessionMember } from './lookup';
import { countMember, NO_COUNTS } from './counts';
import { parseSearchParams, resolveNarrowing } from '../members/search';

const PRICES = { message_credits: 1, photo_credits: 1, gift_credits: 1, message_length: 500 };

describe.each(await databaseKinds())('member counts on %s', (kind) => {
  const clock = new FakeClock();
  let testDb: TestDatabase;
  let kit: SeededDatabase;
  let siteId: number;
  let counter = 0;

  async function member(extra: Partial<typeof users.$inferInsert> = {}): Promise<number> {
    const [user] = await kit.db
      .insert(users)
      .values({ siteId, email: `counts-${++counter}@example.com`, status: 'active', language: 'nl', emailConfirmedAt: clock.now(), credits: 0, ...extra })
      .returning({ id: users.id });
    await kit.db.insert(profiles).values({ userId: user!.id, siteId, name: `Counts${counter}`, gender: 'female', sexuality: 'hetero', birthDate: '1990-01-01', country: 'NL' });
    return user!.id;
  }

  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
    kit = await seededDatabase({ clock, url: testDb.url });
    siteId = (await kit.site()).settings.id;
  });
  afterAll(async () => {
    await kit?.close();
    await testDb?.drop();
  });

  it('NAV-01 LIK-03 BLK-01 a page gets the counts and the blocks either way with the session; they match the counts read alone and leave out members not listed', async () => {
    const me = await member();
    const { token } = await createSession(kit.db, clock, me);
    const [fan, seenFan, shownFan, hidden, blocker, writer, blockedWriter] = [
      await member(),
      await member(),
      await member(),
      await member({ invisible: true }),
      await member(),
      await member(),
      await member(),
    ];
    const at = clock.now();
    await kit.db.insert(likes).values([
      { siteId, likerId: fan, likedId: me, source: 'profile', createdAt: at },
      { siteId, likerId: seenFan, likedId: me, source: 'profile', createdAt: at, seenAt: at, shownAt: at },
      { siteId, likerId: shownFan, likedId: me, source: 'profile', createdAt: at, shownAt: at },
      { siteId, likerId: hidden, likedId: me, source: 'profile', createdAt: at },
      { siteId, likerId: blocker, likedId: me, source: 'profile', createdAt: at },
    ]);
    await kit.db.insert(blocks).values({ blockerId: blocker, blockedId: me });
    const chat = { db: kit.db, bus: new InProcessBus(), clock };
    for (const [from, n] of [
      [writer, 2],
      [blockedWriter, 3],
    ] as const) {
      await grant(kit.db, { memberId: from, amount: 10, reason: 'test', reference: `test:counts:${from}` });
      for (let i = 0; i < n; i++) {
        const sent = await sendMessage(chat, { siteId, userId: from, paidUser: true }, PRICES, { to: me, clientId: crypto.randomUUID(), kind: 'text', body: `Hoi ${i}` });
        expect(sent.type).toBe('sent');
      }
    }
    await kit.db.insert(blocks).values({ blockerId: me, blockedId: blockedWriter });
    expect(
      (
        await kit.db
          .select()
          .from(conversationMembers)
          .where(and(eq(conversationMembers.userId, me)))
      )
        .map((c) => c.unread)
        .sort(),
    ).toEqual([2, 3]);

    const expected = { newLikes: 2, unshown: 1, unread: 2 };
    const page = await loadSessionMember(kit.db, clock, token, siteId, { counts: true });
    expect(page?.user.id).toBe(me);
    expect(page?.counts).toEqual(expected);
    expect(await countMember(kit.db, { siteId, userId: me })).toEqual(expected);
    // BLK-01: the members blocked either way come with it (a page that lists members leaves them out).
    expect([...page!.blocked!].sort((x, y) => x - y)).toEqual([blocker, blockedWriter].sort((x, y) => x - y));
    // Not a page (an API call): the session alone.
    const api = await loadSessionMember(kit.db, clock, token, siteId);
    expect(api?.user.id).toBe(me);
    expect(api?.counts).toBeNull();
    expect(api?.blocked).toBeNull();
    // Another site's session counts for nothing, with or without the counts.
    expect(await loadSessionMember(kit.db, clock, token, siteId + 1, { counts: true })).toBeNull();

    // A member with nothing waiting: zeros, not a missing row.
    const quiet = await member();
    const quietSession = await createSession(kit.db, clock, quiet);
    const quietPage = await loadSessionMember(kit.db, clock, quietSession.token, siteId, { counts: true });
    expect(quietPage?.counts).toEqual(NO_COUNTS);
    expect(quietPage?.blocked).toEqual(new Set());
    expect(await countMember(kit.db, { siteId, userId: quiet })).toEqual(NO_COUNTS);
  });

  it('MEM-01 a page gets the member’s own search with the session: the search starts from it without reading the profile, as it would from the profile', async () => {
    const me = await member();
    const [region] = await kit.db.select({ id: regions.id }).from(regions).where(eq(regions.country, 'NL')).limit(1);
    await kit.db.update(profiles).set({ gender: 'male', sexuality: 'hetero', regionId: region!.id, searchMinAge: 30, searchMaxAge: 40 }).where(eq(profiles.userId, me));
    const { token } = await createSession(kit.db, clock, me);
    const page = await loadSessionMember(kit.db, clock, token, siteId, { counts: true });
    expect(page?.searchDefaults).toEqual({ gender: ['female'], country: 'NL', region: region!.id, minAge: 30, maxAge: 40 });
    // Not a page (an API call): not read; the search reads the profile itself then.
    expect((await loadSessionMember(kit.db, clock, token, siteId))?.searchDefaults).toBeNull();

    const viewer = { siteId, userId: me };
    const noFilters = parseSearchParams(new URLSearchParams(''));
    const fromProfile = await resolveNarrowing(kit.db, { viewer, filters: noFilters, minAge: 18 });
    expect(await resolveNarrowing(kit.db, { viewer, filters: noFilters, minAge: 18, defaults: page!.searchDefaults })).toEqual(fromProfile);
    expect(fromProfile).toMatchObject({ gender: ['female'], country: 'NL', region: region!.id, minAge: 30, maxAge: 40 });
    // The defaults given are the ones used (the profile is not read again): other ages, other filters.
    expect(await resolveNarrowing(kit.db, { viewer, filters: noFilters, minAge: 18, defaults: { ...page!.searchDefaults, minAge: 50, maxAge: 60 } })).toMatchObject({ minAge: 50, maxAge: 60 });
    // A filter of the query's own replaces them, as before.
    expect(await resolveNarrowing(kit.db, { viewer, filters: parseSearchParams(new URLSearchParams('gender=male')), minAge: 18, defaults: page!.searchDefaults })).toMatchObject({
      gender: ['male'],
      country: undefined,
      region: undefined,
    });

    // Read on every page request: a change on /profile shows on the next page.
    await kit.db.update(profiles).set({ searchMinAge: 35 }).where(eq(profiles.userId, me));
    expect((await loadSessionMember(kit.db, clock, token, siteId, { counts: true }))?.searchDefaults).toMatchObject({ minAge: 35, maxAge: 40 });
  });
});
