/**
 * The counts every member page shows (NAV-01, NAV-06, CLI-09, LIK-03): likes not yet seen (the likes
 * badge), likes not yet shown (the like modal) and unread messages (the chat badge).
 *
 * They are two aggregates (likes-web.ts `likeAttentionSelect`, conversations.ts `unreadSelect`). A page
 * request reads them in the session lookup itself, joined laterally to the member's row
 * (`memberCountsJoin`, used by `loadSessionMember`), so a member page sends one query for the member and
 * its counts instead of three (docs/decisions/050-member-counts-with-the-session.md). Anything else that
 * needs them runs `countMember`, the same aggregates alone. A request reads them once however many parts
 * of the page ask (`memberCountsForRequest`); a page that changes one while it renders (opening a
 * profile sees that member's like, opening a chat reads it) says so with `memberCountsChanged`, and the
 * parts rendered after it read them again.
 */
import { sql, type AnyColumn } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { unreadSelect } from '../chat/conversations';
import { likeAttentionSelect } from '../members/likes';
import type { Member } from '../members/likes';

export interface MemberCounts {
  /** Likes from members listed to them that they have not seen (the likes badge). */
  newLikes: number;
  /** Likes not yet shown in the like modal. */
  unshown: number;
  /** Unread messages over their visible conversations (the chat badge). */
  unread: number;
}

export const NO_COUNTS: MemberCounts = Object.freeze({ newLikes: 0, unshown: 0, unread: 0 });

/**
 * The counts' subqueries for a member whose id is a column of the outer query (the session's `user_id`),
 * to join with `crossJoinLateral`, and the columns to select from them. Each is an aggregate: one row.
 */
export function memberCountsJoin(d: Db, member: { siteId: ReturnType<typeof sql.placeholder>; userId: AnyColumn }) {
  const attention = likeAttentionSelect(d, member).as('member_like_attention');
  const unread = unreadSelect(d, member.userId).as('member_unread');
  return { attention, unread, columns: { newLikes: attention.newLikes, unshown: attention.unshown, unread: unread.unread } };
}

/** The member's counts in one query (built once per database handle). */
export async function countMember(db: Db, member: Member): Promise<MemberCounts> {
  const query = preparedOn(db, 'member_counts', (d) => {
    const attention = likeAttentionSelect(d, { siteId: sql.placeholder('siteId'), userId: sql.placeholder('userId') }).as('member_like_attention');
    const unread = unreadSelect(d, sql.placeholder('userId')).as('member_unread');
    return d.select({ newLikes: attention.newLikes, unshown: attention.unshown, unread: unread.unread }).from(attention).crossJoin(unread).prepare('member_counts');
  });
  const [row] = await query.execute({ siteId: member.siteId, userId: member.userId });
  return row ?? NO_COUNTS;
}

type CountsLocals = { app: { db: Db }; user: { id: number } | null; site: { settings: { id: number } } };

const perRequest = new WeakMap<object, Promise<MemberCounts>>();

/** This request's member's counts (zeros for a visitor), read once per request. */
export function memberCountsForRequest(locals: CountsLocals): Promise<MemberCounts> {
  if (!locals.user) return Promise.resolve(NO_COUNTS);
  let counts = perRequest.get(locals);
  if (!counts) {
    counts = countMember(locals.app.db, { siteId: locals.site.settings.id, userId: locals.user.id });
    perRequest.set(locals, counts);
  }
  return counts;
}

/** The counts the session lookup read with the member (src/middleware.ts). */
export function knowMemberCounts(locals: object, counts: MemberCounts): void {
  perRequest.set(locals, Promise.resolve(counts));
}

/** The page changed the member's counts (a like seen, a conversation read): what renders next reads them again. */
export function memberCountsChanged(locals: object): void {
  perRequest.delete(locals);
}
