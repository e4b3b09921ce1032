/**
 * Likes (LIK-01..03): a member likes another member of the same site; a mutual like is a match.
 *
 * Every read and every like goes through the one listing rule (visibility.ts): a member may only like,
 * and only ever sees likes of, members that are listed to them. A block (BLK-01) therefore hides the
 * likes between the two in both directions without deleting them: the rows stay, so unblocking brings
 * them back as they were, but no list, count or 'new like' modal ever shows them while the block lasts.
 *
 * No Astro types here: callers pass the database, bus, clock and a notifier.
 */
import { and, desc, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { descNullsLast } from '../../db/order';
import type { Db } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { likes, photos, profiles, regions, users, type LikeSource } from '../../db/schema';
import type { Clock } from '../clock';
import type { NotifyEvent } from '../notify/notify';
import type { EventBus } from '../realtime/bus';
import { activeMainPhoto, memberCardColumns, regionOfProfile, toMemberCard, type MemberCard } from './listing';
import { isListedTo, listedTo, type Viewer, type ViewerParams } from './visibility';

export interface LikeDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
  /** Tells a member of a like or a match (notify.ts `notify`, bound to the app); preferences apply there. */
  notify?: (memberId: number, event: NotifyEvent) => Promise<unknown>;
}

/** A member, by the viewer's own id and site. */
export interface Member {
  siteId: number;
  userId: number;
}

/** Why a like (or a block) was refused; the API maps each to an error code. */
export type LikeRefusal = 'self' | 'not_found';

export type LikeResult = { type: 'ok'; likeId: number; created: boolean; match: boolean } | { type: 'refused'; reason: LikeRefusal };

/** SQL: the other member likes back (the like in `likes` is part of a match). */
const likedBack = sql<boolean>`exists (select 1 from likes as like_back where like_back.liker_id = ${likes.likedId} and like_back.liked_id = ${likes.likerId})`;

/** Member cards joined with a like: `otherSide` names the column of the like that points at the card's member. */
function selectLikeCards(db: Db, otherSide: typeof likes.likerId | typeof likes.likedId) {
  return db
    .select({
      ...memberCardColumns,
      likeId: likes.id,
      likedAt: likes.createdAt,
      // The like's time to the microsecond, for the cursor: a Date keeps milliseconds only, and likes
      // made within one millisecond (a bulk import, the seed) would then be skipped by the next page.
      likedAtExact: sql<string>`to_char(${likes.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      seenAt: likes.seenAt,
      match: likedBack,
    })
    .from(likes)
    .innerJoin(users, eq(users.id, otherSide))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(regions, regionOfProfile)
    .leftJoin(photos, activeMainPhoto);
}

const viewerOf = (m: Member): Viewer => ({ siteId: m.siteId, userId: m.userId });

/** The id of `likerId`'s like of `likedId`, or null (built once per handle: every profile view asks it). */
export async function likeIdOf(db: Db, likerId: number, likedId: number): Promise<number | null> {
  const query = preparedOn(db, 'like_id_of', (d) =>
    d
      .select({ id: likes.id })
      .from(likes)
      .where(and(eq(likes.likerId, sql.placeholder('likerId')), eq(likes.likedId, sql.placeholder('likedId'))))
      .limit(1)
      .prepare('like_id_of'),
  );
  const [like] = await query.execute({ likerId, likedId });
  return like?.id ?? null;
}

/**
 * `member` likes `otherId`. Idempotent: liking again returns the same like and publishes nothing.
 * Refused for oneself and for anyone not listed to the member (unknown, other site, invisible, blocked
 * either way: all answer 'not_found' so a block is never revealed).
 */
export async function like(deps: LikeDeps, member: Member, otherId: number, source: LikeSource = 'profile'): Promise<LikeResult> {
  if (otherId === member.userId) return { type: 'refused', reason: 'self' };
  if (!(await isListedTo(deps.db, viewerOf(member), otherId))) return { type: 'refused', reason: 'not_found' };
  const now = deps.clock.now();
  const inserted = await deps.db
    .insert(likes)
    .values({ siteId: member.siteId, likerId: member.userId, likedId: otherId, source, createdAt: now })
    .onConflictDoNothing({ target: [likes.likerId, likes.likedId] })
    .returning({ id: likes.id });
  const match = (await likeIdOf(deps.db, otherId, member.userId)) !== null;
  if (inserted[0] === undefined) return { type: 'ok', likeId: (await likeIdOf(deps.db, member.userId, otherId))!, created: false, match };
  const likeId = inserted[0].id;
  // UX-01: the match is news to this member too, even when the other's like was shown to them already as
  // a 'New like': that like becomes unshown again, so the modal says 'It's a match!' once — on the spot
  // (the like's answer, or the page its form goes back to), else on their next page.
  if (match)
    await deps.db
      .update(likes)
      .set({ shownAt: null })
      .where(and(eq(likes.likerId, otherId), eq(likes.likedId, member.userId)));
  await deps.bus.publish('member.liked', { likeId, likerId: member.userId, likedId: otherId, siteId: member.siteId });
  if (match) await deps.bus.publish('member.matched', { memberIds: [member.userId, otherId], by: member.userId, siteId: member.siteId });
  if (deps.notify) {
    await deps.notify(otherId, { type: match ? 'match' : 'like_received', fromUserId: member.userId });
  }
  return { type: 'ok', likeId, created: true, match };
}

/** `member` takes back their like of `otherId`. Idempotent: no like, nothing happens. */
export async function unlike(deps: LikeDeps, member: Member, otherId: number): Promise<{ removed: boolean }> {
  const removed = await deps.db
    .delete(likes)
    .where(and(eq(likes.likerId, member.userId), eq(likes.likedId, otherId), eq(likes.siteId, member.siteId)))
    .returning({ id: likes.id });
  if (removed.length === 0) return { removed: false };
  await deps.bus.publish('member.unliked', { likerId: member.userId, likedId: otherId, siteId: member.siteId });
  return { removed: true };
}

export type LikeListType = 'received' | 'given' | 'matches';

/** Keyset position: the last row's like time (ISO 8601, UTC, to the microsecond) and like id. */
export interface LikeCursor {
  at: string;
  id: number;
}

export interface LikeCard extends MemberCard {
  likeId: number;
  likedAt: Date;
  /** Received likes: not yet seen by the member (LIK-02). */
  isNew: boolean;
}

/**
 * One page of likes the member received, gave, or matches (mutual likes), newest first, as cards of the
 * other members. Only members listed to the member appear (blocks hide likes both ways).
 */
export async function listLikes(
  db: Db,
  member: Member,
  options: { type: LikeListType; now: Date; perPage?: number; after?: LikeCursor | null },
): Promise<{ cards: LikeCard[]; next: LikeCursor | null }> {
  const perPage = Math.min(Math.max(options.perPage ?? 24, 1), 60);
  const received = options.type === 'received';
  // Built once per handle for each list and for first or later pages (src/db/prepared.ts): the client
  // loads the likes every few minutes in every open tab (CLI-08).
  const name = `list_likes_${options.type}_${options.after ? 'after' : 'first'}`;
  const query = preparedOn(db, name, (d) => {
    // The like that sorts the list: received → theirs to me; given and matches → mine to them.
    const otherSide = received ? likes.likerId : likes.likedId;
    const mySide = received ? likes.likedId : likes.likerId;
    const userId = sql.placeholder('userId');
    const conditions: SQL[] = [eq(mySide, userId), listedTo({ siteId: sql.placeholder('siteId'), userId })];
    if (options.type === 'matches') conditions.push(likedBack);
    if (options.after) {
      const at = sql`${sql.placeholder('at')}::timestamptz`;
      conditions.push(or(lt(likes.createdAt, at), and(eq(likes.createdAt, at), lt(likes.id, sql.placeholder('afterId')))) as SQL);
    }
    return selectLikeCards(d, otherSide)
      .where(and(...conditions))
      .orderBy(descNullsLast(likes.createdAt), descNullsLast(likes.id))
      .limit(sql.placeholder('limit'))
      .prepare(name);
  });
  const rows = await query.execute({ userId: member.userId, siteId: member.siteId, limit: perPage + 1, at: options.after?.at ?? null, afterId: options.after?.id ?? null });
  const page = rows.slice(0, perPage);
  const cards = page.map((r) => {
    const { birthDate: _b, seenAt, match: _m, likedAtExact: _x, ...card } = toMemberCard(r, options.now);
    return { ...card, isNew: received && seenAt === null };
  });
  const last = page[page.length - 1];
  const next = rows.length > perPage && last ? { at: last.likedAtExact, id: last.likeId } : null;
  return { cards, next };
}

/** Ids of the members who liked `member` (listed to them), with whether the like is still new (LIK-01). */
export async function likedBy(db: Db, member: Member): Promise<{ id: number; like_new: boolean }[]> {
  const query = preparedOn(db, 'liked_by', (d) => {
    const userId = sql.placeholder('userId');
    return d
      .select({ id: users.id, seenAt: likes.seenAt })
      .from(likes)
      .innerJoin(users, eq(users.id, likes.likerId))
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(likes.likedId, userId), listedTo({ siteId: sql.placeholder('siteId'), userId })))
      .orderBy(descNullsLast(likes.createdAt), descNullsLast(likes.id))
      .prepare('liked_by');
  });
  const rows = await query.execute({ userId: member.userId, siteId: member.siteId });
  return rows.map((r) => ({ id: r.id, like_new: r.seenAt === null }));
}

/**
 * LIK-02: the member opened `otherId`'s profile, so that member's like to them is no longer new. True
 * when it was new until now (the member's badge counts changed).
 */
export async function markSeen(deps: Pick<LikeDeps, 'db' | 'clock'>, member: Member, otherId: number): Promise<boolean> {
  // Built once per handle (src/db/prepared.ts): every profile page a member opens runs it.
  const query = preparedOn(deps.db, 'mark_like_seen', (d) =>
    d
      .update(likes)
      .set({ seenAt: sql`${sql.placeholder('now')}::timestamptz` })
      .where(and(eq(likes.likerId, sql.placeholder('otherId')), eq(likes.likedId, sql.placeholder('userId')), isNull(likes.seenAt)))
      .returning({ id: likes.id })
      .prepare('mark_like_seen'),
  );
  const cleared = await query.execute({ now: deps.clock.now().toISOString(), otherId, userId: member.userId });
  return cleared.length > 0;
}

export interface AutoLike {
  id: number;
  name: string;
  /** File name of the main photo (the 'match' size is served from it), or null. */
  image: string | null;
  fictional: boolean;
  /** Whether the member likes this one too (the modal then says 'match'). */
  match: boolean;
}

/**
 * LIK-03: the next like received that the member has not been shown yet (matches first, UX-01; then
 * oldest first), marked shown now so it is shown once, in whichever tab or process asks first. With
 * `fromId`, only that member's like (the live 'match' event names them). Likes from members not listed
 * to the member are skipped and stay unshown.
 */
export async function nextAutoLike(deps: Pick<LikeDeps, 'db' | 'clock'>, member: Member, fromId?: number): Promise<AutoLike | null> {
  const conditions = [eq(likes.likedId, member.userId), isNull(likes.shownAt), listedTo(viewerOf(member))];
  if (fromId !== undefined) conditions.push(eq(likes.likerId, fromId));
  const [row] = await selectLikeCards(deps.db, likes.likerId)
    .where(and(...conditions))
    .orderBy(desc(likedBack), likes.createdAt, likes.id)
    .limit(1);
  if (!row) return null;
  const marked = await deps.db
    .update(likes)
    .set({ shownAt: deps.clock.now() })
    .where(and(eq(likes.id, row.likeId), isNull(likes.shownAt)))
    .returning({ id: likes.id });
  // Another request showed it in the meantime: try the next one.
  if (marked.length === 0) return nextAutoLike(deps, member, fromId);
  return { id: row.id, name: row.name, image: row.image, fictional: row.fictional, match: row.match };
}

/**
 * The likes the member received from members listed to them, counted twice in one aggregate (always one
 * row): `newLikes` not yet seen (the nav badge) and `unshown` not yet shown (the modal); for the viewer's ids as
 * placeholders or as a column of an outer query: every member page reads it (src/server/session/counts.ts).
 */
export function likeAttentionSelect(d: Db, viewer: ViewerParams & { userId: NonNullable<ViewerParams['userId']> }) {
  return d
    .select({
      newLikes: sql<number>`count(*) filter (where ${likes.seenAt} is null)`.mapWith(Number).as('new_likes'),
      unshown: sql<number>`count(*) filter (where ${likes.shownAt} is null)`.mapWith(Number).as('unshown_likes'),
    })
    .from(likes)
    .innerJoin(users, eq(users.id, likes.likerId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(likes.likedId, viewer.userId), or(isNull(likes.seenAt), isNull(likes.shownAt)), listedTo(viewer)));
}
