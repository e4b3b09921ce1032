/**
 * Who may receive a stored image file (MEM-04, PHO-02, SEC-07): a photo is served only under the host
 * of its owner's site; there, active non-premium photos are public, premium photos go only to premium
 * members and the owner, photos under inspection only to the owner, removed ones never. Under another
 * site's host every photo is "not found", as if it did not exist: a member of one site (premium or not)
 * never reaches another site's photos, and the answer does not tell that the file exists elsewhere.
 * A premium photo's blurred copy (blur.ts) is public on its site while the photo is active: it is what
 * non-premium viewers get instead of the sharp file.
 */
import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { conversations, messages, photos, users } from '../../db/schema';
import { isPartnerImage } from '../sites/partners';

export type PhotoAccess = { type: 'public' } | { type: 'private' } | { type: 'denied' };

/** The viewer as the request knows them: a member of the request's site (sessions are per site), or null. */
export type PhotoViewer = { id: number; paid_user: boolean } | null;

/**
 * Whether the file `name` may be sent on the site `siteId` (the request's site, `locals.site`) to
 * `viewer`, and how it may be cached (`public` for anyone, `private` for this viewer only).
 */
export async function photoAccess(db: Db, name: string, siteId: number, viewer: PhotoViewer): Promise<PhotoAccess> {
  const [photo] = await db
    .select({ userId: photos.userId, status: photos.status, premium: photos.premium, siteId: users.siteId, blurred: photos.blurredFilename })
    .from(photos)
    .innerJoin(users, eq(users.id, photos.userId))
    .where(or(eq(photos.filename, name), eq(photos.thumbFilename, name), eq(photos.blurredFilename, name)))
    .limit(1);
  if (!photo) {
    // A partner's advertisement image (HON-01): public under its site's host.
    if (/-partner\d+-/.test(name) && (await isPartnerImage(db, siteId, name))) return { type: 'public' };
    return chatPhotoAccess(db, name, siteId, viewer);
  }
  if (photo.status === 'removed' || photo.siteId !== siteId) return { type: 'denied' };
  if (photo.blurred === name) return photo.status === 'active' ? { type: 'public' } : { type: 'denied' };
  const owner = viewer?.id === photo.userId;
  if (photo.status === 'inspection_pending') return owner ? { type: 'private' } : { type: 'denied' };
  if (photo.premium) return owner || viewer?.paid_user ? { type: 'private' } : { type: 'denied' };
  return { type: 'public' };
}

/**
 * A photo sent in a chat (GFT-01): only the sender and the recipient receive it, only under their site's
 * host, never cached by anyone else (`private`).
 */
async function chatPhotoAccess(db: Db, name: string, siteId: number, viewer: PhotoViewer): Promise<PhotoAccess> {
  if (!viewer) return { type: 'denied' };
  const [sent] = await db
    .select({ sender: messages.senderId, recipient: messages.recipientId, siteId: conversations.siteId })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.attachment, name), eq(messages.kind, 'photo')))
    .limit(1);
  if (!sent || sent.siteId !== siteId) return { type: 'denied' };
  return viewer.id === sent.sender || viewer.id === sent.recipient ? { type: 'private' } : { type: 'denied' };
}
