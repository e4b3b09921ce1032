/**
 * Who may receive a stored image file (MEM-04, PHO-02): active non-premium photos are public; premium
 * photos only to premium members and the owner; photos under inspection only to the owner; removed never.
 */
import { eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos } from '../../db/schema';

export type PhotoAccess = { type: 'public' } | { type: 'private' } | { type: 'denied' };

export async function photoAccess(db: Db, name: string, viewer: { id: number; paid_user: boolean } | null): Promise<PhotoAccess> {
  const [photo] = await db
    .select({ userId: photos.userId, status: photos.status, premium: photos.premium })
    .from(photos)
    .where(or(eq(photos.filename, name), eq(photos.thumbFilename, name)))
    .limit(1);
  if (!photo || photo.status === 'removed') return { type: 'denied' };
  const owner = viewer?.id === photo.userId;
  if (photo.status === 'inspection_pending') return owner ? { type: 'private' } : { type: 'denied' };
  if (photo.premium) return owner || viewer?.paid_user ? { type: 'private' } : { type: 'denied' };
  return { type: 'public' };
}
