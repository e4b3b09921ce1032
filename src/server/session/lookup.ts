/**
 * The signed-in member behind a session cookie, read in one query on every signed-in request (SEC-07,
 * NAV-01): the session's rules (../auth/sessions.ts), the member (../members/account.ts) and, for a page,
 * what its navigation and lists need: the counts (./counts.ts), the blocks either way (BLK-01) and the
 * member's own search defaults. Fused on purpose (docs/decisions/050): it is the one query of most pages.
 */
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { photos, profiles, sessions, users } from '../../db/schema';
import { blockedEitherWay } from '../members/visibility';
import type { Clock } from '../clock';
import { applySessionVerdict, isTokenShaped, judgeSession, sessionIdFromToken, type ValidatedSession } from '../auth/sessions';
import { mainPhotoJoin, memberColumns, toCurrentUser, type CurrentUser, type MemberRow } from '../members/account';
import { searchDefaultColumns, searchDefaultsOf, type SearchDefaults } from '../members/search';
import { memberCountsJoin, type MemberCounts } from './counts';

export interface SessionMember extends ValidatedSession {
  user: CurrentUser;
  /** The member's alert dismissals (ALR-04), read with the rest so the alerts need no query of their own. */
  dismissals: Record<string, string>;
  /** The member's badge and modal counts, when they were asked for (a page request). */
  counts: MemberCounts | null;
  /**
   * The members blocked by this member or blocking them (BLK-01), read with the counts (a page request),
   * so a page that lists members can leave them out without asking again; null when not read.
   */
  blocked: ReadonlySet<number> | null;
  /** The member's own search ('looking for', region, ages), read with the counts (a page request); null when not read. */
  searchDefaults: SearchDefaults | null;
}

const sessionColumns = { ...memberColumns, sessionId: sessions.id, expiresAt: sessions.expiresAt, siteId: users.siteId, dismissals: users.dismissals, lastActiveAt: profiles.lastActiveAt };

/**
 * How far behind a member's `last_active_at` may fall before a signed-in request writes it again: at most
 * one write per member a quarter hour. Search, the landers and the games list members most recently
 * active first, and the unread reminder mails only a member who has not been here since their newest
 * message (src/server/jobs/unread-reminders.ts). Nothing shows the time itself to anyone but the member
 * (their data export), and no page says a member is online or active (HON-01).
 */
export const ACTIVITY_GRAIN_MS = 15 * 60_000;

/**
 * The member behind a session cookie, in one query that runs on every signed-in request (built once per
 * database handle): the session, the account, the profile, the main photo and the dismissals, and with
 * `counts` (a page request: its navigation shows them) the member's counts too (src/server/members/counts.ts),
 * the members blocked either way (a page that lists members leaves them out with no query of its own)
 * and the member's own search defaults (the search page starts from them without reading the profile again).
 * The session rules are judgeSession's (src/server/auth/sessions.ts). Null when the token counts for nothing.
 */
export async function loadSessionMember(db: Db, clock: Clock, token: string, siteId: number, options: { counts?: boolean } = {}): Promise<SessionMember | null> {
  if (!isTokenShaped(token)) return null;
  const id = sessionIdFromToken(token);
  let row: (MemberRow & { sessionId: string; expiresAt: Date; siteId: number; dismissals: Record<string, string> | null; lastActiveAt: Date }) | undefined;
  let counts: MemberCounts | null = null;
  let blocked: ReadonlySet<number> | null = null;
  let searchDefaults: SearchDefaults | null = null;
  if (options.counts) {
    const query = preparedOn(db, 'session_member_counts', (d) => {
      const join = memberCountsJoin(d, { siteId: sql.placeholder('siteId'), userId: sessions.userId });
      return d
        .select({ ...sessionColumns, ...join.columns, ...searchDefaultColumns, blocked: blockedEitherWay(sessions.userId) })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .innerJoin(profiles, eq(profiles.userId, users.id))
        .leftJoin(photos, mainPhotoJoin)
        .crossJoinLateral(join.attention)
        .crossJoinLateral(join.unread)
        .where(eq(sessions.id, sql.placeholder('id')))
        .limit(1)
        .prepare('session_member_counts');
    });
    const [found] = await query.execute({ id, siteId });
    row = found;
    if (found) {
      counts = { newLikes: found.newLikes, unshown: found.unshown, unread: found.unread };
      blocked = new Set(found.blocked.map(Number));
      searchDefaults = searchDefaultsOf(found);
    }
  } else {
    const query = preparedOn(db, 'session_member', (d) =>
      d
        .select(sessionColumns)
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .innerJoin(profiles, eq(profiles.userId, users.id))
        .leftJoin(photos, mainPhotoJoin)
        .where(eq(sessions.id, sql.placeholder('id')))
        .limit(1)
        .prepare('session_member'),
    );
    [row] = await query.execute({ id });
  }
  if (!row) return null;
  const now = clock.now();
  const valid = await applySessionVerdict(db, now, judgeSession(row, now, siteId), { id: row.sessionId, userId: row.id, expiresAt: row.expiresAt });
  if (!valid) return null;
  if (now.getTime() - row.lastActiveAt.getTime() >= ACTIVITY_GRAIN_MS) await recordActivity(db, row.id, now);
  return { ...valid, user: toCurrentUser(row), dismissals: row.dismissals ?? {}, counts, blocked, searchDefaults };
}

/** Moves the member's `last_active_at` to `now`, unless another request (maybe another process) just did. */
async function recordActivity(db: Db, userId: number, now: Date): Promise<void> {
  const stale = new Date(now.getTime() - ACTIVITY_GRAIN_MS);
  await db
    .update(profiles)
    .set({ lastActiveAt: now })
    .where(and(eq(profiles.userId, userId), lte(profiles.lastActiveAt, stale)));
}
