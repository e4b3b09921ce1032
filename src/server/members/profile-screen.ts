/**
 * What the profile screen (`/members/{id}` and `/likes/m/{id}`, MEM-03) shows to a viewer: the member
 * when listed to the viewer (visibility.ts: same site, active, not invisible, no block either way),
 * whether the viewer likes them, and — for a member the viewer blocked — their name and the way to
 * unblock (BLK-01). Opening the screen clears the 'new' flag of that member's like to the viewer (LIK-02).
 * Premium photos come locked, with a blurred copy (MEM-04, profile-view.ts).
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profiles, users } from '../../db/schema';
import type { Clock } from '../clock';
import type { PhotoStore } from '../photos/store';
import { hasBlocked } from './blocks';
import { markSeen } from './likes';
import { loadProfileViewWithFacts } from './profile-view';
import { isListedTo, listedTo } from './visibility';
import { verificationRequired } from '../photos/verification';

export type ProfileView = NonNullable<Awaited<ReturnType<typeof loadProfileViewWithFacts>>>['view'];

export type ProfileScreenData =
  /** `likeSeen`: opening the screen cleared the 'new' flag of the member's like (the viewer's badge counts changed). */
  | { type: 'ok'; member: ProfileView; liked: boolean; signedIn: boolean; likeSeen: boolean; verificationRequired: boolean }
  /**
   * The viewer blocked this member, who is otherwise shown on the site: the page says so (200, to the
   * blocker only) and offers to lift the block (BLK-01).
   */
  | { type: 'blocked_by_me'; id: number; name: string }
  /** The viewer's own id: their own profile page is /profile. */
  | { type: 'self' }
  | { type: 'not_found' };

export interface ProfileScreenDeps {
  db: Db;
  clock: Clock;
  photos: PhotoStore;
}

export interface ScreenViewer {
  siteId: number;
  /** The signed-in member, or null for a visitor. */
  user: { id: number; paid_user: boolean } | null;
  /**
   * The members blocked by or blocking the signed-in member, when the request knows them (a page
   * request's session lookup reads them, decision 054): the screen then needs no query of its own to
   * know whether the member is listed to the viewer (issue 26).
   */
  blocked?: ReadonlySet<number> | null;
}

export async function loadProfileScreen(deps: ProfileScreenDeps, viewer: ScreenViewer, memberId: number | null): Promise<ProfileScreenData> {
  if (memberId === null) return { type: 'not_found' };
  const { db } = deps;
  const user = viewer.user;
  if (user && user.id === memberId) return { type: 'self' };
  const now = deps.clock.now();
  // The profile's own query asks what listedTo asks but the blocks (same site, profile and account
  // active, not invisible): with the blocks known, no block either way and a profile found is listed.
  const known = user && viewer.blocked ? !viewer.blocked.has(memberId) : null;
  if (known && user) return profileFor(deps, viewer, user, memberId, now);
  const listed = known ?? (await isListedTo(db, { siteId: viewer.siteId, userId: user?.id ?? null }, memberId));
  if (!listed) {
    // The blocker's page about the block: only for a member the blocker would see but for blocks (a
    // deleted, disabled or invisible member stays not found, blocked or not).
    if (user && (await hasBlocked(db, { siteId: viewer.siteId, userId: user.id }, memberId))) {
      const [row] = await db
        .select({ name: profiles.name })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.userId))
        .where(and(eq(users.id, memberId), listedTo({ siteId: viewer.siteId, userId: null, everyone: true })))
        .limit(1);
      if (row) return { type: 'blocked_by_me', id: memberId, name: row.name };
    }
    return { type: 'not_found' };
  }
  return profileFor(deps, viewer, user, memberId, now);
}

/**
 * The screen of a member listed to the viewer: the profile's query also says whether the viewer likes
 * them, whether their like of the viewer is unseen and whether they take first messages from verified
 * members only (profile-view.ts, ProfileViewerFacts), so a profile page is the profile and its photos, plus a write only
 * when there is a like to mark seen and a look at the viewer's verification only when the member asks
 * for it (issue 26: 5 statements → 2).
 */
async function profileFor(deps: ProfileScreenDeps, viewer: ScreenViewer, user: ScreenViewer['user'], memberId: number, now: Date): Promise<ProfileScreenData> {
  const found = await loadProfileViewWithFacts(deps.db, { siteId: viewer.siteId, memberId, viewer: user, now, photos: deps.photos });
  if (!found) return { type: 'not_found' };
  const { facts } = found;
  // Marked seen only once the member is known to be listed (the update checks again that it is unseen).
  const [likeSeen, needsVerification] = await Promise.all([
    user && facts.likeUnseen ? markSeen(deps, { siteId: viewer.siteId, userId: user.id }, memberId) : false,
    // VER-02: the member lets only verified members start a conversation, and the viewer is not one (yet).
    user && facts.onlyVerified ? verificationRequired(deps.db, user.id, memberId) : false,
  ]);
  return { type: 'ok', member: found.view, liked: facts.liked, signedIn: user !== null, likeSeen, verificationRequired: needsVerification };
}
