/**
 * A member's profile as another member (or an allowed visitor) sees it: only active, visible members of
 * the same site; premium photos only for premium viewers and the owner (MEM-04) — others get their
 * place without the sharp file's name, only the name of its blurred copy (blur.ts, made on first need
 * when the photo store is given), so no sharp copy ever reaches them.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, users } from '../../db/schema';
import { ensureBlurred } from '../photos/blur';
import { photoOrder } from '../photos/manage';
import type { PhotoStore } from '../photos/store';
import { loadProfileDetails } from './profile';

export interface ProfilePhoto {
  id: number;
  /** Null when the viewer may not see it (premium photo, non-premium viewer). */
  filename: string | null;
  thumb: string | null;
  locked: boolean;
  /** A locked photo's blurred copy (shown with the lock), or null. */
  blurred: string | null;
}

export async function loadProfileView(db: Db, options: { siteId: number; memberId: number; viewer: { id: number; paid_user: boolean } | null; now: Date; photos?: PhotoStore }) {
  const [member] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.id, options.memberId), eq(profiles.siteId, options.siteId), eq(profiles.status, 'active'), eq(users.status, 'active'), eq(users.invisible, false)))
    .limit(1);
  if (!member) return null;
  const details = await loadProfileDetails(db, member.id, options.now);
  if (!details) return null;
  const rows = await db
    .select({ id: photos.id, filename: photos.filename, thumb: photos.thumbFilename, premium: photos.premium, blurredFilename: photos.blurredFilename })
    .from(photos)
    .where(and(eq(photos.userId, member.id), eq(photos.status, 'active'), ne(photos.id, details.mainPhotoId ?? -1)))
    .orderBy(...photoOrder);
  const [main] = details.mainPhotoId
    ? await db.select({ id: photos.id, filename: photos.filename, thumb: photos.thumbFilename, premium: photos.premium, blurredFilename: photos.blurredFilename }).from(photos).where(and(eq(photos.id, details.mainPhotoId), eq(photos.status, 'active'))).limit(1)
    : [];
  const mayUnlock = options.viewer !== null && (options.viewer.paid_user || options.viewer.id === member.id);
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
    id: member.id,
    mainImage: main && !mainLocked ? main.filename : null,
    mainThumb: main && !mainLocked ? main.thumb : null,
    mainBlurred: main && mainLocked ? await blurred(main) : null,
    gallery,
  };
}
