/**
 * A member's profile as another member (or an allowed visitor) sees it: only active, visible members of
 * the same site; premium photos only for premium viewers and the owner (MEM-04) — others get their
 * place without the sharp file's name, only the name of its blurred copy (blur.ts, made on first need
 * when the photo store is given), so no sharp copy ever reaches them.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { likes, photos, profiles, regions, users } from '../../db/schema';
import { ensureBlurred } from '../photos/blur';
import { photoOrder } from '../photos/manage';
import type { PhotoStore } from '../photos/store';
import { ageOn } from './listing';

export interface ProfilePhoto {
  id: number;
  /** Null when the viewer may not see it (premium photo, non-premium viewer). */
  filename: string | null;
  thumb: string | null;
  locked: boolean;
  /** A locked photo's blurred copy (shown with the lock), or null. */
  blurred: string | null;
}

/**
 * What the profile's own query also tells about the viewer and the member, so the profile screen needs
 * no query of its own for it (issue 26): whether the viewer likes the member, whether the member's like
 * of the viewer is still unseen (only then is there a 'seen' to write), and whether the member accepts
 * first messages from verified members only (VER-02; only then is the viewer's verification asked).
 * All false for a visitor.
 */
export interface ProfileViewerFacts {
  liked: boolean;
  likeUnseen: boolean;
  onlyVerified: boolean;
}

/**
 * The profile as the viewer sees it (only active, visible members of the site; null otherwise), with
 * {@link ProfileViewerFacts} kept apart: they are not the profile's, and the page must not show them.
 */
export async function loadProfileViewWithFacts(db: Db, options: { siteId: number; memberId: number; viewer: { id: number; paid_user: boolean } | null; now: Date; photos?: PhotoStore }) {
  // The profile of an active, visible member of the site with all their active photos, in their order, in
  // one statement (built once per handle, src/db/prepared.ts: a profile page runs it on every request). A
  // visitor asks as viewer 0, which no member is.
  const profileQuery = preparedOn(db, 'profile_view', (d) =>
    d
      .select({
        profile: profiles,
        region: regions.name,
        liked: sql<boolean>`exists (select 1 from ${likes} where ${likes.likerId} = ${sql.placeholder('viewerId')} and ${likes.likedId} = ${users.id})`,
        likeUnseen: sql<boolean>`exists (select 1 from ${likes} where ${likes.likerId} = ${users.id} and ${likes.likedId} = ${sql.placeholder('viewerId')} and ${likes.seenAt} is null)`,
        onlyVerified: users.onlyVerifiedContact,
        photos: sql<
          ActivePhoto[]
        >`coalesce((select json_agg(json_build_object('id', ${photos.id}, 'filename', ${photos.filename}, 'thumb', ${photos.thumbFilename}, 'premium', ${photos.premium}, 'blurredFilename', ${photos.blurredFilename}) order by ${sql.join([...photoOrder], sql`, `)}) from ${photos} where ${photos.userId} = ${users.id} and ${photos.status} = 'active'), '[]'::json)`,
      })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .leftJoin(regions, eq(regions.id, profiles.regionId))
      .where(and(eq(users.id, sql.placeholder('memberId')), eq(profiles.siteId, sql.placeholder('siteId')), eq(profiles.status, 'active'), eq(users.status, 'active'), eq(users.invisible, false)))
      .limit(1)
      .prepare('profile_view'),
  );
  const [row] = await profileQuery.execute({ memberId: options.memberId, siteId: options.siteId, viewerId: options.viewer?.id ?? 0 });
  if (!row) return null;
  const facts: ProfileViewerFacts = { liked: Boolean(row.liked), likeUnseen: Boolean(row.likeUnseen), onlyVerified: row.onlyVerified };
  return { view: await profileViewOf(db, row, options), facts };
}

/** One of the member's active photos as the profile's query answers them (JSON, in the member's order). */
interface ActivePhoto {
  id: number;
  filename: string;
  thumb: string | null;
  premium: boolean;
  blurredFilename: string | null;
}

async function profileViewOf(
  db: Db,
  row: { profile: typeof profiles.$inferSelect; region: string | null; photos: ActivePhoto[] | string },
  options: { memberId: number; viewer: { id: number; paid_user: boolean } | null; now: Date; photos?: PhotoStore },
) {
  const details = { ...row.profile, region: row.region, age: ageOn(row.profile.birthDate, options.now) };
  const memberId = options.memberId;
  const active: ActivePhoto[] = typeof row.photos === 'string' ? (JSON.parse(row.photos) as ActivePhoto[]) : row.photos;
  const main = details.mainPhotoId === null ? undefined : active.find((p) => p.id === details.mainPhotoId);
  const rows = active.filter((p) => p.id !== details.mainPhotoId);
  const mayUnlock = options.viewer !== null && (options.viewer.paid_user || options.viewer.id === memberId);
  const store = options.photos;
  const blurred = (p: { id: number; filename: string; blurredFilename: string | null }) => (store ? ensureBlurred({ db, photos: store }, p) : Promise.resolve(null));
  const gallery: ProfilePhoto[] = await Promise.all(
    rows.map(async (p) => {
      const locked = p.premium && !mayUnlock;
      return { id: p.id, filename: locked ? null : p.filename, thumb: locked ? null : p.thumb, locked, blurred: locked ? await blurred(p) : null };
    }),
  );
  const mainLocked = main !== undefined && main.premium && !mayUnlock;
  return {
    ...details,
    id: memberId,
    mainImage: main && !mainLocked ? main.filename : null,
    mainThumb: main && !mainLocked ? main.thumb : null,
    mainBlurred: main && mainLocked ? await blurred(main) : null,
    gallery,
    /** VER-01: the main photo shown is the one a moderator checked against the member's selfie. */
    verified: !details.fictional && details.verifiedPhotoId !== null && details.verifiedPhotoId === details.mainPhotoId && main !== undefined,
  };
}
