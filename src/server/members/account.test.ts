import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { DEMO_ACCOUNTS } from '../../demo/seed';
import { profiles, sessions, users } from '../../db/schema';
import { createSession, SESSION_TTL_MS } from '../auth/sessions';
import { loadCurrentUser } from './account';
import { ACTIVITY_GRAIN_MS, loadSessionMember } from '../session/lookup';

describe('the member behind a session cookie (one query per request)', () => {
  let seeded: SeededDatabase;
  let clock: FakeClock;
  let memberId: number;
  let siteId: number;

  beforeAll(async () => {
    clock = new FakeClock();
    seeded = await seededDatabase({ clock });
    siteId = (await seeded.site('localhost')).settings.id;
    const [row] = await seeded.db
      .select({ id: users.id })
      .from(users)
      .where(sql`${users.siteId} = ${siteId} and lower(${users.email}) = ${DEMO_ACCOUNTS.free.email}`);
    memberId = row!.id;
  });
  afterAll(() => seeded.close());

  it('AUTH-04 answers the same member as loadCurrentUser, with the dismissals, and keeps the session rules (judgeSession)', async () => {
    const { token, session } = await createSession(seeded.db, clock, memberId);
    await seeded.db
      .update(users)
      .set({ dismissals: { profile_photo: '2026-11-20T10:00:00.000Z' } })
      .where(eq(users.id, memberId));
    const found = await loadSessionMember(seeded.db, clock, token, siteId);
    expect(found?.user).toEqual(await loadCurrentUser(seeded.db, memberId));
    expect(found?.session.id).toBe(session.id);
    expect(found?.renewed).toBe(false);
    expect(found?.dismissals).toEqual({ profile_photo: '2026-11-20T10:00:00.000Z' });
    // Looking a fresh session up again does not renew it.
    expect((await loadSessionMember(seeded.db, clock, token, siteId))?.renewed).toBe(false);

    // Not a token, an unknown token, another site's host: nobody.
    expect(await loadSessionMember(seeded.db, clock, 'short', siteId)).toBeNull();
    expect(await loadSessionMember(seeded.db, clock, 'x'.repeat(43), siteId)).toBeNull();
    expect(await loadSessionMember(seeded.db, clock, token, siteId + 1)).toBeNull();
  });

  it('MEM-01 CHT-01 a signed-in request records when the member was last here, writing it at most once a quarter hour', async () => {
    const { token } = await createSession(seeded.db, clock, memberId);
    const lastActive = async () => (await seeded.db.select({ at: profiles.lastActiveAt }).from(profiles).where(eq(profiles.userId, memberId)))[0]!.at.getTime();
    const long = new Date(clock.now().getTime() - 30 * 24 * 3600_000);
    await seeded.db.update(profiles).set({ lastActiveAt: long }).where(eq(profiles.userId, memberId));
    // A page (with the counts) and an API call (without) both count.
    await loadSessionMember(seeded.db, clock, token, siteId, { counts: true });
    const first = clock.now().getTime();
    expect(await lastActive()).toBe(first);
    clock.advance(ACTIVITY_GRAIN_MS - 1000);
    await loadSessionMember(seeded.db, clock, token, siteId);
    expect(await lastActive()).toBe(first);
    clock.advance(1000);
    await loadSessionMember(seeded.db, clock, token, siteId);
    expect(await lastActive()).toBe(clock.now().getTime());
    // A session that counts for nothing (another site's host) records nothing.
    clock.advance(ACTIVITY_GRAIN_MS);
    const before = await lastActive();
    expect(await loadSessionMember(seeded.db, clock, token, siteId + 1)).toBeNull();
    expect(await lastActive()).toBe(before);
  });

  it('AUTH-04 a session used in its second half is extended; an expired one is removed; a deleted member has none', async () => {
    const { token, session } = await createSession(seeded.db, clock, memberId);
    clock.advance(SESSION_TTL_MS / 2 + 1000);
    const renewed = await loadSessionMember(seeded.db, clock, token, siteId);
    expect(renewed?.renewed).toBe(true);
    expect(renewed?.session.expiresAt.getTime()).toBe(clock.now().getTime() + SESSION_TTL_MS);
    const [stored] = await seeded.db.select({ expiresAt: sessions.expiresAt }).from(sessions).where(eq(sessions.id, session.id));
    expect(stored?.expiresAt.getTime()).toBe(clock.now().getTime() + SESSION_TTL_MS);

    clock.advance(SESSION_TTL_MS + 1000);
    expect(await loadSessionMember(seeded.db, clock, token, siteId)).toBeNull();
    expect(await seeded.db.select().from(sessions).where(eq(sessions.id, session.id))).toEqual([]);

    const other = await createSession(seeded.db, clock, memberId);
    await seeded.db.update(users).set({ status: 'deleted' }).where(eq(users.id, memberId));
    expect(await loadSessionMember(seeded.db, clock, other.token, siteId)).toBeNull();
    await seeded.db.update(users).set({ status: 'active' }).where(eq(users.id, memberId));
    expect((await loadSessionMember(seeded.db, clock, other.token, siteId))?.user.id).toBe(memberId);
  });
});
