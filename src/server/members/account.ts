/** The signed-in member as `GET /api/user.php` returns it (SPEC §3 User). */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { blocks, photos, profiles, sessions, users, type PhotoStatus, type ProfileStatus, type UserStatus } from '../../db/schema';
import type { Schema } from '../../shared/api/contract';
import { isLanguage, type Language } from '../../shared/languages';
import type { Clock } from '../clock';
import { applySessionVerdict, isTokenShaped, judgeSession, sessionIdFromToken, type ValidatedSession } from '../auth/sessions';
import { memberCountsJoin, type MemberCounts } from './counts';
import { searchDefaultColumns, searchDefaultsOf, type SearchDefaults } from './search';

/** The signed-in member (`User` of openapi/openapi.yaml). */
export type CurrentUser = Schema<'User'>;

/** The columns a CurrentUser is made of (not the whole rows: a page needs these and no more). */
const memberColumns = {
  id: users.id,
  email: users.email,
  status: users.status,
  credits: users.credits,
  paidUser: users.paidUser,
  signupDate: users.signupDate,
  language: users.language,
  invisible: users.invisible,
  notificationsDisabled: users.notificationsDisabled,
  name: profiles.name,
  country: profiles.country,
  profileStatus: profiles.status,
  fictional: profiles.fictional,
  photoFilename: photos.filename,
  photoThumb: photos.thumbFilename,
  photoStatus: photos.status,
};

/** The member's main photo, unless it was removed: joined by every member lookup. */
const mainPhotoJoin = and(eq(photos.id, profiles.mainPhotoId), sql`${photos.status} <> 'removed'`);

type MemberRow = {
  id: number;
  email: string;
  status: UserStatus;
  credits: number;
  paidUser: boolean;
  signupDate: Date;
  language: string;
  invisible: boolean;
  notificationsDisabled: string[];
  name: string;
  country: string;
  profileStatus: ProfileStatus;
  fictional: boolean;
  photoFilename: string | null;
  photoThumb: string | null;
  photoStatus: PhotoStatus | null;
};

function toCurrentUser(row: MemberRow): CurrentUser {
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    credits: row.credits,
    paid_user: row.paidUser,
    signup_date: row.signupDate.toISOString(),
    fictional_icon: row.fictional,
    language: isLanguage(row.language) ? row.language : 'en',
    invisible: row.invisible,
    notifications_disabled: row.notificationsDisabled,
    profile: {
      id: row.id,
      name: row.name,
      country: row.country,
      status: row.profileStatus,
      main_image: row.photoFilename !== null && row.photoThumb !== null && row.photoStatus !== null ? { filename: row.photoFilename, thumb_filename: row.photoThumb, status: row.photoStatus } : null,
    },
  };
}

/** Loads the member with their profile and main image; null when the account is gone. */
export async function loadCurrentUser(db: Db, userId: number): Promise<CurrentUser | null> {
  const [row] = await db
    .select(memberColumns)
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(photos, mainPhotoJoin)
    .where(eq(users.id, userId))
    .limit(1);
  return row ? toCurrentUser(row) : null;
}

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

/** SQL: the ids of the members `member` blocked or is blocked by, as an int array (both ways, BLK-01). */
const blockedEitherWay = (member: typeof sessions.userId) =>
  sql<number[]>`array(select ${blocks.blockedId} from ${blocks} where ${blocks.blockerId} = ${member} union select ${blocks.blockerId} from ${blocks} where ${blocks.blockedId} = ${member})`;

const sessionColumns = { ...memberColumns, sessionId: sessions.id, expiresAt: sessions.expiresAt, siteId: users.siteId, dismissals: users.dismissals };

/**
 * The member behind a session cookie, in one query that runs on every signed-in request (built once per
 * database handle): the session, the account, the profile, the main photo and the dismissals, and with
 * `counts` (a page request: its navigation shows them) the member's counts too (src/server/members/counts.ts),
 * the members blocked either way (a page that lists members leaves them out with no query of its own)
 * and the member's own search defaults (the search page starts from them without reading the profile again).
 * The session rules are those of validateSessionToken (judgeSession). Null when the token counts for nothing.
 */
export async function loadSessionMember(db: Db, clock: Clock, token: string, siteId: number, options: { counts?: boolean } = {}): Promise<SessionMember | null> {
  if (!isTokenShaped(token)) return null;
  const id = sessionIdFromToken(token);
  let row: (MemberRow & { sessionId: string; expiresAt: Date; siteId: number; dismissals: Record<string, string> | null }) | undefined;
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
  return { ...valid, user: toCurrentUser(row), dismissals: row.dismissals ?? {}, counts, blocked, searchDefaults };
}

export async function setUserLanguage(db: Db, userId: number, language: Language): Promise<void> {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}

export type LanguageChange = { type: 'ok'; language: Language } | { type: 'error'; reason: 'unsupported_language' };

/**
 * A change of interface language (I18N-02, I18N-03): only one of the site's languages; a member's is
 * stored too (their e-mails are written in it). The caller sets the language cookie.
 */
export async function changeLanguage(db: Db, input: { languages: readonly Language[]; userId: number | null; value: unknown }): Promise<LanguageChange> {
  const { value } = input;
  if (!isLanguage(value) || !input.languages.includes(value)) return { type: 'error', reason: 'unsupported_language' };
  if (input.userId !== null) await setUserLanguage(db, input.userId, value);
  return { type: 'ok', language: value };
}
