/**
 * A member's own photos (PHO-01..03, docs/decisions/043-photo-management-and-moderation.md): the list
 * the owner sees with each photo's state (active, being reviewed, removed with the moderator's reason),
 * and what the owner may do with one: make it the main photo, delete it, mark it premium (shown sharp
 * to premium members only, blurred to others: blur.ts) and move it up or down in their order.
 *
 * Every photo id comes from the browser and is re-checked against the owner: another member's photo,
 * or one that does not exist, is `not_found` (404) — never "forbidden", which would say it exists.
 *
 * The main photo is the face on cards, teasers and landers, which everyone sees: it cannot be premium
 * (a premium main photo would be a blurred or broken card). A change that may change a card (the main
 * photo, a deleted active photo) is published as `site.content_changed`, so every process drops the
 * site's cached teasers and rendered pages (decision 016, 021).
 */
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { photos, profiles, users, type PhotoStatus } from '../../db/schema';
import type { DbTransaction } from '../credits/ledger';
import type { EventBus } from '../realtime/bus';
import type { PhotoStore } from './store';

/** The fixed reasons a moderator may give for removing a photo (OPS-01); texts in `photos_manage:reasons.*`. */
export const PHOTO_REJECTION_REASONS = ['not_recognisable', 'not_yourself', 'explicit', 'contact_details', 'poor_quality'] as const;
export type PhotoRejectionReason = (typeof PHOTO_REJECTION_REASONS)[number];

export function isRejectionReason(value: unknown): value is PhotoRejectionReason {
  return typeof value === 'string' && (PHOTO_REJECTION_REASONS as readonly string[]).includes(value);
}

export interface OwnPhoto {
  id: number;
  filename: string;
  thumbFilename: string;
  status: PhotoStatus;
  premium: boolean;
  position: number;
  rejectionReason: PhotoRejectionReason | null;
  main: boolean;
}

/** The order every list of a member's photos uses: the member's own, then oldest first. */
export const photoOrder = [asc(photos.position), asc(photos.id)] as const;

/** Every photo of `userId` in their order, removed ones included (the owner sees why). */
export async function listOwnPhotos(db: Db, userId: number): Promise<OwnPhoto[]> {
  const [profile] = await db.select({ main: profiles.mainPhotoId }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  const rows = await db
    .select({
      id: photos.id,
      filename: photos.filename,
      thumbFilename: photos.thumbFilename,
      status: photos.status,
      premium: photos.premium,
      position: photos.position,
      rejectionReason: photos.rejectionReason,
    })
    .from(photos)
    .where(eq(photos.userId, userId))
    .orderBy(...photoOrder);
  return rows.map((r) => ({ ...r, rejectionReason: isRejectionReason(r.rejectionReason) ? r.rejectionReason : null, main: r.id === profile?.main }));
}

export interface ManageDeps {
  db: Db;
  photos: PhotoStore;
  bus: EventBus;
}

export type ManageResult = { type: 'ok' } | { type: 'error'; reason: 'not_found' | 'photo_removed' | 'premium_main' };

type Owned = { id: number; status: PhotoStatus; premium: boolean; siteId: number; filename: string; thumbFilename: string; blurredFilename: string | null };

/** The photo `photoId` if `userId` owns it (locked for the transaction), else undefined. */
async function ownedPhoto(tx: DbTransaction, userId: number, photoId: number): Promise<Owned | undefined> {
  if (!Number.isSafeInteger(photoId) || photoId <= 0 || photoId > 2_147_483_647) return undefined;
  const [row] = await tx
    .select({
      id: photos.id,
      status: photos.status,
      premium: photos.premium,
      siteId: users.siteId,
      filename: photos.filename,
      thumbFilename: photos.thumbFilename,
      blurredFilename: photos.blurredFilename,
    })
    .from(photos)
    .innerJoin(users, eq(users.id, photos.userId))
    .where(and(eq(photos.id, photoId), eq(photos.userId, userId)))
    .for('update', { of: photos });
  return row;
}

/**
 * Gives `userId` a main photo again after theirs went (deleted, removed by moderation): the first in
 * their order that is active and not premium, else the first waiting for review, else none.
 */
export async function promoteNextMain(tx: DbTransaction, userId: number): Promise<void> {
  const candidates = await tx
    .select({ id: photos.id, status: photos.status, premium: photos.premium })
    .from(photos)
    .where(and(eq(photos.userId, userId), ne(photos.status, 'removed'), eq(photos.premium, false)))
    .orderBy(...photoOrder);
  const next = candidates.find((p) => p.status === 'active') ?? candidates[0];
  await tx
    .update(profiles)
    .set({ mainPhotoId: next?.id ?? null })
    .where(eq(profiles.userId, userId));
}

async function mainPhotoOf(tx: DbTransaction, userId: number): Promise<number | null> {
  const [row] = await tx.select({ main: profiles.mainPhotoId }).from(profiles).where(eq(profiles.userId, userId)).for('update');
  return row?.main ?? null;
}

/** Makes `photoId` the main photo (PHO-03). Refused for a removed photo and a premium one. */
export async function setMainPhoto(deps: ManageDeps, userId: number, photoId: number): Promise<ManageResult> {
  const result = await deps.db.transaction(async (tx) => {
    const photo = await ownedPhoto(tx, userId, photoId);
    if (!photo) return { type: 'error', reason: 'not_found' } as const;
    if (photo.status === 'removed') return { type: 'error', reason: 'photo_removed' } as const;
    if (photo.premium) return { type: 'error', reason: 'premium_main' } as const;
    await mainPhotoOf(tx, userId);
    await tx.update(profiles).set({ mainPhotoId: photo.id }).where(eq(profiles.userId, userId));
    return { type: 'ok', siteId: photo.siteId } as const;
  });
  if (result.type !== 'ok') return result;
  await deps.bus.publish('site.content_changed', { siteId: result.siteId });
  return { type: 'ok' };
}

/**
 * Deletes `photoId` (PHO-03): the row and its files (main, thumbnail, blurred copy). When it was the main
 * photo the next one takes its place.
 */
export async function deletePhoto(deps: ManageDeps, userId: number, photoId: number): Promise<ManageResult> {
  const result = await deps.db.transaction(async (tx) => {
    const photo = await ownedPhoto(tx, userId, photoId);
    if (!photo) return { type: 'error', reason: 'not_found' } as const;
    const wasMain = (await mainPhotoOf(tx, userId)) === photo.id;
    await tx.delete(photos).where(eq(photos.id, photo.id));
    if (wasMain) await promoteNextMain(tx, userId);
    return { type: 'ok', photo, wasMain } as const;
  });
  if (result.type !== 'ok') return result;
  const { photo } = result;
  await Promise.all([photo.filename, photo.thumbFilename, photo.blurredFilename].filter((n): n is string => n !== null).map((n) => deps.photos.delete(n)));
  if (photo.status === 'active' || result.wasMain) await deps.bus.publish('site.content_changed', { siteId: photo.siteId });
  return { type: 'ok' };
}

/** Marks `photoId` premium or not (MEM-04). The main photo cannot be premium. */
export async function setPhotoPremium(deps: ManageDeps, userId: number, photoId: number, premium: boolean): Promise<ManageResult> {
  const result = await deps.db.transaction(async (tx) => {
    const photo = await ownedPhoto(tx, userId, photoId);
    if (!photo) return { type: 'error', reason: 'not_found' } as const;
    if (photo.status === 'removed') return { type: 'error', reason: 'photo_removed' } as const;
    if (premium && (await mainPhotoOf(tx, userId)) === photo.id) return { type: 'error', reason: 'premium_main' } as const;
    if (photo.premium !== premium) await tx.update(photos).set({ premium }).where(eq(photos.id, photo.id));
    return { type: 'ok', siteId: photo.siteId, changed: photo.premium !== premium && photo.status === 'active' } as const;
  });
  if (result.type !== 'ok') return result;
  if (result.changed) await deps.bus.publish('site.content_changed', { siteId: result.siteId });
  return { type: 'ok' };
}

/**
 * Moves `photoId` one place up or down in the owner's order (PHO-03). The positions are written again
 * as 0, 1, 2… in the new order, so ties and gaps from older rows disappear.
 */
export async function movePhoto(deps: ManageDeps, userId: number, photoId: number, direction: 'up' | 'down'): Promise<ManageResult> {
  return deps.db.transaction(async (tx) => {
    const photo = await ownedPhoto(tx, userId, photoId);
    if (!photo) return { type: 'error', reason: 'not_found' } as const;
    const rows = await tx
      .select({ id: photos.id })
      .from(photos)
      .where(eq(photos.userId, userId))
      .orderBy(...photoOrder)
      .for('update');
    const order = rows.map((r) => r.id);
    const at = order.indexOf(photo.id);
    const to = direction === 'up' ? at - 1 : at + 1;
    if (to >= 0 && to < order.length) [order[at], order[to]] = [order[to]!, order[at]!];
    await writeOrder(tx, order);
    return { type: 'ok' } as const;
  });
}

/** Sets positions 0..n-1 in the order given (one statement). */
async function writeOrder(tx: DbTransaction, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const cases = sql.join(
    ids.map((id, i) => sql`when ${id}::int then ${i}::int`),
    sql` `,
  );
  await tx
    .update(photos)
    .set({ position: sql`case ${photos.id} ${cases} end` })
    .where(
      sql`${photos.id} in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
}
