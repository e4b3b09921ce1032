/**
 * The swipe game (GAME-02): one member card at a time from the members listed to the player (the one
 * listing rule, visibility.ts), skipping those the player already liked; a like goes through the likes
 * service with source 'swipe'. At most {@link SWIPE_LIKES_PER_DAY} swipe likes per member per day, counted
 * from the likes rows with source 'swipe' since midnight in the site's time zone (site-time.ts;
 * docs/decisions/030-swipe-game-daily-limit.md). A pass changes nothing on the server.
 */
import { and, count, desc, eq, gte, inArray, notExists, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { likes, profiles, users } from '../../db/schema';
import { like, type LikeDeps, type LikeRefusal, type Member } from '../members/likes';
import { selectMemberCards, toMemberCard, type MemberCard } from '../members/listing';
import { wantedGenders } from '../members/matches';
import { listedTo } from '../members/visibility';
import type { EventBus } from '../realtime/bus';
import { localMidnight, nextLocalMidnight } from '../sites/site-time';
import { parseId } from '../../shared/ids';

export const SWIPE_LIKES_PER_DAY = 4;
/** Cards the page hands the deck at once; the deck reloads the page for more. */
export const SWIPE_DECK_SIZE = 12;
/** Skipped ids a no-JS pass carries in the query, at most (the oldest drop off). */
export const MAX_SKIPPED = 40;

export interface SwipeAllowance {
  used: number;
  left: number;
  /** Seconds until the next local midnight (when the count starts again). */
  resetInSeconds: number;
}

/** Swipe likes the member made today (site-local day) and how many are left. */
export async function swipeAllowance(db: Db, member: Member, now: Date, timeZone: string): Promise<SwipeAllowance> {
  const since = localMidnight(now, timeZone);
  const [row] = await db
    .select({ n: count() })
    .from(likes)
    .where(and(eq(likes.likerId, member.userId), eq(likes.siteId, member.siteId), eq(likes.source, 'swipe'), gte(likes.createdAt, since)));
  const used = row?.n ?? 0;
  const resetInSeconds = Math.max(1, Math.ceil((nextLocalMidnight(now, timeZone).getTime() - now.getTime()) / 1000));
  return { used, left: Math.max(0, SWIPE_LIKES_PER_DAY - used), resetInSeconds };
}

/** SQL: the player has not liked the member in `users` yet. */
function notLikedBy(playerId: number): SQL {
  return notExists(sql`(select 1 from ${likes} where ${likes.likerId} = ${playerId} and ${likes.likedId} = ${users.id})`);
}

/**
 * The next cards of the deck: members listed to the player, of the gender they are looking for, not
 * liked by them yet, not among `skip` (passed in this round), most recently active first.
 */
export async function swipeDeck(db: Db, member: Member, options: { now: Date; skip?: readonly number[]; limit?: number }): Promise<MemberCard[]> {
  const conditions: SQL[] = [listedTo({ siteId: member.siteId, userId: member.userId }), notLikedBy(member.userId)];
  // Whom the player is looking for (their gender and orientation), as the search starts from.
  const [me] = await db.select({ gender: profiles.gender, sexuality: profiles.sexuality }).from(profiles).where(eq(profiles.userId, member.userId)).limit(1);
  if (me) conditions.push(inArray(profiles.gender, wantedGenders(me.gender, me.sexuality)));
  const skip = (options.skip ?? []).slice(-MAX_SKIPPED);
  if (skip.length > 0) conditions.push(notInArray(users.id, skip));
  const rows = await selectMemberCards(db)
    .where(and(...conditions))
    .orderBy(desc(profiles.lastActiveAt), desc(users.id))
    .limit(Math.min(Math.max(options.limit ?? SWIPE_DECK_SIZE, 1), 50));
  return rows.map((r) => toMemberCard(r, options.now));
}

export type SwipeResult = { type: 'passed'; left: number } | { type: 'liked'; match: boolean; left: number } | { type: 'limit'; retryAfterSeconds: number } | { type: 'refused'; reason: LikeRefusal };

/**
 * The player decides on `otherId`. A like past today's allowance is refused with the seconds until the
 * site's next midnight; liking a member already liked counts nothing again. A pass is checked against the
 * listing rule only (so it reveals nothing) and stores nothing.
 */
export async function swipe(deps: LikeDeps, member: Member, otherId: number, likeIt: boolean, timeZone: string): Promise<SwipeResult> {
  if (otherId === member.userId) return { type: 'refused', reason: 'self' };
  if (!likeIt) {
    const [row] = await deps.db
      .select({ id: users.id })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(and(eq(users.id, otherId), listedTo({ siteId: member.siteId, userId: member.userId })))
      .limit(1);
    if (!row) return { type: 'refused', reason: 'not_found' };
    return { type: 'passed', left: (await swipeAllowance(deps.db, member, deps.clock.now(), timeZone)).left };
  }
  // The count and the like in one transaction that holds the player's row: two likes sent at the same
  // instant (two tabs, a double tap) take turns, so both cannot see 3 of 4 used and make a fifth.
  // What the like publishes and who it notifies go out after the commit, when the row is there to read.
  // Two members swiping each other at the same moment (SEC-15, decision 057): the player's row is held
  // FOR NO KEY UPDATE, which the other's like (a key-share on this row) does not wait for, so they cannot
  // deadlock; and the pair's own lock makes the second swipe see the first one's like, so the match is
  // found by one of them instead of neither.
  const after: Array<() => Promise<unknown>> = [];
  const result = await deps.db.transaction(async (tx): Promise<SwipeResult> => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, member.userId)).for('no key update');
    const [low, high] = member.userId < otherId ? [member.userId, otherId] : [otherId, member.userId];
    await tx.execute(sql`select pg_advisory_xact_lock(${SWIPE_PAIR_LOCK_SPACE}::int4, hashtext(${`${low}:${high}`}))`);
    const db = tx as unknown as Db;
    const allowance = await swipeAllowance(db, member, deps.clock.now(), timeZone);
    if (allowance.left <= 0) return { type: 'limit', retryAfterSeconds: allowance.resetInSeconds };
    const bus: EventBus = Object.assign(Object.create(deps.bus) as EventBus, {
      publish: async (...event: Parameters<EventBus['publish']>) => void after.push(() => deps.bus.publish(...event)),
    });
    const notify = deps.notify && (async (...args: Parameters<NonNullable<LikeDeps['notify']>>) => void after.push(() => deps.notify!(...args)));
    const liked = await like({ db, bus, clock: deps.clock, notify }, member, otherId, 'swipe');
    if (liked.type === 'refused') return liked;
    return { type: 'liked', match: liked.match, left: allowance.left - (liked.created ? 1 : 0) };
  });
  for (const task of after) await task();
  return result;
}

/** The advisory-lock space of swipe pairs (pg_advisory_xact_lock(space, hash of the pair)); any fixed int4. */
const SWIPE_PAIR_LOCK_SPACE = 0x5357_5031;

/** Hours and minutes of a wait in seconds, rounded up to the minute (for 'come back in 3 h 12 min'). */
export function hoursMinutes(seconds: number): { hours: number; minutes: number } {
  const total = Math.ceil(seconds / 60);
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}

/** Ids from a comma-separated query value: positive integers only, deduplicated, the last {@link MAX_SKIPPED}. */
export function parseSkipped(value: string | null | undefined): number[] {
  if (!value || value.length > 12 * MAX_SKIPPED * 2) return [];
  const ids = value
    .split(',')
    .map(parseId)
    .filter((id) => id !== null);
  return [...new Set(ids)].slice(-MAX_SKIPPED);
}
