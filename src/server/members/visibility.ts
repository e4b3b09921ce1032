/**
 * The one rule for who may be shown to whom (issue 9): every list of members (search, similar results,
 * likes, games, signup matches, teasers, and later chats) and every profile page goes through it.
 *
 * A member is listed to a viewer when the profile belongs to the viewer's site, the profile is active
 * (not disabled), the account is active (not deleted, not unconfirmed), not invisible, is not the viewer,
 * and neither has blocked the other (BLK-01). Visitors (no viewer) see the first four conditions, and only
 * members who chose to be shown on the public pages, or fictional profiles (HON-02).
 *
 * The conditions are SQL over `profiles` joined to `users` on `users.id = profiles.user_id`, so a query
 * adds them with `.where(and(listedTo(...), ...))` and the database, not the page, filters.
 */
import { and, eq, ne, or, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { blocks, profiles, users } from '../../db/schema';
import { preparedOn } from '../../db/prepared';

export interface Viewer {
  siteId: number;
  /** The viewing member, or null for a visitor. */
  userId: number | null;
  /**
   * With `userId` null: every member listed to someone, not only those shown in public (HON-02). Only the
   * shared search pages' base query asks this (search-pages.ts); each viewer's page is then filtered.
   */
  everyone?: boolean;
}

/**
 * A viewer whose ids are placeholders, for a query built once and run with values (src/db/prepared.ts),
 * or a column of an outer query (the session lookup joins the member's counts to its own row).
 */
export interface ViewerParams {
  siteId: number | Placeholder;
  userId: number | Placeholder | AnyColumn | null;
}

/** SQL: the member lets the public pages show them (HON-02), or the profile is fictional (always labelled). */
export const shownInPublic: SQL = or(eq(profiles.fictional, true), eq(users.publicProfile, true)) as SQL;

/** SQL: the profile (joined with its user) may be listed to `viewer`. */
export function listedTo(viewer: Viewer | ViewerParams): SQL {
  const conditions: SQL[] = [eq(profiles.siteId, viewer.siteId), eq(profiles.status, 'active'), eq(users.status, 'active'), eq(users.invisible, false)];
  if (viewer.userId !== null) {
    conditions.push(ne(users.id, viewer.userId), notBlockedEitherWay(viewer.userId, users.id));
  } else if (!('everyone' in viewer && viewer.everyone)) {
    // HON-02: a visitor sees only the members who let the public pages show them, and fictional profiles.
    conditions.push(shownInPublic);
  }
  return and(...conditions) as SQL;
}

/**
 * SQL: the ids of the members `viewerId` blocked or is blocked by, as an int array (both ways, BLK-01).
 * With the viewer a value, a placeholder or a column of an outer query, PostgreSQL reads it once per
 * query (an InitPlan), however many rows then test against it.
 */
export function blockedEitherWay(viewerId: number | Placeholder | AnyColumn): SQL<number[]> {
  return sql<
    number[]
  >`array(select ${blocks.blockedId} from ${blocks} where ${blocks.blockerId} = ${viewerId} union select ${blocks.blockerId} from ${blocks} where ${blocks.blockedId} = ${viewerId})`;
}

/**
 * SQL: no block exists between the viewer and the member in `other`, in either direction (BLK-01). The
 * viewer's blocks are read once (`blockedEitherWay`) and each row's member is compared with them, instead
 * of a lookup in `blocks` per row. `viewerId` must not be a column of the rows being tested (the array
 * would then be read per row): a value, a placeholder, or a column of an outer query.
 */
export function notBlockedEitherWay(viewerId: number | Placeholder | AnyColumn, other: SQL.Aliased | AnyColumn | SQL): SQL {
  return sql`${other} <> all(${blockedEitherWay(viewerId)})`;
}

/** Whether `memberId` may be shown to `viewer` (profile pages, likes, a conversation's start). */
export async function isListedTo(db: Db, viewer: Viewer, memberId: number): Promise<boolean> {
  // Built once per handle (src/db/prepared.ts): a profile page asks this on every request.
  const member = viewer.userId !== null;
  const name = member ? 'is_listed_to_member' : 'is_listed_to_visitor';
  const query = preparedOn(db, name, (d) =>
    d
      .select({ id: users.id })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(and(eq(users.id, sql.placeholder('memberId')), listedTo({ siteId: sql.placeholder('siteId'), userId: member ? sql.placeholder('userId') : null })))
      .limit(1)
      .prepare(name),
  );
  const [row] = await query.execute({ memberId, siteId: viewer.siteId, userId: viewer.userId ?? 0 });
  return row !== undefined;
}
